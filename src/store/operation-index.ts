// The shop's operations in creation order, bucketed by what the sandbox listing filters on (status, type, both),
// so a page of any filter is a slice from the end of one array: O(limit), however many operations are stored.
// An operation still `admitting` is in no bucket (never shown). A status change moves it between buckets; the
// buckets stay sorted by creation ordinal (binary search), and moves are cheap because the operations that change
// are nearly always recent ones near the end.
import type { OperationRecord } from '../domain/operation.js';

export interface OperationFilter {
  status?: string;
  type?: string;
}

export interface OperationPage {
  /** How many operations match the filter. */
  total: number;
  /** The matching operation ids from `offset`, newest first, at most `limit`. */
  ids: string[];
}

const ALL = '*';

function keysOf(op: Pick<OperationRecord, 'status' | 'type'>): string[] {
  if (op.status === 'admitting') return [];
  return [ALL, `s:${op.status}`, `t:${op.type}`, `st:${op.status}|${op.type}`];
}

function keyOf(filter: OperationFilter): string {
  if (filter.status && filter.type) return `st:${filter.status}|${filter.type}`;
  if (filter.status) return `s:${filter.status}`;
  if (filter.type) return `t:${filter.type}`;
  return ALL;
}

export class OperationIndex {
  /** Operation id → its creation ordinal (the order of first upsert). */
  private readonly ordinal = new Map<string, number>();
  private next = 0;
  /** Shop → bucket key → ids sorted by ordinal. */
  private readonly shops = new Map<string, Map<string, string[]>>();

  clear(): void {
    this.ordinal.clear();
    this.shops.clear();
    this.next = 0;
  }

  /** An operation's new version; `prev` is the version it replaces (undefined when it is new). */
  put(op: OperationRecord, prev: OperationRecord | undefined): void {
    if (!this.ordinal.has(op.id)) this.ordinal.set(op.id, this.next++);
    if (prev) this.unbucket(prev);
    this.bucket(op);
  }

  /** The operation never existed (undo of its first upsert). */
  remove(op: OperationRecord): void {
    this.unbucket(op);
    this.ordinal.delete(op.id);
  }

  page(shopId: string, filter: OperationFilter, offset: number, limit: number): OperationPage {
    const list = this.shops.get(shopId)?.get(keyOf(filter)) ?? [];
    const end = Math.max(0, list.length - offset);
    const start = Math.max(0, end - limit);
    return { total: list.length, ids: list.slice(start, end).reverse() };
  }

  private bucket(op: OperationRecord): void {
    let buckets = this.shops.get(op.shop_id);
    if (!buckets) this.shops.set(op.shop_id, (buckets = new Map()));
    for (const key of keysOf(op)) {
      let list = buckets.get(key);
      if (!list) buckets.set(key, (list = []));
      this.insert(list, op.id);
    }
  }

  private unbucket(op: OperationRecord): void {
    const buckets = this.shops.get(op.shop_id);
    if (!buckets) return;
    for (const key of keysOf(op)) {
      const list = buckets.get(key);
      const at = list ? this.find(list, op.id) : -1;
      if (list && at >= 0) list.splice(at, 1);
    }
  }

  /** Where `id` belongs in `list` (sorted by ordinal): the first position whose ordinal is not below its own. */
  private position(list: string[], id: string): number {
    const target = this.ordinal.get(id)!;
    // Fast path: the newest operation goes at the end.
    if (list.length === 0 || this.ordinal.get(list[list.length - 1]!)! < target) return list.length;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ordinal.get(list[mid]!)! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(list: string[], id: string): void {
    const at = this.position(list, id);
    if (list[at] !== id) list.splice(at, 0, id);
  }

  private find(list: string[], id: string): number {
    const at = this.position(list, id);
    return list[at] === id ? at : -1;
  }
}
