// Property tests of the self-matching pool's reads (spec §2.7, §4.9, §4.10, §8): intervals sorted, disjoint, within
// bounds and at most 200; every amount they cover can be claimed and (without truncation) every claimable amount is
// covered; recommendations within bounds, ordered, at most limit; truncated exactly when a scan limit is hit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateAmounts } from '../../src/domain/amounts.js';
import { planCreate } from '../../src/domain/create.js';
import { openingPostings } from '../../src/domain/lifecycle.js';
import { money } from '../../src/domain/money.js';
import { canClaim, scanAround, scanInMatchingOrder, type PoolWindow } from '../../src/domain/pool.js';
import type { DomainContext } from '../../src/domain/state.js';
import { WorldIndex, type PoolRules } from '../../src/domain/world.js';
import { SandboxState } from '../../src/store/state.js';
import { loadWorld } from '../../src/world/load.js';

const base = loadWorld();
const NOW = Date.parse('2026-01-01T00:00:00Z');
const cents = (n: number) => (n / 100).toFixed(2);

function worldWith(rules: PoolRules): WorldIndex {
  return new WorldIndex({
    ...base,
    providers: base.providers.map((p) => (p.kind === 'self_matching' ? { ...p, pool: rules } : p)),
  });
}

/** A pool of payouts of shop_pool (in this order), then payments that claim from it. */
function pool(rules: PoolRules, payouts: number[], payments: number[] = []) {
  const world = worldWith(rules);
  const state = new SandboxState();
  const ctx = (): DomainContext => ({ world, state, now: NOW });
  state.apply(openingPostings('shop_pool', { RUB: '999999999.00' }, new Date(NOW).toISOString()));
  let n = 0;
  const create = (kind: 'payment' | 'payout', amount: number) => {
    const plan = planCreate(ctx(), 'shop_pool', kind, {
      merchant_operation_id: `m${n++}`,
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: cents(amount),
      currency: 'RUB',
      number: '2200700000000004',
    });
    if (plan.kind === 'commit') state.apply(plan.changes);
  };
  for (const a of payouts) create('payout', a);
  for (const a of payments) create('payment', a);
  return { world, state, ctx, window: state.poolWindow('pool_main', 'WT_RUB_C2C') };
}

const rulesArb = fc
  .record({ min_piece: fc.integer({ min: 1, max: 200_000 }), min_remainder: fc.integer({ min: 1, max: 200_000 }) })
  .map((r): PoolRules => ({ min_piece: cents(r.min_piece), min_remainder: cents(r.min_remainder) }));
const amountArb = fc.integer({ min: 10_000, max: 5_000_000 });
const layoutArb = fc.array(fc.oneof(amountArb, fc.constantFrom(50_000, 100_000, 150_000)), { maxLength: 60 });
const paymentsArb = fc.array(fc.oneof(amountArb, fc.constantFrom(50_000, 100_000)), { maxLength: 20 });
const boundsArb = fc
  .tuple(fc.integer({ min: 10_000, max: 5_000_000 }), fc.integer({ min: 10_000, max: 5_000_000 }))
  .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);

function claimableBySome(w: PoolWindow | undefined, x: string, rules: PoolRules): boolean {
  if (!w) return false;
  for (const s of w.slots.values()) if (canClaim(s.free, money(x), rules)) return true;
  return false;
}

describe('availability intervals', () => {
  it('are sorted, disjoint with real gaps, within bounds, at most 200, sound and (untruncated) complete', () => {
    fc.assert(
      fc.property(
        rulesArb,
        layoutArb,
        paymentsArb,
        boundsArb,
        fc.integer({ min: 0, max: 1000 }),
        (rules, payouts, payments, [lo, hi], probe) => {
          const p = pool(rules, payouts, payments);
          const r = evaluateAmounts(p.ctx(), 'shop_pool', {
            method: 'WT_RUB_C2C',
            currency: 'RUB',
            min_amount: cents(lo),
            max_amount: cents(hi),
          });
          expect(r.coverage).toBe('full');
          expect(r.intervals.length).toBeLessThanOrEqual(200);
          for (const [i, iv] of r.intervals.entries()) {
            expect(iv.lo.lessThanOrEqualTo(iv.hi)).toBe(true);
            expect(iv.lo.greaterThanOrEqualTo(money(cents(lo)))).toBe(true);
            expect(iv.hi.lessThanOrEqualTo(money(cents(hi)))).toBe(true);
            // Both ends are amounts some slot can give.
            expect(claimableBySome(p.window, iv.lo.toFixed(2), rules)).toBe(true);
            expect(claimableBySome(p.window, iv.hi.toFixed(2), rules)).toBe(true);
            if (i > 0) expect(iv.lo.minus(r.intervals[i - 1]!.hi).greaterThan('0.01')).toBe(true);
          }
          if (!r.truncated) {
            // A probe amount inside the bounds is covered exactly when some slot can give it.
            const x = cents(lo + Math.floor(((hi - lo) * probe) / 1000));
            const covered = r.intervals.some(
              (iv) => money(x).greaterThanOrEqualTo(iv.lo) && money(x).lessThanOrEqualTo(iv.hi),
            );
            expect(covered).toBe(claimableBySome(p.window, x, rules));
            for (const s of p.window?.slots.values() ?? []) {
              if (
                s.free.greaterThan(0) &&
                s.free.greaterThanOrEqualTo(cents(lo)) &&
                s.free.lessThanOrEqualTo(cents(hi))
              ) {
                expect(
                  r.intervals.some((iv) => s.free.greaterThanOrEqualTo(iv.lo) && s.free.lessThanOrEqualTo(iv.hi)),
                ).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an empty pool gives no intervals, not truncated', () => {
    const p = pool({ min_piece: '500.00', min_remainder: '500.00' }, []);
    expect(
      evaluateAmounts(p.ctx(), 'shop_pool', {
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        min_amount: '100.00',
        max_amount: '5000.00',
      }),
    ).toMatchObject({ intervals: [], truncated: false, coverage: 'full' });
  });

  it('more than 200 intervals are cut to 200 and say truncated', () => {
    // Pieces are impossible (min_piece above every amount): each slot is one point interval.
    const amounts = Array.from({ length: 250 }, (_, i) => 10_000 + i * 100);
    const p = pool({ min_piece: '999999.00', min_remainder: '1.00' }, amounts);
    const r = evaluateAmounts(p.ctx(), 'shop_pool', {
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      min_amount: '100.00',
      max_amount: '100000.00',
    });
    expect(r.intervals).toHaveLength(200);
    expect(r.truncated).toBe(true);
    expect(r.intervals[0]).toMatchObject({ lo: money('100.00'), hi: money('100.00') });
  });
});

describe('scan limits', () => {
  it('truncated exactly when a window has more rows than the limit, in matching order and around the amount', () => {
    fc.assert(
      fc.property(layoutArb, fc.integer({ min: 1, max: 10 }), amountArb, (payouts, limit, pivot) => {
        const p = pool({ min_piece: '500.00', min_remainder: '500.00' }, payouts);
        const w = p.window;
        if (!w) {
          expect(payouts).toHaveLength(0);
          return;
        }
        const m = scanInMatchingOrder(w, limit);
        expect(m.truncated).toBe(w.slots.size > limit);
        expect(m.rows.map((s) => s.payout_id)).toEqual([...w.slots.keys()].slice(0, limit));
        const a = scanAround(w, money(cents(pivot)), limit);
        const above = [...w.slots.values()].filter((s) => s.free.greaterThanOrEqualTo(cents(pivot)));
        const below = [...w.slots.values()].filter((s) => s.free.lessThan(cents(pivot)));
        expect(a.truncated).toBe(above.length > limit || below.length > limit);
        expect(a.rows).toHaveLength(Math.min(above.length, limit) + Math.min(below.length, limit));
        // The rows above are the `limit` smallest remainders at or above the amount; below, the largest under it.
        const maxAbove = a.rows
          .filter((s) => s.free.greaterThanOrEqualTo(cents(pivot)))
          .reduce((x, s) => (s.freeKey > x ? s.freeKey : x), -1);
        expect(above.filter((s) => s.freeKey < maxAbove).length).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 200 },
    );
  });

  it('availability over more than 1,000 payouts says truncated (the extra row is seen)', () => {
    const p = pool(
      { min_piece: '500.00', min_remainder: '500.00' },
      Array.from({ length: 1001 }, () => 100_000),
    );
    const r = evaluateAmounts(p.ctx(), 'shop_pool', {
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      min_amount: '100.00',
      max_amount: '5000.00',
    });
    expect(r.truncated).toBe(true);
    const exact = pool(
      { min_piece: '500.00', min_remainder: '500.00' },
      Array.from({ length: 1000 }, () => 100_000),
    );
    expect(
      evaluateAmounts(exact.ctx(), 'shop_pool', {
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        min_amount: '100.00',
        max_amount: '5000.00',
      }).truncated,
    ).toBe(false);
  });

  it('the scan limit applies before filtering: rejected rows use up the budget', () => {
    // 1,000 fully claimed slots first in matching order, then one free slot: the free one is beyond the scan.
    const p = pool(
      { min_piece: '500.00', min_remainder: '500.00' },
      [...Array.from({ length: 1000 }, () => 100_000), 300_000],
      Array.from({ length: 1000 }, () => 100_000),
    );
    const r = evaluateAmounts(p.ctx(), 'shop_pool', {
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      min_amount: '100.00',
      max_amount: '5000.00',
    });
    expect(r).toMatchObject({ intervals: [], truncated: true });
  });
});

describe('recommendations', () => {
  it('lie within the bounds, are distinct, at most limit, exact remainders first, then by distance and the lower amount', () => {
    fc.assert(
      fc.property(
        rulesArb,
        layoutArb,
        paymentsArb,
        boundsArb,
        amountArb,
        fc.integer({ min: 1, max: 10 }),
        (rules, payouts, payments, [lo, hi], amount, limit) => {
          const p = pool(rules, payouts, payments);
          const r = evaluateAmounts(p.ctx(), 'shop_pool', {
            method: 'WT_RUB_C2C',
            currency: 'RUB',
            min_amount: cents(lo),
            max_amount: cents(hi),
            amount: cents(amount),
            limit,
          });
          const recs = r.recommendations;
          expect(recs.length).toBeLessThanOrEqual(limit);
          expect(new Set(recs.map((x) => x.amount.toFixed(2))).size).toBe(recs.length);
          if (r.intervals.length > 0) expect(recs.length).toBeGreaterThan(0);
          const frees = new Set([...(p.window?.slots.values() ?? [])].map((s) => s.free.toFixed(2)));
          let seenInexact = false;
          for (const [i, x] of recs.entries()) {
            expect(x.amount.greaterThanOrEqualTo(cents(lo)) && x.amount.lessThanOrEqualTo(cents(hi))).toBe(true);
            expect(x.delta.toFixed(2)).toBe(x.amount.minus(cents(amount)).toFixed(2));
            expect(
              r.intervals.some((iv) => x.amount.greaterThanOrEqualTo(iv.lo) && x.amount.lessThanOrEqualTo(iv.hi)),
            ).toBe(true);
            if (x.exact) {
              expect(seenInexact).toBe(false);
              expect(frees.has(x.amount.toFixed(2))).toBe(true);
            } else {
              seenInexact = true;
            }
            const prev = recs[i - 1];
            if (prev && prev.exact === x.exact) {
              const c = prev.delta.abs().comparedTo(x.delta.abs());
              expect(c < 0 || (c === 0 && prev.amount.lessThan(x.amount))).toBe(true);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an amount outside the bounds starts the search at the closest bound; deltas use the original amount', () => {
    const p = pool({ min_piece: '500.00', min_remainder: '500.00' }, [100_000, 300_000, 900_000]);
    const r = evaluateAmounts(p.ctx(), 'shop_pool', {
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      min_amount: '1000.00',
      max_amount: '3000.00',
      amount: '10000.00',
      limit: 3,
    });
    expect(r.recommendations.map((x) => [x.amount.toFixed(2), x.delta.toFixed(2), x.exact])).toEqual([
      ['3000.00', '-7000.00', true],
      ['1000.00', '-9000.00', true],
    ]);
    // 9000.00 is outside the bounds: never recommended.
  });
});
