// /pay/<id> was served for every payment of a shop with the hosted page, including payments created
// with POST /v1/payment, which never return a payment_url — and their id is a name-based UUID anyone can compute.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, paymentBody, type Harness } from '../helpers/harness.js';

describe('the hosted page exists only for payments created through a link endpoint', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness('in-process', { frozenClock: true });
  });
  afterEach(() => h.close());

  const page = async (id: string) => (await h.sandbox.fetch(new Request(`http://paygate.local/pay/${id}`))).status;
  const upload = async (id: string) => {
    const form = new FormData();
    form.set('receipt', new Blob([new TextEncoder().encode('%PDF-1.4')], { type: 'application/pdf' }), 'r.pdf');
    return (
      await h.sandbox.fetch(new Request(`http://paygate.local/pay/${id}/receipt`, { method: 'POST', body: form }))
    ).status;
  };

  it('POST /v1/payment: no page (404), and no upload through it', async () => {
    const op = (await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'payer+receipt' }) })).body as {
      operation_id: string;
      status: string;
    };
    expect(op.status).toBe('awaiting_confirmation');
    expect(await page(op.operation_id)).toBe(404);
    expect(await upload(op.operation_id)).toBe(404);
    const state = (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: op.operation_id } }))
      .body as { status: string };
    expect(state.status).toBe('awaiting_confirmation');
  });

  it('POST /v1/payment/link: the page of its payment_url answers 200', async () => {
    const op = (await h.call('POST', '/v1/payment/link', { body: paymentBody() })).body as {
      operation_id: string;
      payment_url: string;
    };
    expect(op.payment_url).toMatch(new RegExp(`/pay/${op.operation_id}$`));
    expect(await page(op.operation_id)).toBe(200);
  });

  it('the same merchant_operation_id created first by /v1/payment and then asked of /v1/payment/link has no page', async () => {
    const body = paymentBody();
    const first = (await h.call('POST', '/v1/payment', { body })).body as { operation_id: string };
    const again = (await h.call('POST', '/v1/payment/link', { body })).body as {
      operation_id: string;
      payment_url: string | null;
    };
    expect(again.operation_id).toBe(first.operation_id);
    expect(again.payment_url).toBeNull();
    expect(await page(first.operation_id)).toBe(404);
  });
});
