// The self-matching pool (docs/pool.md). A payout routed to a self_matching provider is a slot with a free
// remainder: its amount minus what active matched payments claim and what completed ones paid. A payment claims the
// whole free remainder of one slot, or a piece of at least `min_piece` that leaves at least `min_remainder` free.
// Slots live in windows, one per pool and method, kept in matching order (oldest payout first) and, lazily, in
// free-remainder order for the reads that start at an amount. Pure data structures; the store keeps them current.
import { claimOf, poolOf } from './operation.js';
import type { Decimal } from 'decimal.js';
import type { Destination, OperationRecord } from './operation.js';
import type { PoolRules } from './world.js';
import { money, toScale2, ZERO } from './money.js';

export interface Slot {
  payout_id: string;
  pool_id: string;
  method: string;
  currency: string;
  amount: Decimal;
  /** Claimed by matched payments that are still open. */
  claimed: Decimal;
  /** Paid by matched payments that completed. */
  paid: Decimal;
  /** amount − claimed − paid, never below zero. */
  free: Decimal;
  /** `free` in minor units: an exact integer, used only to order slots. */
  freeKey: number;
  /** Insertion sequence: matching order, and the tie-break of free-remainder order. */
  seq: number;
  destination: Destination;
}

const parsedRules = new WeakMap<PoolRules, { minPiece: Decimal; minRemainder: Decimal }>();

/** The rules as Decimals, parsed once per rules object. */
function parsed(rules: PoolRules): { minPiece: Decimal; minRemainder: Decimal } {
  let p = parsedRules.get(rules);
  if (!p) {
    p = { minPiece: money(rules.min_piece), minRemainder: money(rules.min_remainder) };
    parsedRules.set(rules, p);
  }
  return p;
}

/** Exact integer minor units of a scale-2 amount: a sort key only, never arithmetic. */
function centsKey(d: Decimal): number {
  return d.times(100).toNumber();
}

/** The amounts one slot can give a payment: its whole free remainder, or a piece within [min_piece, free − min_remainder]. */
export function canClaim(free: Decimal, amount: Decimal, rules: PoolRules): boolean {
  if (!free.greaterThan(0)) return false;
  if (amount.equals(free)) return true;
  const r = parsed(rules);
  return amount.greaterThanOrEqualTo(r.minPiece) && amount.lessThanOrEqualTo(free.minus(r.minRemainder));
}

/** One inclusive range of amounts. */
export interface Range {
  lo: Decimal;
  hi: Decimal;
}

/** The claimable amounts of a slot as ranges, clipped to [lo, hi]: the point {free} and the piece range. */
export function claimableRanges(free: Decimal, rules: PoolRules, lo: Decimal, hi: Decimal): Range[] {
  if (!free.greaterThan(0)) return [];
  const out: Range[] = [];
  const r = parsed(rules);
  const pieceLo = r.minPiece;
  const pieceHi = free.minus(r.minRemainder);
  if (pieceLo.lessThanOrEqualTo(pieceHi)) {
    const a = pieceLo.greaterThan(lo) ? pieceLo : lo;
    const b = pieceHi.lessThan(hi) ? pieceHi : hi;
    if (a.lessThanOrEqualTo(b)) out.push({ lo: a, hi: b });
  }
  if (free.greaterThanOrEqualTo(lo) && free.lessThanOrEqualTo(hi)) out.push({ lo: free, hi: free });
  return out;
}

const CENT = money('0.01');

/** Sort ranges and join those that overlap or touch at cent granularity: sorted, disjoint, gaps kept. */
export function mergeRanges(ranges: Range[]): Range[] {
  if (ranges.length === 0) return [];
  // Sorted on exact integer keys computed once per range (Decimal comparisons in a comparator cost ~half a read).
  const keyed = ranges.map((r) => ({ r, lo: centsKey(r.lo), hi: centsKey(r.hi) }));
  keyed.sort((a, b) => a.lo - b.lo || a.hi - b.hi);
  const out: Range[] = [{ ...keyed[0]!.r }];
  for (let i = 1; i < keyed.length; i++) {
    const r = keyed[i]!.r;
    const cur = out[out.length - 1]!;
    if (r.lo.lessThanOrEqualTo(cur.hi.plus(CENT))) {
      if (r.hi.greaterThan(cur.hi)) cur.hi = r.hi;
    } else {
      out.push({ ...r });
    }
  }
  return out;
}

/** Slots of one pool and method. */
export class PoolWindow {
  /** Matching order: the payouts in creation order (oldest first). */
  slots = new Map<string, Slot>();
  private ordered: Slot[] | null = null;
  private lastSeq = -1;

  /** Add a slot at its place in matching order (a payout accepted late goes before younger ones). */
  insert(slot: Slot): void {
    if (slot.seq > this.lastSeq) {
      this.slots.set(slot.payout_id, slot);
      this.lastSeq = slot.seq;
    } else {
      this.slots = new Map([...this.slots.values(), slot].sort((a, b) => a.seq - b.seq).map((s) => [s.payout_id, s]));
    }
    this.ordered = null;
  }

  /** Slots ordered by free remainder, then matching order; rebuilt lazily after a change. */
  byFree(): Slot[] {
    if (!this.ordered) this.ordered = [...this.slots.values()].sort((a, b) => a.freeKey - b.freeKey || a.seq - b.seq);
    return this.ordered;
  }

  changed(): void {
    this.ordered = null;
  }

  /** The first slot in matching order that can give `amount`, if any. */
  match(amount: Decimal, rules: PoolRules): Slot | undefined {
    for (const s of this.slots.values()) if (canClaim(s.free, amount, rules)) return s;
    return undefined;
  }
}

const OPEN_CLAIM = new Set(['admitting', 'pending', 'awaiting_confirmation', 'manual_check']);

interface Usage {
  claimed: Decimal;
  paid: Decimal;
}

function windowKey(poolId: string, method: string): string {
  return `${poolId}\u0000${method}`;
}

/** Every pool window, kept current from operation upserts (payouts open and close slots, payments claim and pay). */
export class PoolIndex {
  private readonly windows = new Map<string, PoolWindow>();
  /** Per payout: what its matched payments claim and paid (kept even while the payout is not an open slot). */
  private readonly usage = new Map<string, Usage>();
  /** Per matched payment: what it currently contributes to its payout's usage. */
  private readonly contribution = new Map<string, Usage & { payout_id: string }>();
  /** Per pool payout: its creation sequence, taken when it is first seen (admitting or not), so matching order is
   * creation order — the same as after a restart, which loads operations in creation order. */
  private readonly seqOf = new Map<string, number>();
  private seq = 0;

  window(poolId: string, method: string): PoolWindow | undefined {
    return this.windows.get(windowKey(poolId, method));
  }

  /** What a payout's matched payments claim and have paid. */
  usageOf(payoutId: string): { claimed: Decimal; paid: Decimal } {
    return this.usage.get(payoutId) ?? { claimed: ZERO, paid: ZERO };
  }

  clear(): void {
    this.windows.clear();
    this.usage.clear();
    this.contribution.clear();
    this.seqOf.clear();
    this.seq = 0;
  }

  /** Keep the index current after an operation upsert. */
  put(op: OperationRecord): void {
    if (op.type === 'payout' && op.pool_id) this.putPayout(op);
    else if (op.type === 'payment' && op.claim) this.putPayment(op);
  }

  /** Forget an operation that was never written (a rolled-back commit): its slot, or its contribution to a slot. */
  remove(op: OperationRecord): void {
    if (op.type === 'payout' && op.pool_id) {
      const w = this.windows.get(windowKey(op.pool_id, op.method));
      if (w?.slots.delete(op.id)) w.changed();
      this.seqOf.delete(op.id);
      this.usage.delete(op.id);
      return;
    }
    if (op.type !== 'payment' || !op.claim) return;
    const prev = this.contribution.get(op.id);
    if (!prev) return;
    this.contribution.delete(op.id);
    const u = this.usage.get(prev.payout_id);
    if (!u) return;
    u.claimed = u.claimed.minus(prev.claimed);
    u.paid = u.paid.minus(prev.paid);
    this.refreshSlot(prev.payout_id);
  }

  private putPayout(op: OperationRecord): void {
    let seq = this.seqOf.get(op.id);
    if (seq === undefined) {
      seq = this.seq++;
      this.seqOf.set(op.id, seq);
    }
    const poolId = poolOf(op)!;
    const key = windowKey(poolId, op.method);
    let w = this.windows.get(key);
    if (op.status !== 'pending') {
      if (w?.slots.delete(op.id)) w.changed();
      return;
    }
    if (!w) {
      w = new PoolWindow();
      this.windows.set(key, w);
    }
    const existing = w.slots.get(op.id);
    const slot: Slot = existing ?? {
      payout_id: op.id,
      pool_id: poolId,
      method: op.method,
      currency: op.currency,
      amount: money(op.expected_amount),
      claimed: ZERO,
      paid: ZERO,
      free: ZERO,
      freeKey: 0,
      seq,
      destination: op.destination ?? {},
    };
    slot.destination = op.destination ?? {};
    this.refresh(slot);
    if (existing) w.changed();
    else w.insert(slot);
  }

  private putPayment(op: OperationRecord): void {
    const claim = claimOf(op)!;
    const next = {
      payout_id: claim.payout_id,
      claimed: OPEN_CLAIM.has(op.status) ? money(claim.amount) : ZERO,
      paid: op.status === 'completed' ? money(op.actual_amount) : ZERO,
    };
    const prev = this.contribution.get(op.id);
    const u = this.usage.get(claim.payout_id) ?? { claimed: ZERO, paid: ZERO };
    u.claimed = u.claimed.plus(next.claimed).minus(prev?.claimed ?? ZERO);
    u.paid = u.paid.plus(next.paid).minus(prev?.paid ?? ZERO);
    this.usage.set(claim.payout_id, u);
    this.contribution.set(op.id, next);
    this.refreshSlot(claim.payout_id);
  }

  /** A payout's usage changed: its open slot, if it has one, shows the new free remainder. */
  private refreshSlot(payoutId: string): void {
    for (const w of this.windows.values()) {
      const slot = w.slots.get(payoutId);
      if (slot) {
        this.refresh(slot);
        w.changed();
        return;
      }
    }
  }

  private refresh(slot: Slot): void {
    const u = this.usage.get(slot.payout_id);
    slot.claimed = u?.claimed ?? ZERO;
    slot.paid = u?.paid ?? ZERO;
    const free = slot.amount.minus(slot.claimed).minus(slot.paid);
    slot.free = free.greaterThan(0) ? free : ZERO;
    slot.freeKey = centsKey(slot.free);
  }
}

/** Scan limits of spec §8: rows examined per window, before any filtering. */
export const SCAN_WITH_AMOUNT = 500;
export const SCAN_WITHOUT_AMOUNT = 1000;
/** Most intervals one response carries (spec §8). */
export const MAX_INTERVALS = 200;

export interface Scan {
  rows: Slot[];
  /** A row beyond the limit exists. */
  truncated: boolean;
}

/** Without an amount: up to 1000 rows in matching order, plus one to detect truncation. */
export function scanInMatchingOrder(w: PoolWindow, limit = SCAN_WITHOUT_AMOUNT): Scan {
  const rows: Slot[] = [];
  for (const s of w.slots.values()) {
    if (rows.length === limit) return { rows, truncated: true };
    rows.push(s);
  }
  return { rows, truncated: false };
}

/**
 * With an amount: up to `side` rows on either side of `pivot` in free-remainder order (free ≥ pivot ascending,
 * free < pivot descending), plus one row per side to detect truncation.
 */
export function scanAround(w: PoolWindow, pivot: Decimal, side = SCAN_WITH_AMOUNT): Scan {
  const all = w.byFree();
  const key = centsKey(pivot);
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (all[mid]!.freeKey < key) lo = mid + 1;
    else hi = mid;
  }
  const above = all.slice(lo, lo + side + 1);
  const below = all.slice(Math.max(0, lo - side - 1), lo).reverse();
  return {
    rows: [...above.slice(0, side), ...below.slice(0, side)],
    truncated: above.length > side || below.length > side,
  };
}

export interface Recommendation {
  amount: Decimal;
  /** amount − the requested amount, signed. */
  delta: Decimal;
  exact: boolean;
}

/**
 * Recommendations from the rows and the intervals they gave (spec §4.10): candidates are the exact free remainders
 * that lie in an interval and, per interval, the amount nearest to `amount`. Exact remainders first, then distance
 * from `amount`, then the lower amount; distinct amounts; at most `limit`.
 */
export function rank(
  rows: readonly Slot[],
  intervals: readonly Range[],
  amount: Decimal,
  limit: number,
): Recommendation[] {
  const inside = (x: Decimal) => {
    let lo = 0;
    let hi = intervals.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (intervals[mid]!.hi.lessThan(x)) lo = mid + 1;
      else hi = mid;
    }
    return lo < intervals.length && intervals[lo]!.lo.lessThanOrEqualTo(x);
  };
  const seen = new Set<string>();
  const exact: Recommendation[] = [];
  for (const r of rows) {
    if (!r.free.greaterThan(0) || !inside(r.free)) continue;
    const k = toScale2(r.free);
    if (seen.has(k)) continue;
    seen.add(k);
    exact.push({ amount: r.free, delta: r.free.minus(amount), exact: true });
  }
  const near: Recommendation[] = [];
  for (const iv of intervals) {
    const x = amount.lessThan(iv.lo) ? iv.lo : amount.greaterThan(iv.hi) ? iv.hi : amount;
    const k = toScale2(x);
    if (seen.has(k)) continue;
    seen.add(k);
    near.push({ amount: x, delta: x.minus(amount), exact: false });
  }
  // Distance and amount as integer keys computed once per candidate; a requested amount far outside the bounds
  // (beyond 2^53 cents) makes them inexact, and then the Decimals themselves are compared.
  const byDistance = (list: Recommendation[]) => {
    const keyed = list.map((x) => ({ x, d: centsKey(x.delta.abs()), a: centsKey(x.amount) }));
    const exactKeys = keyed.every((k) => Number.isSafeInteger(k.d) && Number.isSafeInteger(k.a));
    keyed.sort(
      exactKeys
        ? (p, q) => p.d - q.d || p.a - q.a
        : (p, q) => p.x.delta.abs().comparedTo(q.x.delta.abs()) || p.x.amount.comparedTo(q.x.amount),
    );
    return keyed.map((k) => k.x);
  };
  return [...byDistance(exact), ...byDistance(near)].slice(0, limit);
}
