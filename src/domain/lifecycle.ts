// Moves after creation that touch money: payment completion (credit net of commission), payout settlement
// (reserve consumed) and payout failure (reserve returned). Cancelled or rejected operations move nothing.
import type { Decimal } from 'decimal.js';
import type { Contribution, OperationRecord } from './operation.js';
import type { DomainContext, StateChange } from './state.js';
import { DomainError } from './errors.js';
import { accounts, posting } from './ledger.js';
import { money, round2, toScale2 } from './money.js';
import { commissionOn, tierFor } from './pricing.js';
import { move } from './transitions.js';
import { iso } from './state.js';

export interface Moved {
  op: OperationRecord;
  changes: StateChange[];
}

function changesOf(moved: { op: OperationRecord; event: unknown }, extra: StateChange[] = []): StateChange[] {
  const out: StateChange[] = [{ kind: 'operation', op: moved.op }];
  if (moved.event) out.push({ kind: 'event', event: moved.event as never });
  return out.concat(extra);
}

function rateOf(op: OperationRecord) {
  return money(op.conversion?.rate ?? 1);
}

/**
 * A payment completes for `actualAmount` (in the request currency; may differ from expected). The shop is
 * credited the settlement net of commission at the FX rate; the commission is re-priced on the captured amount.
 */
export function completePayment(ctx: DomainContext, op: OperationRecord, actualAmount: string, cause: string): Moved {
  if (op.type !== 'payment') throw new DomainError('invalid_state', 'only payments complete through a payer transfer');
  const now = iso(ctx.now);
  const actual = money(actualAmount);
  const gross = round2(actual.times(rateOf(op)));
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
  const postings: StateChange[] = op.claim ? fillPayout(ctx, moved.op, actual) : [];
  if (settlement.greaterThan(0)) {
    postings.push({ kind: 'posting', posting: posting(`${op.id}:settle`, op.shop_id, op.id, 'payment_settled', accounts.payins, accounts.balance(op.shop_id), cur, settlement, now) });
  }
  if (commission.greaterThan(0)) {
    postings.push({ kind: 'posting', posting: posting(`${op.id}:fee`, op.shop_id, op.id, 'payment_commission', accounts.payins, accounts.fees, cur, commission, now) });
  }
  return { op: moved.op, changes: changesOf(moved, postings) };
}

/**
 * A completed pool payment pays into its payout: the payout records the contribution (its receipt item, spec §2.4)
 * and completes once its matched payments have paid its whole amount.
 */
function fillPayout(ctx: DomainContext, payment: OperationRecord, actual: Decimal): StateChange[] {
  const payout = ctx.state.operation(payment.claim!.payout_id);
  if (!payout || payout.status !== 'pending' || !payout.pool_id) return [];
  const now = iso(ctx.now);
  const upload = [...(payment.uploads ?? [])].reverse().find((u) => u.review.to !== 'rejected');
  const contribution: Contribution = {
    payment_id: payment.id,
    amount: toScale2(actual),
    completed_at: now,
    ...(upload ? { file_id: upload.file_id } : {}),
  };
  const filled = { ...payout, contributions: [...(payout.contributions ?? []), contribution], updated_at: now } as OperationRecord;
  const paid = ctx.state.poolUsage(payout.id).paid.plus(actual);
  if (paid.lessThan(money(payout.expected_amount))) return [{ kind: 'operation', op: filled }];
  return settlePayout(ctx, filled, 'completed', 'filled by matched payments').changes;
}

/** A payout settles: completed consumes the reserve (amount out, commission to fees); failed returns it. */
export function settlePayout(ctx: DomainContext, op: OperationRecord, outcome: 'completed' | 'failed', cause: string): Moved {
  if (op.type !== 'payout') throw new DomainError('invalid_state', 'only payouts settle');
  const now = iso(ctx.now);
  const cur = op.settlement_currency;
  const reserved = money(op.settlement_amount);
  if (outcome === 'failed') {
    const moved = move(op, 'rejected', now, cause, { rejected_at: now, reject_reason: 'payout_failed' });
    return {
      op: moved.op,
      changes: changesOf(moved, [
        { kind: 'posting', posting: posting(`${op.id}:release`, op.shop_id, op.id, 'payout_released', accounts.reserved(op.shop_id), accounts.balance(op.shop_id), cur, reserved, now) },
      ]),
    };
  }
  const commission = money(op.commission_amount);
  const moved = move(op, 'completed', now, cause, { completed_at: now, actual_amount: op.expected_amount });
  const postings: StateChange[] = [
    { kind: 'posting', posting: posting(`${op.id}:payout`, op.shop_id, op.id, 'payout_settled', accounts.reserved(op.shop_id), accounts.payouts, cur, reserved.minus(commission), now) },
  ];
  if (commission.greaterThan(0)) {
    postings.push({ kind: 'posting', posting: posting(`${op.id}:fee`, op.shop_id, op.id, 'payout_commission', accounts.reserved(op.shop_id), accounts.fees, cur, commission, now) });
  }
  return { op: moved.op, changes: changesOf(moved, postings) };
}

/** Opening balances of a shop, as postings (written once, when the store is first seeded). */
export function openingPostings(shopId: string, balances: Record<string, string>, at: string): StateChange[] {
  return Object.entries(balances)
    .filter(([, amount]) => !money(amount).isZero())
    .map(([currency, amount]) => {
      const a = money(amount);
      const [src, dst] = a.isNegative() ? [accounts.balance(shopId), accounts.opening] : [accounts.opening, accounts.balance(shopId)];
      return { kind: 'posting' as const, posting: posting(`opening:${shopId}:${currency}`, shopId, null, 'opening_balance', src, dst, currency, a.abs(), at) };
    });
}
