// The operations in creation order, bucketed by what the sandbox listing filters on — status, type, method,
// client_id, and (across shops) merchant_operation_id — per shop and across all shops, so a page is a walk from the
// end of the shortest bucket the filters name: O(limit) for one exact filter, however many operations are stored.
// Other filters (dates, amount range, a second exact filter) are checked on the bucket's rows as the walk goes.
// An operation still `admitting` is in no bucket (never shown). A status change moves it between buckets; buckets
// stay sorted by creation ordinal (binary search), and moves are cheap because the operations that change are
// nearly always recent ones near the end. Creation order is time order (the sandbox clock only moves forward), so
// `until` starts the walk by binary search and `since` stops it; amounts are compared as integer cents.
// Amounts are bucketed too, in bins of about 4 % (16 per doubling): an amount range names the bins it overlaps,
// and when they hold fewer operations than the shortest exact bucket, the page is a merge of those bins, newest
// first, instead of a walk of everything (`max_amount=100.00` at 100,000 stored visits its few bins, not 100,000 rows).
import { Decimal } from 'decimal.js';
import type { OperationRecord } from '../domain/operation.js';

/** What a listing asks for. Every field is optional; `shop` undefined means every shop. */
export interface OperationQuery {
  shop?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  method?: string | undefined;
  client_id?: string | undefined;
  merchant_operation_id?: string | undefined;
  /** Created at or after (ISO 8601). */
  since?: string | undefined;
  /** Created before (ISO 8601). */
  until?: string | undefined;
  /** Expected amount at least / at most. */
  min_amount?: Decimal | undefined;
  max_amount?: Decimal | undefined;
}

export interface OperationPage {
  /** How many operations match: always when one index answers the query exactly (at most one exact filter, no
   * ranges), otherwise when the bucket walked holds at most 20,000 operations. */
  total: number | undefined;
  /** Matching ids, newest first, at most `limit`. */
  ids: string[];
  /** Whether more match after the last id. */
  has_more: boolean;
}

export interface PageRequest {
  limit: number;
  /** Skip this many matches first. */
  offset?: number | undefined;
  /** Start after this operation id (a cursor from a previous page). */
  after?: string | undefined;
}

const ALL_SHOPS = '*';
/** A query no single index answers is counted by checking its bucket's rows, when the bucket has at most this many. */
const COUNT_SCAN_LIMIT = 20_000;
type Keyed = Pick<OperationRecord, 'status' | 'type' | 'method' | 'client_id' | 'merchant_operation_id'>;

/** Amount bins per doubling of the amount in cents: a bin spans about 4 %. */
const BINS_PER_DOUBLING = 16;
/** The amount bin of an amount in cents (0 for zero). Only narrows the rows to check: each row is still tested. */
const binOf = (c: number): number => (c <= 0 ? 0 : 1 + Math.floor(Math.log2(c) * BINS_PER_DOUBLING));

/** Bucket keys of an operation within one scope (a shop, or all shops); `bin` is its amount bin. */
function keysOf(op: Keyed, scope: string, bin: number): string[] {
  if (op.status === 'admitting') return [];
  const keys = ['', `s:${op.status}`, `t:${op.type}`, `m:${op.method}`, `c:${op.client_id}`, `a:${bin}`];
  // Within a shop merchant_operation_id is unique (the state's own map finds it); across shops it is bucketed.
  if (scope === ALL_SHOPS) keys.push(`o:${op.merchant_operation_id}`);
  return keys;
}

/** The exact filters of a query as bucket keys. */
function exactKeys(q: OperationQuery): string[] {
  const keys: string[] = [];
  if (q.status) keys.push(`s:${q.status}`);
  if (q.type) keys.push(`t:${q.type}`);
  if (q.method) keys.push(`m:${q.method}`);
  if (q.client_id !== undefined) keys.push(`c:${q.client_id}`);
  if (q.merchant_operation_id !== undefined) keys.push(`o:${q.merchant_operation_id}`);
  return keys;
}

/** An amount in cents, as a number (exact for amounts with at most 2 decimal places). */
const cents = (d: Decimal): number => d.times(100).toNumber();

interface AmountRange {
  min: number | undefined;
  max: number | undefined;
}

/** The query's amount bounds in cents; a bound below a cent rounds to the amounts it admits. */
function amountRange(q: OperationQuery): AmountRange {
  return {
    min: q.min_amount === undefined ? undefined : Math.ceil(q.min_amount.times(100).toNumber()),
    max: q.max_amount === undefined ? undefined : Math.floor(q.max_amount.times(100).toNumber()),
  };
}

export class OperationIndex {
  /** Operation id → its creation ordinal (the order of first upsert). */
  private readonly ordinal = new Map<string, number>();
  private next = 0;
  /** Scope (shop id, or '*') → bucket key → ids sorted by ordinal. */
  private readonly scopes = new Map<string, Map<string, string[]>>();
  /** Expected amounts in cents (at most 2 decimal places: exact as numbers), for the amount range filters. */
  private readonly amounts = new Map<string, number>();
  /** The highest amount bin any operation has had. */
  private maxBin = 0;

  constructor(private readonly get: (id: string) => OperationRecord | undefined) {}

  clear(): void {
    this.ordinal.clear();
    this.scopes.clear();
    this.amounts.clear();
    this.next = 0;
    this.maxBin = 0;
  }

  /** An operation's new version; `prev` is the version it replaces (undefined when it is new). */
  put(op: OperationRecord, prev: OperationRecord | undefined): void {
    if (!this.ordinal.has(op.id)) {
      this.ordinal.set(op.id, this.next++);
      const amount = cents(new Decimal(op.expected_amount));
      this.amounts.set(op.id, amount);
      this.maxBin = Math.max(this.maxBin, binOf(amount));
    }
    if (prev) this.unbucket(prev);
    this.bucket(op);
  }

  /** The operation never existed (undo of its first upsert). */
  remove(op: OperationRecord): void {
    this.unbucket(op);
    this.ordinal.delete(op.id);
    this.amounts.delete(op.id);
  }

  /** A page of the operations matching `q`, newest first. */
  page(q: OperationQuery, req: PageRequest): OperationPage {
    const buckets = this.scopes.get(q.shop ?? ALL_SHOPS);
    const named = exactKeys(q);
    // Within one shop merchant_operation_id has no bucket: it is checked on the rows of the others (or of all).
    const exact = q.shop === undefined ? named : named.filter((k) => !k.startsWith('o:'));
    const candidates = exact.map((k) => buckets?.get(k) ?? []);
    const shortest = candidates.length === 0 ? (buckets?.get('') ?? []) : candidates.reduce((a, b) => (b.length < a.length ? b : a));
    const range = amountRange(q);
    const bins = this.binsOf(buckets, range);
    // The bins, when they skip at least three rows in four of the shortest bucket (a merge costs more per row).
    const lists = bins && size(bins) * 4 < shortest.length ? bins : [shortest];
    const ranged = q.since !== undefined || q.until !== undefined || q.min_amount !== undefined || q.max_amount !== undefined;
    const oneIndex = !ranged && named.length <= 1 && !(q.shop !== undefined && q.merchant_operation_id !== undefined);
    const rows = size(lists);
    const total = oneIndex ? rows : rows <= COUNT_SCAN_LIMIT ? this.count(lists, q, range) : undefined;
    const walk = new NewestFirst(lists, (id) => this.ordinal.get(id) ?? -1);
    // Start below the cursor, and below `until` (nothing created at or after it matches).
    walk.startBelow((list) => {
      let at = list.length;
      if (req.after !== undefined) at = this.position(list, req.after);
      if (q.until !== undefined) at = Math.min(at, this.createdBefore(list, q.until));
      return at;
    });
    let skip = req.offset ?? 0;
    const ids: string[] = [];
    for (let id = walk.next(); id !== undefined; id = walk.next()) {
      const op = this.get(id);
      if (!op || !this.test(op, q, range)) {
        // Creation order is time order: past `since`, nothing older can match.
        if (op && q.since !== undefined && op.created_at < q.since) break;
        continue;
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      if (ids.length === req.limit) return { total, ids, has_more: true };
      ids.push(id);
    }
    return { total, ids, has_more: false };
  }

  /** The amount bins a range overlaps (with a bin of margin each side), or undefined without an amount range. */
  private binsOf(buckets: Map<string, string[]> | undefined, range: AmountRange): string[][] | undefined {
    if (range.min === undefined && range.max === undefined) return undefined;
    const lo = Math.max(0, binOf(range.min ?? 0) - 1);
    const hi = Math.min(this.maxBin, range.max === undefined ? this.maxBin : binOf(range.max) + 1);
    const lists: string[][] = [];
    for (let b = lo; b <= hi; b++) {
      const list = buckets?.get(`a:${b}`);
      if (list) lists.push(list);
    }
    return lists;
  }

  private count(lists: readonly (readonly string[])[], q: OperationQuery, range: AmountRange): number {
    let n = 0;
    for (const list of lists) {
      for (const id of list) {
        const op = this.get(id);
        if (op && this.test(op, q, range)) n++;
      }
    }
    return n;
  }

  /** How many of `list` (in creation order) were created before `until`: binary search on created_at. */
  private createdBefore(list: readonly string[], until: string): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const op = this.get(list[mid]!);
      if (!op) return list.length; // not expected: walk it all, matches() decides
      if (op.created_at < until) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Whether an id is known (a cursor that still points somewhere). */
  has(id: string): boolean {
    return this.ordinal.has(id);
  }

  /** Whether an operation matches a query (the live stream's filter). */
  matches(op: OperationRecord, q: OperationQuery): boolean {
    return this.test(op, q, amountRange(q));
  }

  private test(op: OperationRecord, q: OperationQuery, range: AmountRange): boolean {
    if (op.status === 'admitting') return false;
    if (q.shop !== undefined && op.shop_id !== q.shop) return false;
    if (q.status && op.status !== q.status) return false;
    if (q.type && op.type !== q.type) return false;
    if (q.method && op.method !== q.method) return false;
    if (q.client_id !== undefined && op.client_id !== q.client_id) return false;
    if (q.merchant_operation_id !== undefined && op.merchant_operation_id !== q.merchant_operation_id) return false;
    if (q.since !== undefined && op.created_at < q.since) return false;
    if (q.until !== undefined && op.created_at >= q.until) return false;
    if (range.min === undefined && range.max === undefined) return true;
    const amount = this.amounts.get(op.id) ?? cents(new Decimal(op.expected_amount));
    if (range.min !== undefined && amount < range.min) return false;
    if (range.max !== undefined && amount > range.max) return false;
    return true;
  }

  private bucket(op: OperationRecord): void {
    for (const scope of [op.shop_id, ALL_SHOPS]) {
      let buckets = this.scopes.get(scope);
      if (!buckets) this.scopes.set(scope, (buckets = new Map()));
      for (const key of keysOf(op, scope, this.binOfId(op.id))) {
        let list = buckets.get(key);
        if (!list) buckets.set(key, (list = []));
        const at = this.position(list, op.id);
        if (list[at] !== op.id) list.splice(at, 0, op.id);
      }
    }
  }

  private unbucket(op: OperationRecord): void {
    for (const scope of [op.shop_id, ALL_SHOPS]) {
      const buckets = this.scopes.get(scope);
      if (!buckets) continue;
      for (const key of keysOf(op, scope, this.binOfId(op.id))) {
        const list = buckets.get(key);
        if (!list) continue;
        const at = this.position(list, op.id);
        if (list[at] !== op.id) continue;
        list.splice(at, 1);
        if (list.length === 0) buckets.delete(key);
      }
    }
  }

  private binOfId(id: string): number {
    return binOf(this.amounts.get(id) ?? 0);
  }

  /** Where `id` belongs in `list` (sorted by ordinal): the first position whose ordinal is not below its own. */
  private position(list: readonly string[], id: string): number {
    const target = this.ordinal.get(id);
    if (target === undefined) return list.length;
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
}

const size = (lists: readonly (readonly string[])[]): number => lists.reduce((n, l) => n + l.length, 0);

/** A walk of several lists, each sorted by ordinal, merged newest (highest ordinal) first. */
class NewestFirst {
  /** Per list, the position above the next id to yield, and the ordinal of the id below it (-1: none left). */
  private readonly at: number[];
  private readonly head: number[];

  constructor(
    private readonly lists: readonly (readonly string[])[],
    private readonly ordinalOf: (id: string) => number,
  ) {
    this.at = lists.map((l) => l.length);
    this.head = lists.map((_, i) => this.ordinalAt(i));
  }

  /** Start each list below the position `start` gives. */
  startBelow(start: (list: readonly string[]) => number): void {
    this.lists.forEach((list, i) => {
      this.at[i] = start(list);
      this.head[i] = this.ordinalAt(i);
    });
  }

  next(): string | undefined {
    let best = -1;
    let bestOrdinal = -1;
    for (let i = 0; i < this.head.length; i++) {
      if (this.head[i]! > bestOrdinal) [best, bestOrdinal] = [i, this.head[i]!];
    }
    if (best < 0) return undefined;
    const id = this.lists[best]![--this.at[best]!];
    this.head[best] = this.ordinalAt(best);
    return id;
  }

  private ordinalAt(i: number): number {
    const at = this.at[i]!;
    return at === 0 ? -1 : this.ordinalOf(this.lists[i]![at - 1]!);
  }
}
