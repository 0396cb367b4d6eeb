// The operations in creation order, bucketed by what the sandbox listing filters on — status, type, method,
// client_id, and (across shops) merchant_operation_id — per shop and across all shops, so a page is a walk from the
// end of the shortest bucket the filters name: O(limit) for one exact filter, however many operations are stored.
// Other filters (dates, amount range, a second exact filter) are checked on the bucket's rows as the walk goes.
// An operation still `admitting` is in no bucket (never shown). A status change moves it between buckets; buckets
// stay sorted by creation ordinal (binary search), and moves are cheap because the operations that change are
// nearly always recent ones near the end. Creation order is time order (the sandbox clock only moves forward), so
// `until` starts the walk by binary search and `since` stops it; amounts are compared as integer cents.
// The index keeps what it filters on in columns by creation ordinal (time in ms, cents, status, type, method, client,
// merchant id, shop) and its buckets hold ordinals, not ids: a walk compares numbers and never decodes an operation.
// Amounts are bucketed too, in bins of about 4 % (16 per doubling): an amount range names the bins it overlaps,
// and when they hold fewer operations than the shortest exact bucket, the page is a merge of those bins, newest
// first, instead of a walk of everything (`max_amount=100.00` at 100,000 stored visits its few bins, not 100,000 rows).
import { Decimal } from 'decimal.js';
import type { OperationRecord } from '../domain/operation.js';
import { NewestFirst, insertInto, lowerBound, removeFrom, size } from './ordinal-lists.js';

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

/** Bucket keys of an operation (the same in its shop and across shops); `bin` is its amount bin. */
function keysOf(op: Keyed, bin: number): string[] {
  if (op.status === 'admitting') return [];
  return ['', `s:${op.status}`, `t:${op.type}`, `m:${op.method}`, `c:${op.client_id}`, `a:${bin}`];
}

/** The exact filters of a query as bucket keys. */
function exactKeys(q: OperationQuery): string[] {
  const keys: string[] = [];
  if (q.status) keys.push(`s:${q.status}`);
  if (q.type) keys.push(`t:${q.type}`);
  if (q.method) keys.push(`m:${q.method}`);
  if (q.client_id !== undefined) keys.push(`c:${q.client_id}`);
  return keys;
}

/** An amount in cents, as a number (exact for amounts with at most 2 decimal places). */
const cents = (d: Decimal): number => d.times(100).toNumber();

/** A stored amount (`1500.00`: 2 decimals) in cents without a Decimal: the same number as `cents` gives. */
const centsOf = (a: string): number =>
  /^-?\d{1,13}\.\d\d$/.test(a) ? Number(a.slice(0, -3) + a.slice(-2)) : cents(new Decimal(a));

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

/** What the index keeps of each operation, by creation ordinal. */
interface Columns {
  ids: (string | undefined)[];
  created: number[];
  cents: number[];
  status: string[];
  type: string[];
  method: string[];
  client: string[];
  moid: string[];
  shop: string[];
}

const emptyColumns = (): Columns => ({
  ids: [],
  created: [],
  cents: [],
  status: [],
  type: [],
  method: [],
  client: [],
  moid: [],
  shop: [],
});

/** A query's filters as the columns compare them (times in epoch ms, amounts in cents). */
interface Test {
  q: OperationQuery;
  since: number | undefined;
  until: number | undefined;
  range: AmountRange;
}

export class OperationIndex {
  /** Operation id → its creation ordinal (the order of first upsert). */
  private readonly ordinal = new Map<string, number>();
  private col: Columns = emptyColumns();
  /** Scope (shop id, or '*') → bucket key → ordinals, ascending. */
  private readonly scopes = new Map<string, Map<string, number[]>>();
  /**
   * merchant_operation_id → the ordinal of the operation with it, or their list when several shops use it. Within
   * a shop it is unique (the state's own map finds it); across shops this answers it, without a bucket (an array
   * and a key string) per operation.
   */
  private readonly moids = new Map<string, number | number[]>();
  /** The highest amount bin any operation has had. */
  private maxBin = 0;
  /** How many rows the last page() checked, counting included (what a listing costs, for tests and benchmarks). */
  lastChecked = 0;

  clear(): void {
    this.ordinal.clear();
    this.scopes.clear();
    this.moids.clear();
    this.col = emptyColumns();
    this.maxBin = 0;
  }

  /** An operation's new version; `prev` is the version it replaces (undefined when it is new). */
  put(op: OperationRecord, prev: OperationRecord | undefined): void {
    let o = this.ordinal.get(op.id);
    if (o === undefined) {
      o = this.col.ids.length;
      this.ordinal.set(op.id, o);
      const c = this.col;
      const amount = centsOf(op.expected_amount);
      c.ids.push(op.id);
      c.created.push(Date.parse(op.created_at));
      c.cents.push(amount);
      c.shop.push(op.shop_id);
      c.moid.push(op.merchant_operation_id);
      const same = this.moids.get(op.merchant_operation_id);
      this.moids.set(
        op.merchant_operation_id,
        same === undefined ? o : typeof same === 'number' ? [same, o] : [...same, o],
      );
      this.maxBin = Math.max(this.maxBin, binOf(amount));
    }
    // Set below for a new operation too (index `o` is the columns' length: it appends).
    this.col.status[o] = op.status;
    this.col.type[o] = op.type;
    this.col.method[o] = op.method;
    this.col.client[o] = op.client_id;
    if (prev) this.rebucket(prev, op, o);
    else this.bucket(op, o);
  }

  /**
   * Move an operation between buckets: only the keys that changed (a status change: out of one status bucket,
   * into another). Leaving the others alone matters for old operations (an expiry, 30 minutes on): their ordinal
   * sits near the front of each list, where a removal and re-insertion each shift the whole list.
   */
  private rebucket(prev: OperationRecord, op: OperationRecord, o: number): void {
    const bin = binOf(this.col.cents[o]!);
    const before = keysOf(prev, bin);
    const after = keysOf(op, bin);
    for (const scope of [op.shop_id, ALL_SHOPS]) {
      const buckets = this.scope(scope);
      for (const key of before) if (!after.includes(key)) removeFrom(buckets, key, o);
      for (const key of after) if (!before.includes(key)) insertInto(buckets, key, o);
    }
  }

  /** The ids of the operations whose status is one of `statuses` (`admitting` ones included), in creation order. */
  idsWithStatus(statuses: ReadonlySet<string>): string[] {
    const c = this.col;
    const ids: string[] = [];
    for (let o = 0; o < c.ids.length; o++)
      if (c.ids[o] !== undefined && statuses.has(c.status[o]!)) ids.push(c.ids[o]!);
    return ids;
  }

  /** The operation never existed (undo of its first upsert). */
  remove(op: OperationRecord): void {
    const o = this.ordinal.get(op.id);
    if (o === undefined) return;
    this.unbucket(op, o);
    this.ordinal.delete(op.id);
    const same = this.moids.get(op.merchant_operation_id);
    const rest = typeof same === 'number' ? [] : (same ?? []).filter((x) => x !== o);
    if (rest.length === 0) this.moids.delete(op.merchant_operation_id);
    else this.moids.set(op.merchant_operation_id, rest.length === 1 ? rest[0]! : rest);
    this.col.ids[o] = undefined;
    this.col.status[o] = 'admitting';
  }

  /** A page of the operations matching `q`, newest first. */
  page(q: OperationQuery, req: PageRequest): OperationPage {
    const buckets = this.scopes.get(q.shop ?? ALL_SHOPS);
    const named = exactKeys(q);
    const candidates = named.map((k) => buckets?.get(k) ?? []);
    // Within one shop merchant_operation_id is checked on the rows of the others (or of all); across shops it names its rows.
    if (q.merchant_operation_id !== undefined) {
      if (q.shop === undefined) candidates.push(this.moidRows(q.merchant_operation_id));
      named.push('o');
    }
    const shortest =
      candidates.length === 0 ? (buckets?.get('') ?? []) : candidates.reduce((a, b) => (b.length < a.length ? b : a));
    const t: Test = { q, since: timeOf(q.since), until: timeOf(q.until), range: amountRange(q) };
    const bins = this.binsOf(buckets, t.range);
    // The bins, when they skip at least three rows in four of the shortest bucket (a merge costs more per row).
    const lists = bins && size(bins) * 4 < shortest.length ? bins : [shortest];
    const ranged =
      q.since !== undefined || q.until !== undefined || q.min_amount !== undefined || q.max_amount !== undefined;
    const oneIndex = !ranged && named.length <= 1 && !(q.shop !== undefined && q.merchant_operation_id !== undefined);
    const rows = size(lists);
    const total = oneIndex ? rows : rows <= COUNT_SCAN_LIMIT ? this.count(lists, t) : undefined;
    const walk = new NewestFirst(lists);
    // Start below the cursor, and below `until` (nothing created at or after it matches).
    const after = req.after === undefined ? undefined : this.ordinal.get(req.after);
    walk.startBelow((list) => {
      let at = after === undefined ? list.length : lowerBound(list, after);
      if (t.until !== undefined) at = Math.min(at, this.createdBefore(list, t.until));
      return at;
    });
    let skip = req.offset ?? 0;
    const ids: string[] = [];
    this.lastChecked = 0;
    for (let o = walk.next(); o >= 0; o = walk.next()) {
      this.lastChecked++;
      if (!this.test(o, t)) {
        // Creation order is time order: past `since`, nothing older can match.
        if (t.since !== undefined && this.col.created[o]! < t.since) break;
        continue;
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      if (ids.length === req.limit) return { total, ids, has_more: true };
      ids.push(this.col.ids[o]!);
    }
    return { total, ids, has_more: false };
  }

  /** The amount bins a range overlaps (with a bin of margin each side), or undefined without an amount range. */
  private binsOf(buckets: Map<string, number[]> | undefined, range: AmountRange): number[][] | undefined {
    if (range.min === undefined && range.max === undefined) return undefined;
    const lo = Math.max(0, binOf(range.min ?? 0) - 1);
    const hi = Math.min(this.maxBin, range.max === undefined ? this.maxBin : binOf(range.max) + 1);
    const lists: number[][] = [];
    for (let b = lo; b <= hi; b++) {
      const list = buckets?.get(`a:${b}`);
      if (list) lists.push(list);
    }
    return lists;
  }

  private count(lists: readonly (readonly number[])[], t: Test): number {
    let n = 0;
    this.lastChecked += size(lists);
    for (const list of lists) for (const o of list) if (this.test(o, t)) n++;
    return n;
  }

  /** How many of `list` (ascending ordinals) were created before `until` (ms): binary search on creation time. */
  private createdBefore(list: readonly number[], until: number): number {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.col.created[list[mid]!]! < until) lo = mid + 1;
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
    if (op.status === 'admitting') return false;
    if (q.shop !== undefined && op.shop_id !== q.shop) return false;
    if (!sameFields(q, op.status, op.type, op.method, op.client_id, op.merchant_operation_id)) return false;
    const at = Date.parse(op.created_at);
    if (!inTime(at, timeOf(q.since), timeOf(q.until))) return false;
    return inRange(cents(new Decimal(op.expected_amount)), amountRange(q));
  }

  /** Whether the operation of ordinal `o` matches. */
  private test(o: number, t: Test): boolean {
    const c = this.col;
    if (c.status[o] === 'admitting' || c.ids[o] === undefined) return false;
    if (t.q.shop !== undefined && c.shop[o] !== t.q.shop) return false;
    if (!sameFields(t.q, c.status[o]!, c.type[o]!, c.method[o]!, c.client[o]!, c.moid[o]!)) return false;
    return inTime(c.created[o]!, t.since, t.until) && inRange(c.cents[o]!, t.range);
  }

  private bucket(op: OperationRecord, o: number): void {
    // Built once for both scopes.
    const keys = keysOf(op, binOf(this.col.cents[o]!));
    if (keys.length === 0) return;
    const shop = this.scope(op.shop_id);
    const all = this.scope(ALL_SHOPS);
    for (const key of keys) {
      insertInto(shop, key, o);
      insertInto(all, key, o);
    }
  }

  /** The id of the shop's operation with this merchant_operation_id, whatever its status (idempotency), if any. */
  idByMoid(shop: string, moid: string): string | undefined {
    const v = this.moids.get(moid);
    if (v === undefined) return undefined;
    const c = this.col;
    if (typeof v === 'number') return c.shop[v] === shop ? c.ids[v] : undefined;
    for (const o of v) if (c.shop[o] === shop && c.ids[o] !== undefined) return c.ids[o];
    return undefined;
  }

  /** The rows across shops with this merchant_operation_id (ascending; none `admitting`). */
  private moidRows(moid: string): number[] {
    const v = this.moids.get(moid);
    const rows = v === undefined ? [] : typeof v === 'number' ? [v] : v;
    return rows.filter((o) => this.col.status[o] !== 'admitting');
  }

  private scope(id: string): Map<string, number[]> {
    return this.scopes.get(id) ?? this.scopes.set(id, new Map()).get(id)!;
  }

  private unbucket(op: OperationRecord, o: number): void {
    const keys = keysOf(op, binOf(this.col.cents[o]!));
    for (const scope of [op.shop_id, ALL_SHOPS]) {
      const buckets = this.scopes.get(scope);
      if (buckets) for (const key of keys) removeFrom(buckets, key, o);
    }
  }
}

/** An ISO time as epoch ms (undefined stays undefined). */
const timeOf = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : Date.parse(iso));

function sameFields(
  q: OperationQuery,
  status: string,
  type: string,
  method: string,
  client: string,
  moid: string,
): boolean {
  if (q.status && status !== q.status) return false;
  if (q.type && type !== q.type) return false;
  if (q.method && method !== q.method) return false;
  if (q.client_id !== undefined && client !== q.client_id) return false;
  return q.merchant_operation_id === undefined || moid === q.merchant_operation_id;
}

const inTime = (at: number, since: number | undefined, until: number | undefined): boolean =>
  (since === undefined || at >= since) && (until === undefined || at < until);

const inRange = (amount: number, range: AmountRange): boolean =>
  (range.min === undefined || amount >= range.min) && (range.max === undefined || amount <= range.max);
