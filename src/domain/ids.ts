// Deterministic identifiers: the same shop and merchant_operation_id always give the same operation_id,
// so scenarios and CI runs are reproducible (spec §4.3 rule 2 derives flexible-link ids the same way).
import { hash } from 'node:crypto';

const NAMESPACE = 'paygate/operation/v1';

/** A name-based UUID (version 5 layout, SHA-1) from the parts. */
export function nameUuid(...parts: string[]): string {
  // One-shot hash (no Hash object): this runs on every create.
  const b = hash('sha1', `${NAMESPACE}\u0000${parts.join('\u0000')}`, 'buffer');
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function operationIdFor(shopId: string, merchantOperationId: string): string {
  return nameUuid(shopId, merchantOperationId);
}
