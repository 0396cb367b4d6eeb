// The webhook outbox rows as stored, and the index the deliveries list pages through: each shop's delivery ids in
// the order they were created. Also reads rows written by earlier versions (which carried a copy of the URL, and
// kept each attempt in a row of its own).
import type { Entity } from './persistence.js';

/** One attempt to deliver an event to an endpoint, kept in its delivery. */
export type DeliveryAttempt = {
  /** Sandbox time the attempt started. */
  at: string;
  /**
   * The `webhook-timestamp` header it was sent (and signed) with: Unix seconds of wall time. Absent in stores
   * written before attempts were stamped with wall time (they carried sandbox time, the same as `at`).
   */
  webhook_timestamp?: number;
  /** HTTP status of the response, when one arrived. */
  status_code?: number;
  /** Network error or timeout, when no response arrived. */
  error?: string;
  /** Real milliseconds the attempt took. */
  duration_ms: number;
};

/**
 * The outbox: one small record per event × endpoint, written in the same commit as the event (and its payload). It
 * names its endpoint and event; the URL, the shop and the event type are read from them, never copied. An attempt's
 * outcome rewrites it with the attempt appended: one row per outcome (the body is never in it).
 */
export type WebhookDeliveryRecord = {
  id: string;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  /** Attempts made before the current retry schedule started (a redelivery starts a new one). */
  round_start: number;
  /** Sandbox time of the next attempt while pending; null otherwise. */
  next_attempt_at: string | null;
  created_at: string;
  /** Why delivery stopped without an attempt (e.g. the endpoint was deleted). */
  error?: string;
  /** The attempts so far, oldest first (absent: none yet). */
  attempts?: DeliveryAttempt[];
};

/** Fields rows of earlier versions carried and the record no longer does (derived from the endpoint and the event). */
const COPIED = ['url', 'shop_id', 'event_type'] as const;

/**
 * A stored delivery row as the record: one of an earlier version loses its copies of the endpoint's URL, the shop
 * and the event type. `shop_id` is that version's shop, for a row whose endpoint record is missing.
 */
export function deliveryFromStored(v: Entity): { record: WebhookDeliveryRecord; shop_id?: string } {
  if (!COPIED.some((k) => k in v)) return { record: v as WebhookDeliveryRecord };
  const {
    url: _u,
    shop_id,
    event_type: _t,
    ...record
  } = v as WebhookDeliveryRecord & Partial<Record<(typeof COPIED)[number], string>>;
  return { record, ...(typeof shop_id === 'string' ? { shop_id } : {}) };
}

/** A stored attempt row of an earlier version (`webhook_attempts`): `<delivery id>.<n>`, its delivery, the attempt. */
export type StoredAttemptRow = DeliveryAttempt & { id: string; delivery_id: string };

/**
 * `d` with an attempt row of an earlier version appended, as the delivery now keeps it; `d` itself when that attempt
 * (its number, from the row id) is already there (a replayed row).
 */
export function withStoredAttempt(d: WebhookDeliveryRecord, row: StoredAttemptRow): WebhookDeliveryRecord {
  const n = Number(row.id.slice(row.id.lastIndexOf('.') + 1));
  const have = d.attempts?.length ?? 0;
  if (Number.isInteger(n) && n >= 1 && n <= have) return d;
  const { id: _i, delivery_id: _d, ...attempt } = row;
  return { ...d, attempts: [...(d.attempts ?? []), attempt] };
}

/** Each shop's delivery ids, oldest first, and where each id sits (so a cursor is found without a scan). */
export class DeliveryIndex {
  private readonly byShop = new Map<string, string[]>();
  private readonly at = new Map<string, number>();

  /** Add a new delivery as the shop's newest (a known id keeps its place). */
  add(shop: string, id: string): void {
    if (this.at.has(id)) return;
    let list = this.byShop.get(shop);
    if (!list) this.byShop.set(shop, (list = []));
    this.at.set(id, list.push(id) - 1);
  }

  /** Take back `add` (a failed write): the delivery is the shop's newest, as undos run newest first. */
  remove(shop: string, id: string): void {
    const list = this.byShop.get(shop);
    const i = this.at.get(id);
    if (!list || i === undefined || list[i] !== id) return;
    this.at.delete(id);
    list.splice(i, 1);
    for (let j = i; j < list.length; j++) this.at.set(list[j]!, j);
    if (list.length === 0) this.byShop.delete(shop);
  }

  /** The shop's delivery ids, oldest first. */
  of(shop: string): readonly string[] {
    return this.byShop.get(shop) ?? [];
  }

  /**
   * The shop's delivery ids newest first, starting after `cursor` (a delivery id of this shop); undefined when
   * `cursor` is not one of the shop's.
   */
  newestFirst(shop: string, cursor?: string): Iterable<string> | undefined {
    const list = this.of(shop);
    let from = list.length - 1;
    if (cursor !== undefined) {
      const i = this.at.get(cursor);
      if (i === undefined || list[i] !== cursor) return undefined;
      from = i - 1;
    }
    return (function* () {
      for (let i = from; i >= 0; i--) yield list[i]!;
    })();
  }

  clear(): void {
    this.byShop.clear();
    this.at.clear();
  }
}
