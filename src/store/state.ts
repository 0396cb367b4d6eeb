// The sandbox's in-memory state: operations, ledger postings, webhook events, API keys, webhook endpoints and
// the webhook outbox, with the indexes the domain reads through StateView. Persistence sees only plain entity upserts.
import type { Decimal } from 'decimal.js';
import type { Posting } from '../domain/ledger.js';
import type { OperationRecord } from '../domain/operation.js';
import type { StateChange, StateView } from '../domain/state.js';
import type { OperationEvent } from '../domain/transitions.js';
import { AccountTotals } from '../domain/ledger.js';
import type { KeyScope } from '../domain/world.js';
import type { LinkRecord } from '../domain/links.js';
import { PoolIndex, type PoolWindow } from '../domain/pool.js';
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
  /** Optional endpoint groups the key may call; absent = all (see KeyScope). */
  scopes?: KeyScope[];
  created_at: string;
  revoked_at?: string;
}

/** A shop's webhook endpoint. Secrets are the sandbox's own signing secrets (`whsec_…`); never log them. */
export interface WebhookEndpointRecord {
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
}

/** One attempt to deliver an event to an endpoint: its own small record, appended, never rewritten. */
export interface WebhookAttempt {
  /** `<delivery id>.<n>`, n counting from 1. */
  id: string;
  delivery_id: string;
  /** Sandbox time the attempt started. */
  at: string;
  /** HTTP status of the response, when one arrived. */
  status_code?: number;
  /** Network error or timeout, when no response arrived. */
  error?: string;
  /** Real milliseconds the attempt took. */
  duration_ms: number;
}

/** The exact body of an event's webhook, stored once per event (whatever the number of endpoints), sent and signed as is on every attempt. */
export interface WebhookPayloadRecord {
  /** The event id. */
  id: string;
  body: string;
}

/** The outbox: one small record per event × endpoint, written in the same commit as the event (and its payload). */
export interface WebhookDeliveryRecord {
  id: string;
  event_id: string;
  event_type: string;
  shop_id: string;
  endpoint_id: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  /** Attempts made before the current retry schedule started (a redelivery starts a new one). */
  round_start: number;
  /** Sandbox time of the next attempt while pending; null otherwise. */
  next_attempt_at: string | null;
  created_at: string;
  /** Why delivery stopped without an attempt (e.g. the endpoint was deleted). */
  error?: string;
}

export type StoreChange =
  | StateChange
  | { kind: 'key'; key: ApiKeyRecord }
  | { kind: 'meta'; meta: Entity }
  | { kind: 'webhook_endpoint'; endpoint: WebhookEndpointRecord }
  | { kind: 'webhook_delivery'; delivery: WebhookDeliveryRecord }
  | { kind: 'webhook_payload'; payload: WebhookPayloadRecord }
  | { kind: 'webhook_attempt'; attempt: WebhookAttempt };

export class SandboxState implements StateView {
  readonly operations = new Map<string, OperationRecord>();
  readonly postings = new Map<string, Posting>();
  readonly events = new Map<string, OperationEvent>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly meta = new Map<string, Entity>();
  readonly webhookEndpoints = new Map<string, WebhookEndpointRecord>();
  readonly webhookDeliveries = new Map<string, WebhookDeliveryRecord>();
  /** Event id → its webhook body. */
  readonly webhookPayloads = new Map<string, string>();
  /** Delivery id → its attempts, in order. */
  readonly webhookAttempts = new Map<string, WebhookAttempt[]>();
  readonly totals = new AccountTotals();
  /** Flexible links by operation_id (spec §4.3). */
  readonly links = new Map<string, LinkRecord>();
  /** The self-matching pools' payout slots, kept current from operation upserts. */
  readonly pools = new PoolIndex();
  private readonly byMoid = new Map<string, string>();
  private readonly byShop = new Map<string, string[]>();
  private readonly keyByHash = new Map<string, string>();
  /** Uploaded file id → the operation that owns it. */
  readonly fileOwner = new Map<string, string>();

  /** Forget everything (sandbox reset). */
  clear(): void {
    for (const m of [this.operations, this.postings, this.events, this.keys, this.meta, this.webhookEndpoints, this.webhookDeliveries, this.webhookPayloads, this.webhookAttempts, this.byMoid, this.byShop, this.keyByHash, this.fileOwner]) {
      (m as Map<string, unknown>).clear();
    }
    this.totals.clear();
    this.links.clear();
    this.pools.clear();
  }

  load(collections: Collections): void {
    for (const v of collections.operations ?? []) this.putOperation(v as unknown as OperationRecord);
    for (const v of collections.postings ?? []) this.putPosting(v as unknown as Posting);
    for (const v of collections.events ?? []) this.events.set(v.id, v as unknown as OperationEvent);
    for (const v of collections.keys ?? []) this.putKey(v as unknown as ApiKeyRecord);
    for (const v of collections.meta ?? []) this.meta.set(v.id, v);
    for (const v of collections.links ?? []) this.links.set(v.id, v as unknown as LinkRecord);
    for (const v of collections.webhook_endpoints ?? []) this.webhookEndpoints.set(v.id, v as unknown as WebhookEndpointRecord);
    for (const v of collections.webhook_deliveries ?? []) this.webhookDeliveries.set(v.id, v as unknown as WebhookDeliveryRecord);
    for (const v of collections.webhook_payloads ?? []) this.webhookPayloads.set(v.id, (v as unknown as WebhookPayloadRecord).body);
    for (const v of collections.webhook_attempts ?? []) this.putWebhookAttempt(v as unknown as WebhookAttempt);
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
        case 'link':
          this.links.set(ch.link.id, ch.link);
          out.push({ c: 'links', v: ch.link as unknown as Entity });
          break;
        case 'key':
          this.putKey(ch.key);
          out.push({ c: 'keys', v: ch.key as unknown as Entity });
          break;
        case 'meta':
          this.meta.set(ch.meta.id, ch.meta);
          out.push({ c: 'meta', v: ch.meta });
          break;
        case 'webhook_endpoint':
          this.webhookEndpoints.set(ch.endpoint.id, ch.endpoint);
          out.push({ c: 'webhook_endpoints', v: ch.endpoint as unknown as Entity });
          break;
        case 'webhook_delivery':
          this.webhookDeliveries.set(ch.delivery.id, ch.delivery);
          out.push({ c: 'webhook_deliveries', v: ch.delivery as unknown as Entity });
          break;
        case 'webhook_payload':
          this.webhookPayloads.set(ch.payload.id, ch.payload.body);
          out.push({ c: 'webhook_payloads', v: ch.payload as unknown as Entity });
          break;
        case 'webhook_attempt':
          this.putWebhookAttempt(ch.attempt);
          out.push({ c: 'webhook_attempts', v: ch.attempt as unknown as Entity });
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
      links: [...this.links.values()] as unknown as Entity[],
      webhook_endpoints: [...this.webhookEndpoints.values()] as unknown as Entity[],
      webhook_deliveries: [...this.webhookDeliveries.values()] as unknown as Entity[],
      webhook_payloads: [...this.webhookPayloads].map(([id, body]) => ({ id, body })),
      webhook_attempts: [...this.webhookAttempts.values()].flat() as unknown as Entity[],
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
    if (!this.operations.has(op.id)) {
      this.byMoid.set(moidKey(op.shop_id, op.merchant_operation_id), op.id);
      const list = this.byShop.get(op.shop_id);
      if (list) list.push(op.id);
      else this.byShop.set(op.shop_id, [op.id]);
    }
    this.operations.set(op.id, op);
    for (const u of op.uploads ?? []) this.fileOwner.set(u.file_id, op.id);
    if (op.pool_id !== undefined || op.claim !== undefined) this.pools.put(op);
  }

  private putPosting(p: Posting): void {
    if (this.postings.has(p.id)) return;
    this.postings.set(p.id, p);
    this.totals.apply(p);
  }

  private putWebhookAttempt(a: WebhookAttempt): void {
    const list = this.webhookAttempts.get(a.delivery_id);
    if (!list) this.webhookAttempts.set(a.delivery_id, [a]);
    else if (list.at(-1)?.id !== a.id) list.push(a);
  }

  private putKey(k: ApiKeyRecord): void {
    this.keys.set(k.id, k);
    this.keyByHash.set(k.hash, k.id);
  }
}

function moidKey(shopId: string, moid: string): string {
  return `${shopId}\u0000${moid}`;
}
