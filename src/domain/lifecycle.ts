// Moves after creation that touch money: payment completion (credit net of commission), payout settlement
// (reserve consumed) and payout failure (reserve returned). Cancelled or rejected operations move nothing.
import { claimOf, contributionsOf, poolOf, uploadsOf } from './operation.js';
import type { Decimal } from 'decimal.js';
import type { Contribution, OperationRecord } from './operation.js';
import type { DomainContext, StateChange } from './state.js';
import { DomainError } from './errors.js';
import { accounts, posting } from './ledger.js';
import { money, toScale2 } from './money.js';
import { commissionOn, converted, tierFor } from './pricing.js';
import { move } from './transitions.js';
import { iso } from './state.js';
import { outcomeOf, type Effect, type Outcome } from './effects.js';

/** A command's result: the operation it moved, the changes to write, and the effects to carry out once written. */
export interface Moved extends Outcome {
  op: OperationRecord;
}

/** The result of moving `op`, with the timers every operation among `changes` now needs. */
export function movedTo(ctx: Pick<DomainContext, 'world'>, op: OperationRecord, changes: StateChange[], extra?: Effect[]): Moved {
  return { op, ...outcomeOf(ctx, changes, extra) };
}

function changesOf(moved: { op: OperationRecord; event: unknown }, extra: StateChange[] = []): StateChange[] {
  const out: StateChange[] = [{ kind: 'operation', op: moved.op }];
  if (moved.event) out.push({ kind: 'event', event: moved.event as never });
  return out.concat(extra);
}

/**
 * A payment completes for `actualAmount` (in the request currency; may differ from expected). The shop is
 * credited the settlement net of commission at the FX rate; the commission is re-priced on the captured amount.
 */
export function completePayment(ctx: DomainContext, op: OperationRecord, actualAmount: string, cause: string): Moved {
  if (op.type !== 'payment') throw new DomainError('invalid_state', 'only payments complete through a payer transfer');
  const now = iso(ctx.now);
  const actual = money(actualAmount);
  const gross = converted(actual, op.conversion);
  const tier = tierFor(ctx.world.pricingFor(op.shop_id, op.method, 'payin'), actual) ??
    tierFor(ctx.world.pricingFor(op.shop_id, op.method, 'payin'), money(op.expected_amount));
  // The commission never exceeds what was captured: a tiny transfer settles to zero, never below.
  const priced = tier ? commissionOn(gross, tier) : money(op.commission_amount);
  const commission = priced.greaterThan(gross) ? gross : priced;
  const settlement = gross.minus(commission);
  const moved = move(op, 'completed', now, cause, {
    completed_at: now,
    actual_amount: toScale2(actual),
    commission_amount: toScale2(commission),
    settlement_amount: toScale2(settlement),
  });
  const cur = op.settlement_currency;
  const postings: StateChange[] = claimEnded(ctx, moved.op, actual);
  if (settlement.greaterThan(0)) {
    postings.push({ kind: 'posting', posting: posting({ id: `${op.id}:settle`, shopId: op.shop_id, operationId: op.id, kind: 'payment_settled', source: accounts.payins, destination: accounts.balance(op.shop_id), currency: cur, amount: settlement, at: now }) });
  }
  if (commission.greaterThan(0)) {
    postings.push({ kind: 'posting', posting: posting({ id: `${op.id}:fee`, shopId: op.shop_id, operationId: op.id, kind: 'payment_commission', source: accounts.payins, destination: accounts.fees, currency: cur, amount: commission, at: now }) });
  }
  return movedTo(ctx, moved.op, changesOf(moved, postings));
}

/**
 * A matched payment leaves its open claim: it completed for `paid` (its contribution, a receipt item of the payout,
 * spec §2.4) or ended without money (cancelled, rejected, expired; `paid` zero). The payout completes once its
 * matched payments have paid its whole amount and none is still open, so every payer's transfer is in its receipts;
 * until then it stays pending with `actual_amount` = what its payments have paid so far.
 */
export function claimEnded(ctx: DomainContext, payment: OperationRecord, paid: Decimal): StateChange[] {
  const claim = claimOf(payment);
  if (!claim) return [];
  const payout = ctx.state.operation(claim.payout_id);
  if (!payout || payout.status !== 'pending' || !poolOf(payout)) return [];
  const now = iso(ctx.now);
  // Usage as it was before this payment's move: its claim is still counted as open.
  const usage = ctx.state.poolUsage(payout.id);
  const open = usage.claimed.minus(money(claim.amount));
  const total = usage.paid.plus(paid);
  let next: OperationRecord = payout;
  if (paid.greaterThan(0)) {
    const upload = [...uploadsOf(payment)].reverse().find((u) => u.review.to !== 'rejected');
    const contribution: Contribution = {
      payment_id: payment.id,
      amount: toScale2(paid),
      completed_at: now,
      ...(upload ? { file_id: upload.file_id } : {}),
    };
    // actual_amount is the physical fact (spec §2.3): what payers have paid into it so far, while still pending.
    next = { ...payout, actual_amount: toScale2(total), contributions: [...contributionsOf(payout), contribution], updated_at: now } as OperationRecord;
  }
  if (open.greaterThan(0) || total.lessThan(money(payout.expected_amount))) return next === payout ? [] : [{ kind: 'operation', op: next }];
  return settlePayout(ctx, next, 'completed', 'filled by matched payments', total).changes;
}

/**
 * A payout settles: completed consumes the reserve (amount out, commission to fees); failed returns it. A pool
 * payout completes for what its matched payments paid (`paid`): more than its amount takes the difference from the
 * balance, less returns the unfilled rest of the reserve.
 */
export function settlePayout(ctx: DomainContext, op: OperationRecord, outcome: 'completed' | 'failed', cause: string, paid?: Decimal): Moved {
  if (op.type !== 'payout') throw new DomainError('invalid_state', 'only payouts settle');
  const now = iso(ctx.now);
  const cur = op.settlement_currency;
  const reserved = money(op.settlement_amount);
  if (outcome === 'failed') {
    const moved = move(op, 'rejected', now, cause, { rejected_at: now, reject_reason: 'payout_failed' });
    return movedTo(
      ctx,
      moved.op,
      changesOf(moved, [
        { kind: 'posting', posting: posting({ id: `${op.id}:release`, shopId: op.shop_id, operationId: op.id, kind: 'payout_released', source: accounts.reserved(op.shop_id), destination: accounts.balance(op.shop_id), currency: cur, amount: reserved, at: now }) },
      ]),
    );
  }
  const commission = money(op.commission_amount);
  const expectedOut = reserved.minus(commission);
  const actual = paid ?? money(op.expected_amount);
  const out = paid === undefined ? expectedOut : converted(actual, op.conversion);
  const moved = move(op, 'completed', now, cause, {
    completed_at: now,
    actual_amount: toScale2(actual),
    settlement_amount: toScale2(out.plus(commission)),
  });
  const fromReserve = out.lessThan(expectedOut) ? out : expectedOut;
  const postings: StateChange[] = [];
  if (fromReserve.greaterThan(0)) {
    postings.push({ kind: 'posting', posting: posting({ id: `${op.id}:payout`, shopId: op.shop_id, operationId: op.id, kind: 'payout_settled', source: accounts.reserved(op.shop_id), destination: accounts.payouts, currency: cur, amount: fromReserve, at: now }) });
  }
  if (out.greaterThan(expectedOut)) {
    // Payers sent the recipient more than the payout's amount: the shop is charged what was actually paid out.
    postings.push({ kind: 'posting', posting: posting({ id: `${op.id}:payout-excess`, shopId: op.shop_id, operationId: op.id, kind: 'payout_settled', source: accounts.balance(op.shop_id), destination: accounts.payouts, currency: cur, amount: out.minus(expectedOut), at: now }) });
  } else if (out.lessThan(expectedOut)) {
    // Closed short: the unfilled rest of the reserve returns to the balance.
    postings.push({ kind: 'posting', posting: posting({ id: `${op.id}:release`, shopId: op.shop_id, operationId: op.id, kind: 'payout_released', source: accounts.reserved(op.shop_id), destination: accounts.balance(op.shop_id), currency: cur, amount: expectedOut.minus(out), at: now }) });
  }
  if (commission.greaterThan(0)) {
    postings.push({ kind: 'posting', posting: posting({ id: `${op.id}:fee`, shopId: op.shop_id, operationId: op.id, kind: 'payout_commission', source: accounts.reserved(op.shop_id), destination: accounts.fees, currency: cur, amount: commission, at: now }) });
  }
  return movedTo(ctx, moved.op, changesOf(moved, postings));
}

/** Opening balances of a shop, as postings (written once, when the store is first seeded). */
export function openingPostings(shopId: string, balances: Record<string, string>, at: string): StateChange[] {
  return Object.entries(balances)
    .filter(([, amount]) => !money(amount).isZero())
    .map(([currency, amount]) => {
      const a = money(amount);
      const [src, dst] = a.isNegative() ? [accounts.balance(shopId), accounts.opening] : [accounts.opening, accounts.balance(shopId)];
      return { kind: 'posting' as const, posting: posting({ id: `opening:${shopId}:${currency}`, shopId, operationId: null, kind: 'opening_balance', source: src, destination: dst, currency, amount: a.abs(), at }) };
    });
}
