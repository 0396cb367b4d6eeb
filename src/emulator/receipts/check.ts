// The automatic receipt check shared by POST /v1/confirm_payment and the hosted page: inspect the file, then
// apply the review rules. The PDF parser is heavy, so it is loaded on the first upload, not at start-up.
import type { ReviewVerdict } from '../../domain/commands.js';

export function receiptCheck(file: Uint8Array): (expectedAmount: string) => Promise<ReviewVerdict> {
  return async (expected) => {
    const [{ inspectReceipt }, { reviewReceipt }] = await Promise.all([import('./inspect.js'), import('../../domain/receipt-review.js')]);
    const r = reviewReceipt(await inspectReceipt(file), { amount: expected });
    return r.to === 'completed' ? { to: 'completed', amount: r.amount, rule: r.rule } : { to: 'manual_check', reason: r.reason, rule: r.rule };
  };
}
