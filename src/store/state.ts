// The sandbox's in-memory state: operations, ledger postings, webhook events, API keys, webhook endpoints and
// the webhook outbox, with the indexes the domain reads through StateView. Persistence sees only plain entity upserts.
import { claimOf, poolOf, uploadsOf } from '../domain/operation.js';
import type { Decimal } from 'decimal.js';
import type { Posting } from '../domain/ledger.js';
import type { OperationRecord } from '../domain/operation.js';
import type { StateChange, StateView } from '../domain/state.js';
import { storedEvent, type StoredEvent } from '../domain/transitions.js';
import { AccountTotals, validatePosting } from '../domain/ledger.js';
import type { KeyScope } from '../domain/world.js';
import type { LinkRecord } from '../domain/links.js';
import { PoolIndex, type PoolWindow } from '../domain/pool.js';
import { OperationIndex } from './operation-index.js';
import type { Change, Collections, Entity } from './persistence.js';
import {
  DeliveryIndex,
  deliveryFromStored,
  withStoredAttempt,
  type StoredAttemptRow,
  type WebhookDeliveryRecord,
} from './delivery-index.js';
import { PackedMap } from './packed-map.js';
import { captureState } from './state-capture.js';
import { ColdTexts } from './cold-texts.js';
import { PACKED, loadPacked } from './state-load.js';
import type { EntityMaps } from './snapshot.js';

export type { DeliveryAttempt, WebhookDeliveryRecord } from './delivery-index.js';

/** A sandbox setting or seed marker in the `meta` collection: an id and any JSON fields. */
export interface MetaRecord {
  id: string;
  [k: string]: unknown;
}

/** A stored API key: only the SHA-256 hash of the token is kept. */
export type ApiKeyRecord = {
  id: string;
  shop_id: string;
  hash: string;
  /** Last 4 characters, for display. */
  last4: string;
  revoked: boolean;
  label?: string;
  /** Optional endpoint groups the key may call; absent = all (see KeyScope). */
  scopes?: KeyScope[];
  created_at: string;
  revoked_at?: string;
};

/** A shop's webhook endpoint. Secrets are the sandbox's own signing secrets (`whsec_…`); never log them. */
export type WebhookEndpointRecord = {
  id: string;
  shop_id: string;
  url: string;
  /** Current signing secret. */
  secret: string;
  /** Secrets replaced by a rotation, still signed alongside until `expires_at` (sandbox time). */
  previous_secrets: { secret: string; expires_at: string }[];
  /** Where it came from: fixtures, the webhookUrl option, or the control API. */
  source: 'fixture' | 'option' | 'api';
  created_at: string;
  /** Set by DELETE: the endpoint gets no new deliveries (records are never removed: the journal only upserts). */
  deleted_at?: string;
};

/** The exact body of an event's webhook, stored once per event (whatever the number of endpoints), sent and signed as is on every attempt. */
export type WebhookPayloadRecord = {
  /** The event id. */
  id: string;
  body: string;
};

export type StoreChange =
  | StateChange
  | { kind: 'key'; key: ApiKeyRecord }
  | { kind: 'meta'; meta: MetaRecord }
  | { kind: 'webhook_endpoint'; endpoint: WebhookEndpointRecord }
  | { kind: 'webhook_delivery'; delivery: WebhookDeliveryRecord }
  | { kind: 'webhook_payload'; payload: WebhookPayloadRecord };

/** What applying one transaction in memory gives: the upserts to write, and how to take it back. */
export interface Applied {
  upserts: Change[];
  /** What each upserted entity was before (undefined: it did not exist), aligned with `upserts`. */
  before: (Entity | undefined)[];
  undo: () => void;
}

export class SandboxState implements StateView {
  /** The bulk of the state, kept mostly as JSON text (see PackedMap): the last 20,000 operations written stay objects. */
  readonly operations = new PackedMap<OperationRecord>(20_000, 4096);
  readonly postings = new PackedMap<Posting>(4096, 1024);
  readonly events = new PackedMap<StoredEvent>(1024, 256);
  /** Where the texts of the three maps above are when they are in the snapshot file, not in memory. */
  readonly cold = new ColdTexts();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly meta = new Map<string, MetaRecord>();
  readonly webhookEndpoints = new Map<string, WebhookEndpointRecord>();
  readonly webhookDeliveries = new Map<string, WebhookDeliveryRecord>();
  /** Event id → its webhook body. */
  readonly webhookPayloads = new Map<string, string>();
  /** Each shop's deliveries in the order they were created (the shop is the endpoint's). */
  readonly deliveryIndex = new DeliveryIndex();
  readonly totals = new AccountTotals();
  /** Flexible links by operation_id (spec §4.3). */
  readonly links = new Map<string, LinkRecord>();
  /** The self-matching pools' payout slots, kept current from operation upserts. */
  readonly pools = new PoolIndex();
  /** Load views of the operations loaded in a status with a timer, until the service's start has read them. */
  readonly loadViews = new Map<string, OperationRecord>();
  /** The sandbox listing's index: a shop's operations by status and type, newest first. */
  readonly operationIndex = new OperationIndex();
  private readonly keyByHash = new Map<string, string>();
  /** Uploaded file id → the operation that owns it. */
  readonly fileOwner = new Map<string, string>();

  constructor() {
    this.operations.cold = this.postings.cold = this.events.cold = this.cold;
  }

  /** Forget everything (sandbox reset). */
  clear(): void {
    this.cold.clear();
    for (const m of [
      this.operations,
      this.postings,
      this.events,
      this.keys,
      this.meta,
      this.webhookEndpoints,
      this.webhookDeliveries,
      this.webhookPayloads,
      this.keyByHash,
      this.fileOwner,
    ]) {
      (m as Map<string, unknown>).clear();
    }
    this.totals.clear();
    this.loadViews.clear();
    this.operationIndex.clear();
    this.deliveryIndex.clear();
    this.links.clear();
    this.pools.clear();
  }

  load(collections: Collections): void {
    this.loadMaps(
      new Map(Object.entries(collections).map(([name, list]) => [name, new Map(list.map((v) => [v.id, v] as const))])),
    );
  }

  /** Load what a store holds: each entity as its object or its JSON text (kept as text where the state packs it). */
  loadMaps(maps: EntityMaps): void {
    const each = (c: string, fn: (v: Entity, id: string) => void) => {
      for (const [id, v] of maps.get(c) ?? []) fn(typeof v === 'string' ? (JSON.parse(v) as Entity) : v, id);
    };
    for (const c of PACKED) for (const [id, v] of maps.get(c) ?? []) loadPacked(this, c, id, v);
    each('keys', (v) => this.putKey(v as ApiKeyRecord));
    each('meta', (v, id) => this.meta.set(id, v as MetaRecord));
    each('links', (v, id) => this.links.set(id, v as LinkRecord));
    each('webhook_endpoints', (v, id) => this.webhookEndpoints.set(id, v as WebhookEndpointRecord));
    each('webhook_deliveries', (v) => {
      const { record, shop_id } = deliveryFromStored(v);
      this.putDelivery(record, shop_id);
    });
    each('webhook_payloads', (v, id) => this.webhookPayloads.set(id, (v as WebhookPayloadRecord).body));
    // An earlier version's attempt rows: into their deliveries (a row whose delivery is gone is dropped).
    each('webhook_attempts', (v) => {
      const row = v as StoredAttemptRow;
      const d = this.webhookDeliveries.get(row.delivery_id);
      if (d) this.webhookDeliveries.set(d.id, withStoredAttempt(d, row));
    });
  }

  /**
   * Apply changes in memory as one transaction; returns the entity upserts to persist and `undo`, which takes the
   * whole transaction back (a failed write). All or nothing: a change that cannot be applied (a posting that already
   * exists) undoes the ones before it and throws.
   */
  apply(changes: readonly StoreChange[]): Applied {
    const upserts: Change[] = [];
    const before: (Entity | undefined)[] = [];
    const undos: (() => void)[] = [];
    try {
      for (const ch of changes) before.push(this.applyOne(ch, upserts, undos));
    } catch (e) {
      for (let i = undos.length - 1; i >= 0; i--) undos[i]!();
      throw e;
    }
    return {
      upserts,
      before,
      undo: () => {
        for (let i = undos.length - 1; i >= 0; i--) undos[i]!();
      },
    };
  }

  /** Apply one change; returns the entity it replaced (undefined: new, or not a replaceable record). */
  private applyOne(ch: StoreChange, out: Change[], undos: (() => void)[]): Entity | undefined {
    switch (ch.kind) {
      case 'operation': {
        const prev = this.operations.get(ch.op.id);
        const cur = ch.op;
        this.putOperation(cur);
        undos.push(() => (prev ? this.restoreOperation(prev, cur) : this.removeOperation(cur)));
        out.push({ c: 'operations', v: cur });
        return prev;
      }
      case 'posting': {
        const p = ch.posting;
        if (this.postings.has(p.id)) throw new Error(`posting ${p.id} already exists: postings are append-only`);
        validatePosting(p); // the ledger's boundary: a posting that breaks its rules is never applied
        this.putPosting(p);
        undos.push(() => {
          this.postings.delete(p.id);
          this.totals.unapply(p);
        });
        out.push({ c: 'postings', v: p });
        return;
      }
      case 'event':
        return this.upsert(this.events, ch.event.id, storedEvent(ch.event), 'events', out, undos);
      case 'link':
        return this.upsert(this.links, ch.link.id, ch.link, 'links', out, undos);
      case 'key': {
        const prev = this.keys.get(ch.key.id);
        const cur = ch.key;
        this.putKey(cur);
        undos.push(() => {
          if (this.keyByHash.get(cur.hash) === cur.id) this.keyByHash.delete(cur.hash);
          if (prev) this.putKey(prev);
          else this.keys.delete(cur.id);
        });
        out.push({ c: 'keys', v: cur });
        return prev;
      }
      case 'meta':
        return this.upsert(this.meta, ch.meta.id, ch.meta, 'meta', out, undos);
      case 'webhook_endpoint':
        return this.upsert(this.webhookEndpoints, ch.endpoint.id, ch.endpoint, 'webhook_endpoints', out, undos);
      case 'webhook_delivery': {
        const d = ch.delivery;
        const prev = this.webhookDeliveries.get(d.id);
        const shop = this.putDelivery(d);
        undos.push(() => {
          if (prev) {
            this.webhookDeliveries.set(d.id, prev);
          } else {
            this.webhookDeliveries.delete(d.id);
            if (shop !== undefined) this.deliveryIndex.remove(shop, d.id);
          }
        });
        out.push({ c: 'webhook_deliveries', v: d });
        return prev;
      }
      case 'webhook_payload': {
        const { id, body } = ch.payload;
        const prev = this.webhookPayloads.get(id);
        this.webhookPayloads.set(id, body);
        undos.push(() => (prev === undefined ? this.webhookPayloads.delete(id) : this.webhookPayloads.set(id, prev)));
        out.push({ c: 'webhook_payloads', v: ch.payload });
        return;
      }
    }
  }

  /** A plain upsert by id into `map`, with its undo. */
  private upsert<T extends Entity>(
    map: { get(id: string): T | undefined; set(id: string, v: T): unknown; delete(id: string): boolean },
    id: string,
    value: T,
    c: string,
    out: Change[],
    undos: (() => void)[],
  ): T | undefined {
    const prev = map.get(id);
    map.set(id, value);
    undos.push(() => (prev === undefined ? map.delete(id) : map.set(id, prev)));
    out.push({ c, v: value });
    return prev;
  }

  snapshot(): Collections {
    const out: Collections = {};
    for (const [c, , json] of captureState(this, new Map()).entries()) (out[c] ??= []).push(JSON.parse(json) as Entity);
    return out;
  }

  operation(id: string): OperationRecord | undefined {
    return this.operations.get(id);
  }

  operationByMoid(shopId: string, merchantOperationId: string): OperationRecord | undefined {
    const id = this.operationIndex.idByMoid(shopId, merchantOperationId);
    return id === undefined ? undefined : this.operations.get(id);
  }

  /** Every operation of the shop in creation order, `admitting` ones included: a scan, for tests and tools
   * (the sandbox listing pages through `operationIndex`). */
  operationsOfShop(shopId: string): OperationRecord[] {
    return [...this.operations.values()].filter((op) => op.shop_id === shopId);
  }

  /**
   * Every operation whose status is one of `statuses`, in creation order (start-up: the timers). Where loading kept
   * an operation's load view (the fields timersOf reads, see loadView) it is given instead, and the views are let go
   * after the first full pass; the others are decoded one at a time.
   */
  *operationsWithStatus(statuses: ReadonlySet<string>): IterableIterator<OperationRecord> {
    for (const id of this.operationIndex.idsWithStatus(statuses))
      yield this.loadViews.get(id) ?? this.operations.peek(id)!;
    this.loadViews.clear();
  }

  accountTotal(account: string, currency: string): Decimal {
    return this.totals.get(account, currency);
  }

  poolWindow(poolId: string, method: string): PoolWindow | undefined {
    return this.pools.window(poolId, method);
  }

  poolUsage(payoutId: string): { claimed: Decimal; paid: Decimal } {
    return this.pools.usageOf(payoutId);
  }

  link(id: string): LinkRecord | undefined {
    return this.links.get(id);
  }

  keyByTokenHash(hash: string): ApiKeyRecord | undefined {
    const id = this.keyByHash.get(hash);
    return id === undefined ? undefined : this.keys.get(id);
  }

  private putOperation(op: OperationRecord): void {
    if (this.loadViews.size > 0) this.loadViews.delete(op.id);
    const prev = this.operations.get(op.id);
    this.operationIndex.put(op, prev);
    this.operations.set(op.id, op);
    for (const u of uploadsOf(op)) this.fileOwner.set(u.file_id, op.id);
    if (poolOf(op) !== undefined || claimOf(op) !== undefined) this.pools.put(op);
  }

  /** Undo of an operation upsert: the version before it comes back, with its indexes. */
  private restoreOperation(prev: OperationRecord, cur: OperationRecord): void {
    for (const u of uploadsOf(cur))
      if (!uploadsOf(prev).some((x) => x.file_id === u.file_id)) this.fileOwner.delete(u.file_id);
    this.operationIndex.put(prev, cur);
    this.operations.set(prev.id, prev);
    if (poolOf(prev) !== undefined || claimOf(prev) !== undefined) this.pools.put(prev);
  }

  /** Undo of an operation's first upsert: it never existed. */
  private removeOperation(op: OperationRecord): void {
    this.operations.delete(op.id);
    this.operationIndex.remove(op);
    for (const u of uploadsOf(op)) this.fileOwner.delete(u.file_id);
    if (poolOf(op) !== undefined || claimOf(op) !== undefined) this.pools.remove(op);
  }

  private putPosting(p: Posting): void {
    if (this.postings.has(p.id)) return;
    this.postings.set(p.id, p);
    this.totals.apply(p);
  }

  /** Store a delivery; a new one joins its shop's index (the endpoint's shop, else `legacyShop`). Returns that shop. */
  private putDelivery(d: WebhookDeliveryRecord, legacyShop?: string): string | undefined {
    const isNew = !this.webhookDeliveries.has(d.id);
    this.webhookDeliveries.set(d.id, d);
    const shop = this.webhookEndpoints.get(d.endpoint_id)?.shop_id ?? legacyShop;
    if (isNew && shop !== undefined) this.deliveryIndex.add(shop, d.id);
    return shop;
  }

  private putKey(k: ApiKeyRecord): void {
    this.keys.set(k.id, k);
    this.keyByHash.set(k.hash, k.id);
  }
}
