// The registry of a server's workspaces and the hash of its own admin token: a store of its own in the backend
// (workspace `registry`), so a reset of the default workspace never forgets them and PostgreSQL keeps them like the
// file store does. One meta record per workspace (`ws:<id>`; a deleted one is a tombstone: the journal only upserts).
import { createHash } from 'node:crypto';
import type { StoreBackend } from '../../store/backend.js';
import { Store } from '../../store/store.js';
import type { WorkspaceRecord } from './types.js';

export const REGISTRY_WORKSPACE = 'registry';
const PREFIX = 'ws:';
const ADMIN = 'admin_token';
/** Admin tokens added beside the kept one (`sandbox start --add-admin-token`): their hashes. */
const ADDED = 'admin_tokens_added';

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export class Registry {
  private constructor(private readonly store: Store) {}

  static async open(backend: StoreBackend): Promise<Registry> {
    const store = new Store(backend.workspace(REGISTRY_WORKSPACE).persistence);
    await store.open();
    return new Registry(store);
  }

  /** Every workspace registered and not deleted, oldest first. */
  workspaces(): WorkspaceRecord[] {
    const out: WorkspaceRecord[] = [];
    for (const m of this.store.state.meta.values()) {
      if (m.id.startsWith(PREFIX) && m.record) out.push(m.record as WorkspaceRecord);
    }
    return out.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  put(record: WorkspaceRecord): Promise<void> {
    return this.store.commit([{ kind: 'meta', meta: { id: `${PREFIX}${record.id}`, record } }]);
  }

  remove(id: string): Promise<void> {
    return this.store.commit([{ kind: 'meta', meta: { id: `${PREFIX}${id}`, deleted: true } }]);
  }

  /** The default workspace's admin token as kept: its SHA-256 and last 4 characters. */
  adminToken(): { hash: string; last4: string } | undefined {
    const m = this.store.state.meta.get(ADMIN);
    return typeof m?.hash === 'string' ? { hash: m.hash, last4: String(m.last4) } : undefined;
  }

  /** Replace the admin token: the kept one and every added one stop working. */
  setAdminToken(token: string): Promise<void> {
    return this.store.commit([
      { kind: 'meta', meta: { id: ADMIN, hash: sha256(token), last4: token.slice(-4) } },
      { kind: 'meta', meta: { id: ADDED, hashes: [] } },
    ]);
  }

  /** The hashes of the admin tokens added beside the kept one. */
  addedAdminTokens(): string[] {
    const hashes = this.store.state.meta.get(ADDED)?.hashes;
    return Array.isArray(hashes) ? hashes.filter((h): h is string => typeof h === 'string') : [];
  }

  /** One more admin token, valid beside the kept one and those added before (until a token is set again). */
  addAdminToken(token: string): Promise<void> {
    return this.store.commit([
      { kind: 'meta', meta: { id: ADDED, hashes: [...this.addedAdminTokens(), sha256(token)] } },
    ]);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
