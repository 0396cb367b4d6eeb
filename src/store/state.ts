// The sandbox's in-memory state: operations, ledger postings, webhook events and API keys, with the indexes
// the domain reads through StateView. Persistence sees only plain entity upserts.
import type { Decimal } from 'decimal.js';
import type { Posting } from '../domain/ledger.js';
import type { OperationRecord } from '../domain/operation.js';
import type { StateChange, StateView } from '../domain/state.js';
import type { OperationEvent } from '../domain/transitions.js';
import { AccountTotals } from '../domain/ledger.js';
import type { Change, Collections, Entity } from './persistence.js';

/** A stored API key: only the SHA-256 hash of the token is kept. */
export interface ApiKeyRecord {
  id: string;
  shop_id: string;
  hash: string;
  /** Last 4 characters, for display. */
  last4: string;
  revoked: boolean;
  label?: string;
  created_at: string;
  revoked_at?: string;
}

export type StoreChange = StateChange | { kind: 'key'; key: ApiKeyRecord } | { kind: 'meta'; meta: Entity };

export class SandboxState implements StateView {
  readonly operations = new Map<string, OperationRecord>();
  readonly postings = new Map<string, Posting>();
  readonly events = new Map<string, OperationEvent>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly meta = new Map<string, Entity>();
  readonly totals = new AccountTotals();
  private readonly byMoid = new Map<string, string>();
  private readonly byShop = new Map<string, string[]>();
  private readonly keyByHash = new Map<string, string>();
  /** Uploaded file id → the operation that owns it. */
  readonly fileOwner = new Map<string, string>();

  /** Forget everything (sandbox reset). */
  clear(): void {
    for (const m of [this.operations, this.postings, this.events, this.keys, this.meta, this.byMoid, this.byShop, this.keyByHash, this.fileOwner]) {
      (m as Map<string, unknown>).clear();
    }
    this.totals.clear();
  }

  load(collections: Collections): void {
    for (const v of collections.operations ?? []) this.putOperation(v as unknown as OperationRecord);
    for (const v of collections.postings ?? []) this.putPosting(v as unknown as Posting);
    for (const v of collections.events ?? []) this.events.set(v.id, v as unknown as OperationEvent);
    for (const v of collections.keys ?? []) this.putKey(v as unknown as ApiKeyRecord);
    for (const v of collections.meta ?? []) this.meta.set(v.id, v);
  }

  /** Apply changes in memory; returns the entity upserts to persist. */
  apply(changes: readonly StoreChange[]): Change[] {
    const out: Change[] = [];
    for (const ch of changes) {
      switch (ch.kind) {
        case 'operation':
          this.putOperation(ch.op);
          out.push({ c: 'operations', v: ch.op as unknown as Entity });
          break;
        case 'posting':
          if (this.postings.has(ch.posting.id)) throw new Error(`posting ${ch.posting.id} already exists: postings are append-only`);
          this.putPosting(ch.posting);
          out.push({ c: 'postings', v: ch.posting as unknown as Entity });
          break;
        case 'event':
          this.events.set(ch.event.id, ch.event);
          out.push({ c: 'events', v: ch.event as unknown as Entity });
          break;
        case 'key':
          this.putKey(ch.key);
          out.push({ c: 'keys', v: ch.key as unknown as Entity });
          break;
        case 'meta':
          this.meta.set(ch.meta.id, ch.meta);
          out.push({ c: 'meta', v: ch.meta });
          break;
      }
    }
    return out;
  }

  snapshot(): Collections {
    return {
      operations: [...this.operations.values()] as unknown as Entity[],
      postings: [...this.postings.values()] as unknown as Entity[],
      events: [...this.events.values()] as unknown as Entity[],
      keys: [...this.keys.values()] as unknown as Entity[],
      meta: [...this.meta.values()],
    };
  }

  operation(id: string): OperationRecord | undefined {
    return this.operations.get(id);
  }

  operationByMoid(shopId: string, merchantOperationId: string): OperationRecord | undefined {
    const id = this.byMoid.get(moidKey(shopId, merchantOperationId));
    return id === undefined ? undefined : this.operations.get(id);
  }

  operationsOfShop(shopId: string): OperationRecord[] {
    return (this.byShop.get(shopId) ?? []).map((id) => this.operations.get(id)!);
  }

  accountTotal(account: string, currency: string): Decimal {
    return this.totals.get(account, currency);
  }

  keyByTokenHash(hash: string): ApiKeyRecord | undefined {
    const id = this.keyByHash.get(hash);
    return id === undefined ? undefined : this.keys.get(id);
  }

  private putOperation(op: OperationRecord): void {
    if (!this.operations.has(op.id)) {
      this.byMoid.set(moidKey(op.shop_id, op.merchant_operation_id), op.id);
      const list = this.byShop.get(op.shop_id);
      if (list) list.push(op.id);
      else this.byShop.set(op.shop_id, [op.id]);
    }
    this.operations.set(op.id, op);
    for (const u of op.uploads ?? []) this.fileOwner.set(u.file_id, op.id);
  }

  private putPosting(p: Posting): void {
    if (this.postings.has(p.id)) return;
    this.postings.set(p.id, p);
    this.totals.apply(p);
  }

  private putKey(k: ApiKeyRecord): void {
    this.keys.set(k.id, k);
    this.keyByHash.set(k.hash, k.id);
  }
}

function moidKey(shopId: string, moid: string): string {
  return `${shopId}\u0000${moid}`;
}
