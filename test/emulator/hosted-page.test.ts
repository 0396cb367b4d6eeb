// The hosted payment page: amount and requisites, receipt upload with the confirm_payment checks, and the payer's
// outcomes (paid, under review, declined, expired). Every state and rule in detail: test/pages/.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { KEY_B, paymentBody } from '../helpers/harness.js';
import { describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';

const sample = (name: string) => readFileSync(new URL(`../../fixtures/receipts/${name}`, import.meta.url));

describeTransports('hosted page', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, startTime: '2026-07-01T10:00:00Z', adminToken: 'adm' });

  const link = async (over: Record<string, unknown> = {}, key?: string) =>
    (await h.call('POST', '/v1/payment/link', { body: paymentBody(over), ...(key ? { key } : {}) })).body;
  const open = (url: string) => h.call('GET', new URL(url).pathname, { key: null });
  const upload = async (url: string, file: Uint8Array) => {
    const form = new FormData();
    form.set('receipt', new Blob([file], { type: 'application/pdf' }), 'r.pdf');
    const req = new Request('http://x/', { method: 'POST', body: form });
    return h.call('POST', `${new URL(url).pathname}/receipt`, {
      raw: new Uint8Array(await req.arrayBuffer()),
      key: null,
      headers: { 'content-type': req.headers.get('content-type')! },
    });
  };

  it('shows the amount and requisites of a pending payment, then Paid once paid', async () => {
    const op = await link({ amount: '1500.00' });
    const page = await open(op.payment_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('₽1,500.00');
    expect(page.text).toContain(op.number);
    expect(page.text).toContain('data-state="waiting"');
    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
    expect((await open(op.payment_url)).text).toContain('data-state="paid"');
  });

  it('accepts a PDF receipt on a receipt route and runs the confirm_payment checks', async () => {
    const ok = await link({ client_id: 'p+receipt' });
    expect((await open(ok.payment_url)).text).toContain('type="file"');
    const r = await upload(ok.payment_url, sample('ok-1500.pdf'));
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(ok.payment_url);
    expect(
      (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: ok.operation_id } })).body.status,
    ).toBe('completed');
    const fake = await link({ client_id: 'q+receipt' });
    await upload(fake.payment_url, sample('fake-photoshop.pdf'));
    expect((await open(fake.payment_url)).text).toContain('data-state="review"');
    const again = await upload(ok.payment_url, sample('ok-1500.pdf'));
    expect(again.status).toBe(409);
  });

  it('shows Expired and Declined, and 404 for unknown payments or shops without the page', async () => {
    const op = await link();
    await h.call('POST', '/sandbox/clock/advance', {
      body: { by: '30m' },
      key: null,
      headers: { 'x-admin-token': 'adm' },
    });
    expect((await open(op.payment_url)).text).toContain('data-state="expired"');
    const c = await link();
    await h.call('POST', '/v1/cancel_operation', { body: { operation_id: c.operation_id } });
    expect((await open(c.payment_url)).text).toContain('data-state="cancelled"');
    expect((await h.call('GET', '/pay/00000000-0000-4000-8000-000000000000', { key: null })).status).toBe(404);
    const b = await link({}, KEY_B);
    expect(b.payment_url).toBeNull();
    expect((await h.call('GET', `/pay/${b.operation_id}`, { key: null })).status).toBe(404);
  });
});
