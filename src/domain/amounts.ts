// Amount availability and recommendations (spec §2.7, §4.9, §4.10, §8): read-only evaluation of the pools a shop's
// payin route reaches. Scan limits apply per pool window before any filtering; intervals are clipped to the caller's
// bounds and the route's limits, merged, and capped at 200. Never writes anything.
import type { Decimal } from 'decimal.js';
import type { DomainContext } from './state.js';
import type { ProviderDef, RouteDef } from './world.js';
import { DomainError } from './errors.js';
import { echo } from '../contract/echo.js';
import { methodFor } from './create.js';
import { money } from './money.js';
import { pricingCovers } from './pricing.js';
import {
  MAX_INTERVALS,
  claimableRanges,
  mergeRanges,
  rank,
  scanAround,
  scanInMatchingOrder,
  type Range,
  type Recommendation,
  type Slot,
} from './pool.js';

export type Coverage = 'full' | 'partial' | 'none';

export interface AmountsQuery {
  method: string;
  currency: string;
  min_amount: string;
  max_amount: string;
  /** Recommendations only: the desired amount (may lie outside the bounds). */
  amount?: string;
  limit?: number;
}

export interface AmountsResult {
  coverage: Coverage;
  truncated: boolean;
  intervals: Range[];
  recommendations: Recommendation[];
}

/** The payin route of a shop and method, with its pool providers; 412 when there is none. */
export function payinRoute(
  ctx: DomainContext,
  shopId: string,
  method: string,
): { route: RouteDef; pools: ProviderDef[]; others: ProviderDef[] } {
  const route = ctx.world.route(shopId, method, 'payin');
  if (!route)
    throw new DomainError(
      'no_route',
      `shop has no payin route for ${echo(method)}; pick a method the shop is configured for`,
    );
  const providers = route.providers
    .map((id) => ctx.world.providers.get(id))
    .filter((p): p is ProviderDef => p !== undefined);
  return {
    route,
    pools: providers.filter((p) => p.kind === 'self_matching'),
    others: providers.filter((p) => p.kind !== 'self_matching'),
  };
}

/** Validate the query (400s, then the 412s of spec §7) and evaluate it against the pools. */
export function evaluateAmounts(ctx: DomainContext, shopId: string, q: AmountsQuery): AmountsResult {
  methodFor(ctx.world, q.method, q.currency);
  const min = money(q.min_amount);
  const max = money(q.max_amount);
  if (min.greaterThan(max))
    throw new DomainError('validation_error', 'min_amount must not exceed max_amount', 'min_amount');
  const { route, pools, others } = payinRoute(ctx, shopId, q.method);
  if (!pricingCovers(ctx.world.pricingFor(shopId, q.method, 'payin'), min, max)) {
    throw new DomainError(
      'pricing_not_covered',
      `the shop has no pricing for ${echo(q.method)} payins over all of ${q.min_amount}–${q.max_amount}; narrow the range`,
    );
  }
  const coverage: Coverage = pools.length === 0 ? 'none' : others.length === 0 ? 'full' : 'partial';
  if (pools.length === 0) return { coverage, truncated: false, intervals: [], recommendations: [] };
  // What may be offered: the caller's bounds within the route's limits.
  const routeMin = money(route.min_amount);
  const routeMax = money(route.max_amount);
  const lo = min.greaterThan(routeMin) ? min : routeMin;
  const hi = max.lessThan(routeMax) ? max : routeMax;
  const amount = q.amount === undefined ? undefined : money(q.amount);
  // The search starts at the amount, or at the closest bound when it lies outside them (spec §8 notes).
  const pivot = amount === undefined ? undefined : amount.lessThan(min) ? min : amount.greaterThan(max) ? max : amount;
  const found = poolIntervals(ctx, pools, q.method, q.currency, lo, hi, pivot);
  const recommendations = amount === undefined ? [] : rank(found.rows, found.intervals, amount, q.limit ?? 3);
  return { coverage, truncated: found.truncated, intervals: found.intervals, recommendations };
}

/**
 * The amounts the pools can take within [lo, hi]: each window scanned under the limits of spec §8 (around `pivot`
 * when given, else in matching order), the claimable ranges of the rows merged, at most 200 intervals.
 */
export function poolIntervals(
  ctx: DomainContext,
  pools: ProviderDef[],
  method: string,
  currency: string,
  lo: Decimal,
  hi: Decimal,
  pivot?: Decimal,
): { rows: Slot[]; intervals: Range[]; truncated: boolean } {
  let truncated = false;
  const rows: Slot[] = [];
  const ranges: Range[] = [];
  for (const provider of pools) {
    const w = ctx.state.poolWindow(provider.id, method);
    if (!w) continue;
    const scan = pivot === undefined ? scanInMatchingOrder(w) : scanAround(w, pivot);
    truncated ||= scan.truncated;
    if (lo.greaterThan(hi)) continue;
    for (const row of scan.rows) {
      if (row.currency !== currency) continue;
      const r = claimableRanges(row.free, provider.pool!, lo, hi);
      if (r.length === 0) continue;
      rows.push(row);
      for (const x of r) ranges.push(x);
    }
  }
  let intervals = mergeRanges(ranges);
  if (intervals.length > MAX_INTERVALS) {
    // Which 200 to keep: those nearest the amount when there is one, else the lowest.
    intervals = pivot === undefined ? intervals.slice(0, MAX_INTERVALS) : nearest(intervals, pivot);
    truncated = true;
  }
  return { rows, intervals, truncated };
}

/** The MAX_INTERVALS intervals closest to `pivot`, still sorted. */
function nearest(intervals: Range[], pivot: Decimal): Range[] {
  const dist = (r: Range) =>
    pivot.lessThan(r.lo) ? r.lo.minus(pivot) : pivot.greaterThan(r.hi) ? pivot.minus(r.hi) : money(0);
  const keep = new Set(
    intervals
      .map((r, i) => ({ i, d: dist(r) }))
      .sort((a, b) => a.d.comparedTo(b.d) || a.i - b.i)
      .slice(0, MAX_INTERVALS)
      .map((x) => x.i),
  );
  return intervals.filter((_, i) => keep.has(i));
}
