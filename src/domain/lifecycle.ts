// Moves after creation that touch money: payment completion (credit net of commission), payout settlement
// (reserve consumed) and payout failure (reserve returned). Cancelled or rejected operations move nothing.
import { claimOf, contributionsOf, poolOf, uploadsOf } from './operation.js';
import type { Decimal } from 'decimal.js';
import type { Contribution, OperationRecord } from './operation.js';
import type { DomainContext, StateChange } from './state.js';
import { DomainError } from './errors.js';
import { accounts, posting, type PostingKind } from './ledger.js';
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
export function movedTo(
  ctx: Pick<DomainContext, 'world'>,
  op: OperationRecord,
  changes: StateChange[],
  extra?: Effect[],
): Moved {
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
  const tier =
    tierFor(ctx.world.pricingFor(op.shop_id, op.method, 'payin'), actual) ??
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
    postings.push({
      kind: 'posting',
      posting: posting({
        id: `${op.id}:settle`,
        shopId: op.shop_id,
        operationId: op.id,
        kind: 'payment_settled',
        source: accounts.payins,
        destination: accounts.balance(op.shop_id),
        currency: cur,
        amount: settlement,
        at: now,
      }),
    });
  }
  if (commission.greaterThan(0)) {
    postings.push({
      kind: 'posting',
      posting: posting({
        id: `${op.id}:fee`,
        shopId: op.shop_id,
        operationId: op.id,
        kind: 'payment_commission',
        source: accounts.payins,
        destination: accounts.fees,
        currency: cur,
        amount: commission,
        at: now,
      }),
    });
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
    next = {
      ...payout,
      actual_amount: toScale2(total),
      contributions: [...contributionsOf(payout), contribution],
      updated_at: now,
    } as OperationRecord;
  }
  if (open.greaterThan(0) || total.lessThan(money(payout.expected_amount)))
    return next === payout ? [] : [{ kind: 'operation', op: next }];
  return settlePayout(ctx, next, 'completed', 'filled by matched payments', total).changes;
}

/**
 * The commission of a pool payout that completes for `actual` (request currency; `gross` in the ledger currency):
 * re-priced on the captured amount, as a payment's is, with the tier of `actual` (else the tier of the expected
 * amount, else the commission it was created with).
 */
function payoutCommission(ctx: DomainContext, op: OperationRecord, actual: Decimal, gross: Decimal): Decimal {
  const pricing = ctx.world.pricingFor(op.shop_id, op.method, 'payout');
  const tier = tierFor(pricing, actual) ?? tierFor(pricing, money(op.expected_amount));
  return tier ? commissionOn(gross, tier) : money(op.commission_amount);
}

/**
 * A payout settles: completed consumes the reserve (amount out, commission to fees); failed returns it. A pool
 * payout completes for what its matched payments paid (`paid`), its commission re-priced on that: the reserve pays
 * the commission first, then the amount out; more than the reserve holds comes from the balance, an unused rest of
 * the reserve returns to it.
 */
export function settlePayout(
  ctx: DomainContext,
  op: OperationRecord,
  outcome: 'completed' | 'failed',
  cause: string,
  paid?: Decimal,
): Moved {
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
        {
          kind: 'posting',
          posting: posting({
            id: `${op.id}:release`,
            shopId: op.shop_id,
            operationId: op.id,
            kind: 'payout_released',
            source: accounts.reserved(op.shop_id),
            destination: accounts.balance(op.shop_id),
            currency: cur,
            amount: reserved,
            at: now,
          }),
        },
      ]),
    );
  }
  const actual = paid ?? money(op.expected_amount);
  const out = paid === undefined ? reserved.minus(money(op.commission_amount)) : converted(actual, op.conversion);
  const commission = paid === undefined ? money(op.commission_amount) : payoutCommission(ctx, op, actual, out);
  const moved = move(op, 'completed', now, cause, {
    completed_at: now,
    actual_amount: toScale2(actual),
    commission_amount: toScale2(commission),
    settlement_amount: toScale2(out.plus(commission)),
  });
  const feeFromReserve = commission.lessThan(reserved) ? commission : reserved;
  const left = reserved.minus(feeFromReserve);
  const outFromReserve = out.lessThan(left) ? out : left;
  const shop = op.shop_id;
  const postings: StateChange[] = [];
  const add = (suffix: string, kind: PostingKind, source: string, destination: string, amount: Decimal) => {
    if (amount.greaterThan(0)) {
      postings.push({
        kind: 'posting',
        posting: posting({
          id: `${op.id}:${suffix}`,
          shopId: shop,
          operationId: op.id,
          kind,
          source,
          destination,
          currency: cur,
          amount,
          at: now,
        }),
      });
    }
  };
  add('payout', 'payout_settled', accounts.reserved(shop), accounts.payouts, outFromReserve);
  // Payers sent the recipient more than the reserve covers: the shop is charged what was actually paid out.
  add('payout-excess', 'payout_settled', accounts.balance(shop), accounts.payouts, out.minus(outFromReserve));
  // Closed short: the unused rest of the reserve returns to the balance.
  add('release', 'payout_released', accounts.reserved(shop), accounts.balance(shop), left.minus(outFromReserve));
  add('fee', 'payout_commission', accounts.reserved(shop), accounts.fees, feeFromReserve);
  add('fee-excess', 'payout_commission', accounts.balance(shop), accounts.fees, commission.minus(feeFromReserve));
  return movedTo(ctx, moved.op, changesOf(moved, postings));
}

/** Opening balances of a shop, as postings (written once, when the store is first seeded). */
export function openingPostings(shopId: string, balances: Record<string, string>, at: string): StateChange[] {
  return Object.entries(balances)
    .filter(([, amount]) => !money(amount).isZero())
    .map(([currency, amount]) => {
      const a = money(amount);
      const [src, dst] = a.isNegative()
        ? [accounts.balance(shopId), accounts.opening]
        : [accounts.opening, accounts.balance(shopId)];
      return {
        kind: 'posting' as const,
        posting: posting({
          id: `opening:${shopId}:${currency}`,
          shopId,
          operationId: null,
          kind: 'opening_balance',
          source: src,
          destination: dst,
          currency,
          amount: a.abs(),
          at,
        }),
      };
    });
}
