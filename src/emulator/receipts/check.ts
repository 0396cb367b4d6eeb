// The automatic receipt check shared by POST /v1/confirm_payment and the hosted page: inspect the file, then
// apply the review rules. The PDF parser is heavy, so it is loaded on the first upload, not at start-up. The
// inspection runs when the upload's place in the receipt-check queue (queue.ts) gets a worker.
import type { ReviewVerdict } from '../../domain/commands.js';
import { money, toScale2 } from '../../domain/money.js';
import type { ReceiptCheckTicket } from './queue.js';

export function receiptCheck(
  file: Uint8Array,
  ticket: ReceiptCheckTicket,
): (expectedAmount: string) => Promise<ReviewVerdict> {
  return async (expected) => {
    const [{ inspectReceipt }, { reviewReceipt }] = await Promise.all([
      import('./inspect.js'),
      import('../../domain/receipt-review.js'),
    ]);
    const facts = await ticket.run(() => inspectReceipt(file));
    const r = reviewReceipt(facts, { amount: expected });
    if (r.to === 'completed') return { to: 'completed', amount: r.amount, rule: r.rule };
    // A receipt that shows one other amount: that is what a reviewer's approval completes the payment for, unless the
    // reviewer names an amount (docs/state-machine.md). Zero amounts (a fee line) do not count; several different
    // positive amounts leave it to the reviewer.
    const shown = [...new Set(facts.amounts.filter((a) => money(a).greaterThan(0)).map((a) => toScale2(a)))];
    const amount = r.rule === 'amount_differs' && shown.length === 1 ? shown[0] : undefined;
    return { to: 'manual_check', reason: r.reason, rule: r.rule, ...(amount ? { amount } : {}) };
  };
}
