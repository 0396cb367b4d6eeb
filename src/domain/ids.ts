// Deterministic identifiers: the same shop and merchant_operation_id always give the same operation_id,
// so scenarios and CI runs are reproducible (spec §4.3 rule 2 derives flexible-link ids the same way).
import { hash } from 'node:crypto';

const NAMESPACE = 'paygate/operation/v1';

/** The variant nibble of a name-based UUID: 10xx over the digest's two low bits of that nibble. */
const VARIANT = '89ab89ab89ab89ab';

/** A name-based UUID (version 5 layout, SHA-1) from the parts. */
export function nameUuid(...parts: string[]): string {
  // One-shot hash to hex (no Hash object, no Buffer): this runs on every create. The version nibble is 5, the
  // variant nibble keeps its two low bits under 10.
  const h = hash('sha1', `${NAMESPACE}\u0000${parts.join('\u0000')}`, 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${VARIANT[parseInt(h[16]!, 16)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function operationIdFor(shopId: string, merchantOperationId: string): string {
  return nameUuid(shopId, merchantOperationId);
}
