// docs/state-machine.md: a reviewer's approval completes a payment under manual check "for the receipt's amount
// unless the reviewer names one". The automatic check used to drop the amount it read, so an approval without an
// amount completed a 1,499.00 receipt for the expected 1,500.00.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEY_A, harness, paymentBody, type Harness } from '../helpers/harness.js';

const receipt = (name: string) => readFileSync(new URL(`../../fixtures/receipts/${name}`, import.meta.url));

describe('a reviewer approves a receipt that shows another amount', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness('in-process', { frozenClock: true });
  });
  afterEach(() => h.close());

  async function underReview(): Promise<string> {
    const id = (
      (await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'payer+receipt', amount: '1500.00' }) }))
        .body as { operation_id: string }
    ).operation_id;
    const form = new FormData();
    form.set('operation_id', id);
    form.set('confirmation_type', 'receipt');
    form.set('receipt', new Blob([receipt('mismatch-1499.pdf')], { type: 'application/pdf' }), 'r.pdf');
    const up = await h.sandbox.fetch(
      new Request('http://paygate.local/v1/confirm_payment', {
        method: 'POST',
        headers: { 'x-api-key': KEY_A },
        body: form,
      }),
    );
    expect(((await up.json()) as { status: string }).status).toBe('manual_check');
    return id;
  }

  it('without naming an amount: completed for the receipt’s 1,499.00, re-priced', async () => {
    const id = await underReview();
    const r = await h.call('POST', `/sandbox/operations/${id}/review`, { body: { decision: 'approve' } });
    expect(r.body).toMatchObject({ status: 'completed', expected_amount: '1500.00', actual_amount: '1499.00' });
  });

  it('naming an amount: that amount wins', async () => {
    const id = await underReview();
    const r = await h.call('POST', `/sandbox/operations/${id}/review`, {
      body: { decision: 'approve', amount: '1500.00' },
    });
    expect(r.body).toMatchObject({ status: 'completed', actual_amount: '1500.00' });
  });
});
