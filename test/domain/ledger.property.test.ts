// Property test: over random sequences of creates, payer transfers and payout settlements, the ledger balances
// and every balance row follows from the operations (spec §2.5).
import { claimOf, contributionsOf, poolOf } from '../../src/domain/operation.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planCreate } from '../../src/domain/create.js';
import { accounts, balanceRow } from '../../src/domain/ledger.js';
import { completePayment, openingPostings } from '../../src/domain/lifecycle.js';
import { cancel, expire, providerSettles, receiptUploaded, reviewerDecides } from '../../src/domain/commands.js';
import { DomainError } from '../../src/domain/errors.js';
import { money, ZERO } from '../../src/domain/money.js';
import { commissionOn, converted, tierFor } from '../../src/domain/pricing.js';
import type { DomainContext } from '../../src/domain/state.js';
import { WorldIndex } from '../../src/domain/world.js';
import { SandboxState } from '../../src/store/state.js';
import { loadWorld } from '../../src/world/load.js';

const world = new WorldIndex(loadWorld());
// shop_pool routes card payins and payouts through the self-matching pool: its payments claim its payouts.
const SHOPS = ['shop_a', 'shop_b', 'shop_pool'] as const;

type Action =
  | { t: 'payment'; shop: number; method: number; cents: number; tag: string }
  | { t: 'payout'; shop: number; method: number; cents: number; tag: string }
  | { t: 'pay'; pick: number; mode: 'full' | 'partial' | 'more' }
  | { t: 'settle'; pick: number; ok: boolean }
  | { t: 'cancel'; pick: number }
  | { t: 'receipt'; pick: number; verdict: 'ok' | 'doubt' | 'other_amount' }
  | { t: 'review'; pick: number; approve: boolean }
  | { t: 'expire'; pick: number };

const amountCents = fc.integer({ min: 1, max: 40_000_000 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    t: fc.constant('payment' as const),
    shop: fc.nat(2),
    method: fc.nat(1),
    cents: amountCents,
    tag: fc.constantFrom('', '+reject'),
  }),
  fc.record({
    t: fc.constant('payout' as const),
    shop: fc.nat(2),
    method: fc.nat(1),
    cents: amountCents,
    tag: fc.constantFrom('', '+fail'),
  }),
  // Pool-sized amounts, so that pool payments find slots: whole remainders and pieces of 500.00+.
  fc.record({
    t: fc.constant('payment' as const),
    shop: fc.constant(2),
    method: fc.constant(0),
    cents: fc.constantFrom(50_000, 100_000, 150_000, 250_000, 300_000),
    tag: fc.constant(''),
  }),
  fc.record({
    t: fc.constant('payout' as const),
    shop: fc.constant(2),
    method: fc.constant(0),
    cents: fc.constantFrom(100_000, 150_000, 300_000, 500_000),
    tag: fc.constant(''),
  }),
  fc.record({
    t: fc.constant('pay' as const),
    pick: fc.nat(),
    mode: fc.constantFrom('full' as const, 'partial' as const, 'more' as const),
  }),
  fc.record({ t: fc.constant('settle' as const), pick: fc.nat(), ok: fc.boolean() }),
  fc.record({ t: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({
    t: fc.constant('receipt' as const),
    pick: fc.nat(),
    verdict: fc.constantFrom('ok' as const, 'doubt' as const, 'other_amount' as const),
  }),
  fc.record({ t: fc.constant('review' as const), pick: fc.nat(), approve: fc.boolean() }),
  fc.record({ t: fc.constant('expire' as const), pick: fc.nat() }),
);

/**
 * Only the pool shop's card payins and payouts, in episodes — a payout, a payment (matched to an open payout), the
 * payer paying all, a third or more, the provider settling a pending payout — so that payouts get filled, overpaid
 * and closed short while other payments and payouts are open around them.
 */
const poolEpisodes: fc.Arbitrary<Action[]> = fc
  .array(
    fc.record({
      payout: fc.constantFrom(100_000, 150_000, 300_000, 2_500_000),
      payment: fc.constantFrom(50_000, 100_000, 150_000, 2_450_000),
      mode: fc.constantFrom('full' as const, 'partial' as const, 'more' as const),
      pick: fc.nat(),
      ok: fc.boolean(),
      cancel: fc.option(fc.nat(), { freq: 4 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((episodes) =>
    episodes.flatMap((e): Action[] => [
      { t: 'payout', shop: 2, method: 0, cents: e.payout, tag: '' },
      { t: 'payment', shop: 2, method: 0, cents: e.payment, tag: '' },
      ...(e.cancel === null ? [] : [{ t: 'cancel' as const, pick: e.cancel }]),
      { t: 'pay', pick: e.pick, mode: e.mode },
      { t: 'settle', pick: e.pick, ok: e.ok },
    ]),
  );

/** Completed pool payouts the invariants met, by how they were paid (checked on every step: counted again). */
const seen = { short: 0, full: 0, over: 0 };

function run(actions: Action[]) {
  const state = new SandboxState();
  let now = Date.parse('2026-01-01T00:00:00Z');
  const ctx = (): DomainContext => ({ world, state, now: (now += 1000) });
  for (const s of world.data.shops) state.apply(openingPostings(s.id, s.opening_balances, new Date(now).toISOString()));
  let n = 0;
  for (const a of actions) {
    if (a.t === 'payment' || a.t === 'payout') {
      const method = a.method === 0 ? 'WT_RUB_C2C' : 'WT_RUB_PHONE';
      const amount = (a.cents / 100).toFixed(2);
      const plan = planCreate(ctx(), SHOPS[a.shop]!, a.t, {
        merchant_operation_id: `m${n++}`,
        client_id: `c${a.tag}${a.cents % 3 === 0 ? '+receipt' : ''}`,
        method,
        amount,
        currency: 'RUB',
        number: '2200700000000004',
        bankname: 'sber',
      });
      if (plan.kind === 'commit') state.apply(plan.changes);
    } else if (a.t === 'pay') {
      const open = [...state.operations.values()].filter(
        (o) => o.type === 'payment' && (o.status === 'pending' || o.status === 'awaiting_confirmation'),
      );
      if (open.length === 0) continue;
      const op = open[a.pick % open.length]!;
      const expected = money(op.expected_amount);
      const actual =
        a.mode === 'full'
          ? expected
          : a.mode === 'partial'
            ? expected.dividedBy(3).toDecimalPlaces(2)
            : expected.plus('10.01');
      if (actual.lessThanOrEqualTo(0)) continue;
      state.apply(completePayment(ctx(), op, actual.toFixed(2), 'payer paid').changes);
    } else if (a.t === 'settle') {
      const open = [...state.operations.values()].filter((o) => o.type === 'payout' && o.status === 'pending');
      if (open.length === 0) continue;
      const op = open[a.pick % open.length]!;
      try {
        // Through the provider's command: a pool payout completes by being filled, fails only when unpaid, and closes
        // short (completes for what was paid) only when no matched payment is open.
        state.apply(providerSettles(ctx(), op, a.ok ? 'completed' : 'failed').changes);
      } catch (e) {
        if (!(e instanceof DomainError) || !op.pool_id) throw e;
      }
    } else {
      const all = [...state.operations.values()];
      if (all.length === 0) continue;
      const op = all[a.pick % all.length]!;
      try {
        if (a.t === 'cancel') {
          const r = cancel(ctx(), op, '', true);
          if (r.moved) state.apply(r.moved.changes);
        } else if (a.t === 'receipt') {
          const verdict =
            a.verdict === 'ok'
              ? { to: 'completed' as const, amount: op.expected_amount, rule: 't' }
              : a.verdict === 'doubt'
                ? { to: 'manual_check' as const, reason: 'potential_fake' as const, rule: 't' }
                : {
                    to: 'manual_check' as const,
                    reason: null,
                    amount: money(op.expected_amount).times('0.9').toFixed(2),
                    rule: 't',
                  };
          const upload = {
            id: `u${n++}`,
            file_id: `f${n}`,
            filename: 'r.pdf',
            content_type: 'application/pdf',
            size: 1,
            uploaded_at: new Date(now).toISOString(),
          };
          state.apply(receiptUploaded(ctx(), op, upload, verdict).changes);
        } else if (a.t === 'review') {
          state.apply(reviewerDecides(ctx(), op, a.approve ? 'approve' : 'decline').changes);
        } else if (op.expires_at) {
          const c = ctx();
          const moved = expire({ ...c, now: Math.max(c.now, Date.parse(op.expires_at)) }, op);
          if (moved) state.apply(moved.changes);
        }
      } catch (e) {
        // A refused command changes nothing; anything but a domain refusal is a bug.
        if (!(e instanceof DomainError)) throw e;
      }
    }
    checkInvariants(state);
  }
  return state;
}

function checkInvariants(state: SandboxState) {
  for (const currency of world.data.currencies) {
    // Double entry: every posting moves money between two accounts, so the whole ledger nets to zero.
    expect(state.totals.net(currency).isZero()).toBe(true);
    let fees = ZERO;
    for (const shop of world.data.shops) {
      const opening = money(shop.opening_balances[currency] ?? '0');
      let expectBalance = opening;
      let expectReserved = ZERO;
      for (const op of state.operationsOfShop(shop.id)) {
        if (op.settlement_currency !== currency) continue;
        const s = money(op.settlement_amount);
        if (op.type === 'payment' && op.status === 'completed') {
          expectBalance = expectBalance.plus(s);
          fees = fees.plus(op.commission_amount);
        }
        if (op.type === 'payout' && op.status === 'pending') {
          expectBalance = expectBalance.minus(s);
          expectReserved = expectReserved.plus(s);
        }
        if (op.type === 'payout' && op.status === 'completed') {
          expectBalance = expectBalance.minus(s);
          fees = fees.plus(op.commission_amount);
        }
      }
      const balance = state.accountTotal(accounts.balance(shop.id), currency);
      const reserved = state.accountTotal(accounts.reserved(shop.id), currency);
      expect(balance.toFixed(2)).toBe(expectBalance.toFixed(2));
      expect(reserved.toFixed(2)).toBe(expectReserved.toFixed(2));
      expect(reserved.isNegative()).toBe(false);
      const row = balanceRow(currency, balance, reserved);
      expect(row.current_minus.isNegative()).toBe(false);
      expect(row.current_minus.toFixed(2)).toBe(
        money(0).minus(balance.plus(reserved)).greaterThan(0) ? balance.plus(reserved).negated().toFixed(2) : '0.00',
      );
      // No shop goes below its overdraft limit through payout reserves.
      const limit = money(shop.overdraft_limits[currency] ?? '0');
      expect(balance.greaterThanOrEqualTo(limit.negated())).toBe(true);
    }
    expect(state.accountTotal(accounts.fees, currency).toFixed(2)).toBe(fees.toFixed(2));
  }
  checkPool(state);
  for (const p of state.postings.values()) {
    expect(p.amount).toMatch(/^\d+\.\d{2}$/);
    expect(money(p.amount).greaterThan(0)).toBe(true);
    if (p.operation_id) {
      const op = state.operation(p.operation_id)!;
      expect(['rejected', 'cancelled']).not.toContain(op.type === 'payment' ? op.status : 'x');
    }
  }
}

const OPEN = new Set(['admitting', 'pending', 'awaiting_confirmation', 'manual_check']);

/** The pool index agrees with the operations: every open slot's free remainder is its amount minus claims and payments. */
function checkPool(state: SandboxState) {
  const ops = [...state.operations.values()];
  for (const payout of ops.filter((o) => o.type === 'payout' && poolOf(o))) {
    const matched = ops.filter((o) => claimOf(o)?.payout_id === payout.id);
    const claimed = matched.filter((o) => OPEN.has(o.status)).reduce((t, o) => t.plus(claimOf(o)!.amount), ZERO);
    const paid = matched.filter((o) => o.status === 'completed').reduce((t, o) => t.plus(o.actual_amount), ZERO);
    const contributed = contributionsOf(payout).reduce((t, c) => t.plus(c.amount), ZERO);
    const slot = state.poolWindow(poolOf(payout)!, payout.method)?.slots.get(payout.id);
    if (payout.status === 'pending') {
      expect(slot).toBeDefined();
      const free = money(payout.expected_amount).minus(claimed).minus(paid);
      expect(slot!.free.toFixed(2)).toBe((free.isNegative() ? ZERO : free).toFixed(2));
      // Paid in full but still pending only while some matched payment is still open.
      if (!paid.lessThan(payout.expected_amount)) expect(claimed.greaterThan(0)).toBe(true);
      expect(contributed.toFixed(2)).toBe(paid.toFixed(2));
    } else {
      expect(slot).toBeUndefined();
      // A payout closes only once no matched payment is open, and then every completed one is in its receipts.
      expect(claimed.isZero()).toBe(true);
      expect(contributed.toFixed(2)).toBe(paid.toFixed(2));
      // A filled or closed-short payout completed for exactly what its matched payments paid, and its commission is
      // re-priced on that captured amount (README: "re-priced on actual_amount when completed"), as a payment's is.
      if (payout.status === 'completed' && paid.greaterThan(0)) {
        expect(payout.actual_amount).toBe(paid.toFixed(2));
        const c = paid.comparedTo(payout.expected_amount);
        seen[c < 0 ? 'short' : c > 0 ? 'over' : 'full']++;
        const gross = converted(paid, payout.conversion);
        const pricing = world.pricingFor(payout.shop_id, payout.method, 'payout');
        const tier = tierFor(pricing, paid) ?? tierFor(pricing, money(payout.expected_amount));
        expect(payout.commission_amount).toBe(commissionOn(gross, tier!).toFixed(2));
        expect(payout.settlement_amount).toBe(gross.plus(payout.commission_amount).toFixed(2));
      }
      if (payout.status !== 'completed') expect(paid.isZero()).toBe(true);
    }
    // Claims never promise more than the slot holds.
    expect(claimed.lessThanOrEqualTo(money(payout.expected_amount))).toBe(true);
  }
  // A pool payment pays into the destination of the payout it matched.
  for (const p of ops.filter((o) => claimOf(o) && o.status !== 'rejected' && o.status !== 'admitting')) {
    expect(p.destination?.number).toBe(state.operation(claimOf(p)!.payout_id)!.destination?.number);
  }
}

describe('ledger invariants', () => {
  it('hold over random operation sequences', () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), (actions) => {
        run(actions);
      }),
      { numRuns: 150 },
    );
  });

  it('hold over random sequences of pool payouts and payments: filled and closed short, each re-priced', () => {
    const before = { ...seen };
    fc.assert(
      fc.property(poolEpisodes, (actions) => {
        run(actions);
      }),
      { numRuns: 60 },
    );
    // The sequences reach pool payouts filled exactly and closed short (overpaid ones are rarer: the test below).
    expect([seen.short > before.short, seen.full > before.full]).toEqual([true, true]);
  }, 60_000);

  it('a partial payment settles to the captured amount, re-priced', () => {
    const state = run([
      { t: 'payment', shop: 0, method: 0, cents: 300000, tag: '' },
      { t: 'pay', pick: 0, mode: 'partial' },
    ]);
    const op = [...state.operations.values()][0]!;
    expect(op).toMatchObject({
      status: 'completed',
      expected_amount: '3000.00',
      actual_amount: '1000.00',
      commission_amount: '25.00',
      settlement_amount: '975.00',
    });
    expect(state.accountTotal(accounts.balance('shop_a'), 'RUB').toFixed(2)).toBe('1000975.00');
  });
});

describe('pool payouts in the ledger', () => {
  it('two matched payments fill a pool payout, which completes with one contribution each', () => {
    const state = run([
      { t: 'payout', shop: 2, method: 0, cents: 150_000, tag: '' },
      { t: 'payment', shop: 2, method: 0, cents: 100_000, tag: '' },
      { t: 'payment', shop: 2, method: 0, cents: 50_000, tag: '' },
      { t: 'pay', pick: 0, mode: 'full' },
      { t: 'pay', pick: 0, mode: 'full' },
    ]);
    const [payout, p1, p2] = [...state.operations.values()];
    expect(claimOf(p1!)?.payout_id).toBe(payout!.id);
    expect(claimOf(p2!)).toEqual({ payout_id: payout!.id, amount: '500.00' });
    expect(payout).toMatchObject({ status: 'completed', actual_amount: '1500.00' });
    expect(
      contributionsOf(payout!)
        .map((c) => c.amount)
        .sort(),
    ).toEqual(['1000.00', '500.00']);
  });

  it('a pool payout closed short is re-priced on what was paid: 25,000.00 closed at 24,500.00 takes 245.00, not 250.00', () => {
    const state = run([
      { t: 'payout', shop: 2, method: 0, cents: 2_500_000, tag: '' },
      { t: 'payment', shop: 2, method: 0, cents: 2_450_000, tag: '' },
      { t: 'pay', pick: 0, mode: 'full' },
      { t: 'settle', pick: 0, ok: true },
    ]);
    const [payout, payment] = [...state.operations.values()];
    expect(claimOf(payment!)?.payout_id).toBe(payout!.id);
    expect(payout).toMatchObject({
      status: 'completed',
      expected_amount: '25000.00',
      actual_amount: '24500.00',
      commission_amount: '245.00',
      settlement_amount: '24745.00',
    });
    const opening = money(world.data.shops.find((s) => s.id === 'shop_pool')!.opening_balances.RUB ?? '0');
    // The shop paid out 24,500.00 plus 245.00 and was credited its payment's 24,500.00 less 245.00 (1 % each way).
    expect(state.accountTotal(accounts.balance('shop_pool'), 'RUB').toFixed(2)).toBe(
      opening.minus('24745.00').plus('24255.00').toFixed(2),
    );
    expect(state.accountTotal(accounts.reserved('shop_pool'), 'RUB').toFixed(2)).toBe('0.00');
    expect(state.accountTotal(accounts.fees, 'RUB').toFixed(2)).toBe('490.00');
  });

  it('an overpaid pool payout is re-priced on what was paid, and the reserve pays its commission first', () => {
    const state = run([
      { t: 'payout', shop: 2, method: 0, cents: 100_000, tag: '' },
      { t: 'payment', shop: 2, method: 0, cents: 100_000, tag: '' },
      { t: 'pay', pick: 0, mode: 'more' },
    ]);
    const [payout] = [...state.operations.values()];
    // 1,010.01 paid into a payout of 1,000.00: commission 1 % of 1,010.01 = 10.10; the shop is charged 1,020.11.
    expect(payout).toMatchObject({
      status: 'completed',
      actual_amount: '1010.01',
      commission_amount: '10.10',
      settlement_amount: '1020.11',
    });
    expect(state.accountTotal(accounts.reserved('shop_pool'), 'RUB').toFixed(2)).toBe('0.00');
  });

  it('a pool payout with matched payments cannot fail, and cannot be completed by the provider', () => {
    const state = run([
      { t: 'payout', shop: 2, method: 0, cents: 150_000, tag: '' },
      { t: 'payment', shop: 2, method: 0, cents: 100_000, tag: '' },
      { t: 'settle', pick: 0, ok: false },
      { t: 'settle', pick: 0, ok: true },
    ]);
    const [payout] = [...state.operations.values()];
    expect(payout!.status).toBe('pending');
  });
});
