// Owns the operations the dashboard's browser tests and screenshots look at: a few of every kind a support
// engineer meets — paid, paid another amount, waiting, cancelled, a receipt under review, payouts settled and
// failed — in shops A and B, with webhook deliveries to a port nobody listens on (failed attempts to show).
import { fileURLToPath } from 'node:url';
import { KEY_B, paymentBody, payoutBody } from '../helpers/harness.js';
import type { SandboxUnderTest } from '../helpers/sandbox.js';

type Create = Parameters<SandboxUnderTest['client']['payments']['create']>[0];
export const pay = (over: Record<string, unknown> = {}) => paymentBody(over) as Create;
const receipt = (name: string) => fileURLToPath(new URL(`../../fixtures/receipts/${name}`, import.meta.url));

export interface Seeded {
  completed: string;
  pending: string;
  review: string;
  payout: string;
}

export async function seed(h: SandboxUnderTest): Promise<Seeded> {
  const a = h.client;
  const b = h.make({ apiKey: KEY_B });
  const completed = await a.payments.create(pay({ merchant_operation_id: 'order-1001', amount: '1500.00' }));
  await a.sandbox.operations.pay({ operation_id: completed.operation_id });
  const other = await a.payments.create(pay({ merchant_operation_id: 'order-1002', amount: '2000.00' }));
  await a.sandbox.operations.pay({ operation_id: other.operation_id }, { amount: '1950.00' });
  const cancelled = await b.payments.create(pay({ merchant_operation_id: 'b-2001', amount: '300.00' }));
  await b.operations.cancel({ operation_id: cancelled.operation_id });
  const review = await a.payments.create(pay({ merchant_operation_id: 'order-1003', method: 'WT_RUB_PHONE' }));
  await a.payments.confirm({ operation_id: review.operation_id, receipt: receipt('mismatch-1499.pdf') });
  const payout = await a.payouts.create(payoutBody({ merchant_operation_id: 'payout-501', amount: '800.00' }) as never);
  const failed = await a.payouts.create(payoutBody({ merchant_operation_id: 'payout-502', amount: '120.00' }) as never);
  await a.sandbox.operations.settle({ operation_id: failed.operation_id }, 'failed');
  await b.payments.create(pay({ merchant_operation_id: 'b-2002', amount: '4500.00', client_id: 'client-7' }));
  const pending = await a.payments.create(pay({ merchant_operation_id: 'order-1004', amount: '990.00' }));
  await h.sandbox.webhooks.idle();
  return {
    completed: completed.operation_id,
    pending: pending.operation_id,
    review: review.operation_id,
    payout: payout.operation_id,
  };
}
