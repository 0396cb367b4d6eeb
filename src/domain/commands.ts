// The commands that move an operation after creation — cancel (spec §4.7), a payer's transfer, a receipt
// upload and its review, a reviewer's decision, expiry, a provider's settlement. Each asks the state table first
// whether it applies (nextStatus); the table's refusal code is thrown with a message that says what to do instead.
import { poolOf, uploadsOf } from './operation.js';
import type { OperationRecord, ReceiptUpload } from './operation.js';
import type { DomainContext, StateChange } from './state.js';
import { DomainError } from './errors.js';
import { claimEnded, completePayment, movedTo, settlePayout, type Moved } from './lifecycle.js';
import { money, toScale2, ZERO } from './money.js';
import { move } from './transitions.js';
import { cellOf, nextStatus } from './state-table.js';
import { iso } from './state.js';

export type CancelOutcome = 'cancelled' | 'already_terminal';

function changes(moved: { op: OperationRecord; event: unknown }): StateChange[] {
  const out: StateChange[] = [{ kind: 'operation', op: moved.op }];
  if (moved.event) out.push({ kind: 'event', event: moved.event as never });
  return out;
}

/** A matched payment ended without money: its claim is released, which may let its pool payout complete. */
function endedWithoutMoney(ctx: DomainContext, moved: { op: OperationRecord; event: unknown }): StateChange[] {
  return changes(moved).concat(claimEnded(ctx, moved.op, ZERO));
}

/**
 * Cancel a payment (spec §4.7). `byMerchantId` says how it was identified: only then may it win against a
 * create still waiting for acceptance (rule 5). Repeating a cancel returns the same decision (rule 3).
 */
export function cancel(
  ctx: DomainContext,
  op: OperationRecord,
  reason: string,
  byMerchantId: boolean,
): { outcome: CancelOutcome; moved?: Moved } {
  // By operation_id a create still in flight does not exist yet (rule 5): the table refuses it as not found.
  const to = nextStatus(op, byMerchantId ? 'cancel' : 'cancel_by_id', () =>
    op.status === 'admitting'
      ? 'operation not found'
      : op.type === 'payout'
        ? 'payouts cannot be cancelled; only payments can'
        : 'the payment is under receipt review (manual_check) and cannot be cancelled now; wait for the review',
  );
  if (to === '=') return { outcome: op.status === 'cancelled' ? 'cancelled' : 'already_terminal' };
  const now = iso(ctx.now);
  const text = reason === '' ? 'cancel' : reason;
  // A create that loses the race never shows requisites (rule 6): there are none yet to strip.
  const moved = move(op, 'cancelled', now, `cancel: ${text}`, { cancelled_at: now, cancel_reason: text });
  // An open create that lost the race is released at once and completes as a cancelled payment (rule 6).
  const release = op.status === 'admitting' ? [{ kind: 'resolve_admission' as const, operation_id: op.id }] : [];
  return { outcome: 'cancelled', moved: movedTo(ctx, moved.op, endedWithoutMoney(ctx, moved), release) };
}

/** The payer transfers `amount` to the requisites of a pending payment: it completes for that amount. */
export function payerPays(ctx: DomainContext, op: OperationRecord, amount: string | undefined): Moved {
  nextStatus(op, 'pay', () =>
    op.type !== 'payment'
      ? 'payers pay payments, not payouts'
      : op.status === 'awaiting_confirmation'
        ? 'this payment completes through its receipt: upload one with confirm_payment'
        : `a payment in status ${op.status} cannot receive a transfer`,
  );
  const paid = amount ?? op.expected_amount;
  if (!money(paid).greaterThan(0)) throw new DomainError('validation_error', 'amount must be greater than 0', 'amount');
  return completePayment(ctx, op, toScale2(paid), `payer transferred ${toScale2(paid)} ${op.currency}`);
}

export interface ReviewVerdict {
  to: 'completed' | 'manual_check';
  reason?: 'potential_fake' | 'not_terminal' | null;
  amount?: string;
  rule: string;
}

/** A receipt was uploaded for a payment awaiting confirmation; the automatic check's verdict decides the move. */
/** Whether `op` takes a receipt now (before its file is checked and stored); throws the refusal otherwise. */
export function acceptsReceipt(op: OperationRecord): void {
  nextStatus(
    op,
    'receipt_ok',
    () =>
      `only payments awaiting confirmation accept a receipt (this one is ${op.type === 'payment' ? op.status : 'a payout'})`,
  );
}

export function receiptUploaded(
  ctx: DomainContext,
  op: OperationRecord,
  upload: Omit<ReceiptUpload, 'review'>,
  verdict: ReviewVerdict,
): Moved {
  acceptsReceipt(op);
  const record: ReceiptUpload = {
    ...upload,
    review: {
      rule: verdict.rule,
      to: verdict.to,
      ...(verdict.to === 'manual_check' ? { reason: verdict.reason ?? null } : {}),
    },
    ...(verdict.amount ? { amount: verdict.amount } : {}),
  };
  const withUpload = { ...op, uploads: [...uploadsOf(op), record] } as OperationRecord;
  if (verdict.to === 'completed') {
    return completePayment(ctx, withUpload, verdict.amount ?? op.expected_amount, `receipt accepted (${verdict.rule})`);
  }
  const now = iso(ctx.now);
  const moved = move(withUpload, 'manual_check', now, `receipt needs review (${verdict.rule})`, {
    manual_check_reason: verdict.reason ?? null,
  });
  return movedTo(ctx, moved.op, changes(moved));
}

/** A reviewer decides a payment under manual check: approve completes it (for `amount` if given), decline rejects it. */
export function reviewerDecides(
  ctx: DomainContext,
  op: OperationRecord,
  decision: 'approve' | 'decline',
  amount?: string,
): Moved {
  nextStatus(op, decision, () => `only payments in manual_check can be reviewed (this one is ${op.status})`);
  if (decision === 'approve') {
    const last = uploadsOf(op).at(-1);
    return completePayment(
      ctx,
      op,
      toScale2(amount ?? last?.amount ?? op.expected_amount),
      'reviewer approved the receipt',
    );
  }
  const now = iso(ctx.now);
  const moved = move(op, 'rejected', now, 'reviewer declined the receipt', {
    rejected_at: now,
    reject_reason: 'receipt_declined',
  });
  return movedTo(ctx, moved.op, endedWithoutMoney(ctx, moved));
}

/** The provider's timing window passed with no money: the payment is rejected as expired. No-op otherwise. */
export function expire(ctx: DomainContext, op: OperationRecord): Moved | undefined {
  if (op.type !== 'payment' || !op.expires_at || cellOf(op, 'expire') === '=') return undefined;
  if (Date.parse(op.expires_at) > ctx.now) return undefined;
  const now = iso(ctx.now);
  const moved = move(op, 'rejected', now, 'expired: the provider window closed with no transfer', {
    rejected_at: now,
    reject_reason: 'expired',
  });
  return movedTo(ctx, moved.op, endedWithoutMoney(ctx, moved));
}

/** The provider completes or fails a pending payout (sandbox control, or its own settlement delay). */
export function providerSettles(ctx: DomainContext, op: OperationRecord, outcome: 'completed' | 'failed'): Moved {
  nextStatus(op, outcome === 'completed' ? 'settle_completed' : 'settle_failed', () =>
    op.type !== 'payout'
      ? 'only payouts are settled by the provider'
      : `a payout in status ${op.status} cannot be settled`,
  );
  if (poolOf(op)) {
    // A pool payout completes when matched payments fill it. The provider can fail one nobody has paid into, and
    // close one that payers filled only in part (an underpaid remainder nobody can match): it completes for what
    // was paid and the rest of the reserve returns. Neither while a matched payment is still open.
    const usage = ctx.state.poolUsage(op.id);
    if (usage.claimed.greaterThan(0)) {
      throw new DomainError(
        'invalid_state',
        'matched payments are still open on this pool payout; pay, cancel or let them expire first',
      );
    }
    if (usage.paid.greaterThan(0))
      return settlePayout(
        ctx,
        op,
        'completed',
        'provider closed the payout short: completed for what matched payments paid',
        usage.paid,
      );
    if (outcome === 'completed') {
      throw new DomainError(
        'invalid_state',
        'a pool payout completes when matched payments fill it: pay its payments (paygate sandbox pay) instead',
      );
    }
  }
  return settlePayout(
    ctx,
    op,
    outcome,
    outcome === 'failed' ? 'provider failed the payout' : 'provider settled the payout',
  );
}
