// What a sandbox writes when it opens a store: the fixtures' API keys (hashed), the shops' opening balances and the
// secret of flexible-link credentials, each only when the store does not have it yet.
import { createHash } from 'node:crypto';
import type { WorldIndex } from '../../domain/world.js';
import { openingPostings } from '../../domain/lifecycle.js';
import type { ApiKeyRecord, SandboxState, StoreChange } from '../../store/state.js';

const keyHashes = new Map<string, string>();

/** SHA-256 of an API key, memoised (bounded): the same few keys arrive on every request. */
export function hashApiKey(token: string): string {
  let h = keyHashes.get(token);
  if (h === undefined) {
    if (keyHashes.size >= 1000) keyHashes.clear();
    h = createHash('sha256').update(token, 'utf8').digest('hex');
    keyHashes.set(token, h);
  }
  return h;
}

/** The changes that seed an open store from the fixtures (none for what it already holds). */
export function seedChanges(world: WorldIndex, state: SandboxState, at: string): StoreChange[] {
  const changes: StoreChange[] = [];
  for (const k of world.data.api_keys) {
    if (state.keys.has(k.id)) continue;
    const key: ApiKeyRecord = {
      id: k.id,
      shop_id: k.shop_id,
      hash: hashApiKey(k.key),
      last4: k.key.slice(-4),
      revoked: k.revoked,
      created_at: at,
      ...(k.label ? { label: k.label } : {}),
      ...(k.scopes ? { scopes: k.scopes } : {}),
      ...(k.revoked ? { revoked_at: at } : {}),
    };
    changes.push({ kind: 'key', key });
  }
  for (const shop of world.data.shops) {
    for (const ch of openingPostings(shop.id, shop.opening_balances, at)) {
      if (ch.kind === 'posting' && !state.postings.has(ch.posting.id)) changes.push(ch);
    }
  }
  // An older version kept the flexible-link key here; it now lives in the secrets file: drop the plain copy.
  if (state.meta.get('link_secret')?.key !== undefined)
    changes.push({ kind: 'meta', meta: { id: 'link_secret', moved: 'secrets file' } });
  return changes;
}
