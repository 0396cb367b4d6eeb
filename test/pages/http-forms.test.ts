// The hosted page's two forms over HTTP, no browser. The receipt upload: the confirm_payment checks plus the page's
// own (a PDF only, 10 MiB, from the page's origin only), refusals answered with the page and a reason in the
// payer's words, nothing stored. The flexible-link picker (spec §4.3 rules 5–7): created, taken-and-pick-again,
// expired, out of bounds, and the single amount field of rule 7.
import { describe, expect, it } from 'vitest';
import { RECEIPT_LIMIT } from '../../src/emulator/context.js';
import { receiptChecksOf } from '../../src/emulator/receipts/queue.js';
import { KEY_POOL, paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { receiptForm, ROOT, sample } from './helpers.js';

const ADMIN = { key: null, headers: { 'x-admin-token': 'adm' } };
const KEY_FIELD = 'pg_test_field_4Hs8Kq1WzN6bVt3P';

describe('the receipt upload of the page', () => {
  const h = useSandbox({ frozenClock: true, startTime: '2026-07-01T10:00:00Z', adminToken: 'adm' });
  const link = async (over: Record<string, unknown> = {}) =>
    (await h.call('POST', '/v1/payment/link', { body: paymentBody({ client_id: 'p+receipt', ...over }) })).body;
  const upload = async (
    url: string,
    file: Uint8Array,
    opts: { name?: string; type?: string; headers?: Record<string, string> } = {},
  ) => {
    const form = await receiptForm(file, opts.name, opts.type);
    return h.call('POST', `${new URL(url).pathname}/receipt?lang=en`, {
      key: null,
      raw: form.body,
      headers: { 'content-type': form.contentType, ...opts.headers },
    });
  };
  const state = async (id: string) =>
    (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: id } })).body.status;
  const uploads = async (id: string) => (await h.call('GET', `/sandbox/operations/${id}`, {})).body.uploads.length;

  it('a matching PDF receipt completes the payment, and the page says Paid', async () => {
    const op = await link();
    const r = await upload(op.payment_url, sample('ok-1500.pdf'), {
      headers: { origin: 'http://paygate.local', 'sec-fetch-site': 'same-origin' },
    });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`${op.payment_url}?lang=en`);
    expect(await state(op.operation_id)).toBe('completed');
    const back = new URL(r.headers.get('location')!);
    expect((await h.call('GET', back.pathname + back.search, { key: null })).text).toContain('data-state="paid"');
  });

  it('refuses what is not a PDF (whatever it is called), an empty file, a payment that takes no receipt; nothing is stored', async () => {
    const op = await link();
    const png = await upload(op.payment_url, sample('not-a-pdf.png'), { name: 'receipt.pdf', type: 'application/pdf' });
    expect(png.status).toBe(415);
    expect(png.text).toContain('data-state="upload"');
    expect(png.text).toContain('This file is not a PDF.');
    expect(png.text).toContain('aria-invalid="true"');
    const empty = await upload(op.payment_url, new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Choose the receipt file first.');
    expect(await state(op.operation_id)).toBe('awaiting_confirmation');
    expect(await uploads(op.operation_id)).toBe(0);
    const pending = await link({ client_id: 'nobody' });
    const r = await upload(pending.payment_url, sample('ok-1500.pdf'));
    expect(r.status).toBe(409);
    expect(r.text).toContain('This payment does not take a receipt any more.');
  });

  it('refuses a file over 10 MiB with the page and its reason', async () => {
    const op = await link();
    const big = new Uint8Array(RECEIPT_LIMIT + 1);
    big.set(new TextEncoder().encode('%PDF-1.4'));
    const r = await upload(op.payment_url, big);
    expect(r.status).toBe(413);
    expect(r.text).toContain('The file is larger than 10 MB.');
    expect(await uploads(op.operation_id)).toBe(0);
  });

  it('refuses a POST another site made a browser send (CSRF), before reading it', async () => {
    const op = await link();
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://sub.paygate.local' },
    ];
    for (const headers of attempts) {
      const r = await upload(op.payment_url, sample('ok-1500.pdf'), { headers });
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.text).toContain('must be sent from this payment’s own page');
    }
    expect(await state(op.operation_id)).toBe('awaiting_confirmation');
  });

  it('a full receipt-check queue answers 429 with Retry-After and says to try again', async () => {
    const op = await link();
    const queue = receiptChecksOf(h.sandbox.service);
    const held = Array.from({ length: queue.limits.perShop }, () => queue.admit('shop_a'));
    try {
      const r = await upload(op.payment_url, sample('ok-1500.pdf'));
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe(String(queue.limits.retryAfterS));
      expect(r.text).toContain('Try again in a few seconds.');
    } finally {
      for (const t of held) t.release();
    }
  });

  it('404 for a page that is not there; a GET of the form address goes back to the page', async () => {
    const r = await upload('http://x/pay/00000000-0000-4000-8000-000000000000', sample('ok-1500.pdf'));
    expect(r.status).toBe(404);
    const op = await link();
    const back = await h.call('GET', `/pay/${op.operation_id}/receipt?lang=ru`, { key: null });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${op.payment_url}?lang=ru`);
  });
});

describe('the flexible-link picker', () => {
  const h = useSandbox({ frozenClock: true, startTime: '2026-07-01T10:00:00Z', adminToken: 'adm' });
  const layout = (amounts: string[], key = KEY_POOL) =>
    h.call('POST', '/sandbox/pool/layout', { key, body: { method: 'WT_RUB_C2C', amounts } });
  const flexible = async (over: Record<string, unknown>, key = KEY_POOL) =>
    (
      await h.call('POST', '/v1/payment/link/flexible', {
        key,
        body: {
          merchant_operation_id: `f-${Math.random()}`,
          client_id: 'p1',
          method: 'WT_RUB_C2C',
          currency: 'RUB',
          ...over,
        },
      })
    ).body;
  const choose = (url: string, amount: string, headers: Record<string, string> = {}) => {
    const u = new URL(url);
    return h.call('POST', `${u.pathname}/amount${u.search}&lang=en`, {
      key: null,
      raw: new URLSearchParams({ amount }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  };
  const open = (url: string) => h.call('GET', new URL(url).pathname + new URL(url).search, { key: null });
  const opState = async (id: string, key = KEY_POOL) =>
    (await h.call('POST', '/v1/get_operation_state', { key, body: { operation_id: id } })).body;

  it('lists the ranges the pool can take now; a chosen amount creates the payment and the page becomes its page (rules 5, 7)', async () => {
    await layout(['300.00', '1500.00', '25000.00']);
    const f = await flexible({ recommended_amount: '24800.00' });
    const page = (await open(f.payment_url)).text;
    expect(page).toContain('data-state="choose"');
    expect(page).toContain('name="amount" value="300.00"');
    expect(page).toContain('name="amount" value="25000.00"');
    expect(page).toContain('Amount from ₽500.00 to ₽24,500.00');
    const r = await choose(f.payment_url, '24 500,00');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`${f.payment_url}&lang=en`);
    const op = await opState(f.operation_id);
    expect(op).toMatchObject({ status: 'pending', expected_amount: '24500.00' });
    const after = (await open(f.payment_url)).text;
    expect(after).toContain('data-state="waiting"');
    expect(after).toContain('₽24,500.00');
    // Choosing again is the payment's page, not a second payment.
    expect((await choose(f.payment_url, '300.00')).status).toBe(303);
    expect((await opState(f.operation_id)).expected_amount).toBe('24500.00');
  });

  it('an amount taken meanwhile: nothing is created, the page shows the refreshed amounts, the payer picks again (rule 6)', async () => {
    await layout(['3000.00']);
    const f = await flexible({ recommended_amount: '2800.00', min_amount: '2600.00', max_amount: '3000.00' });
    expect((await open(f.payment_url)).text).toContain('value="3000.00"');
    await h.call('POST', '/v1/payment', { key: KEY_POOL, body: paymentBody({ amount: '3000.00' }) });
    await layout(['2700.00']);
    const r = await choose(f.payment_url, '3000.00');
    expect(r.status).toBe(409);
    expect(r.text).toContain('data-state="choose"');
    expect(r.text).toContain('That amount was just taken by another payment.');
    expect(r.text).not.toContain('value="3000.00"');
    expect(r.text).toContain('name="amount" value="2700.00"');
    expect(
      (await h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id: f.operation_id } }))
        .status,
    ).toBe(404);
    expect((await h.call('GET', `/sandbox/links/${f.operation_id}`, { key: KEY_POOL })).body.status).toBe(
      'amount_selection',
    );
    const again = await choose(f.payment_url, '2700.00');
    expect(again.status).toBe(303);
    expect(await opState(f.operation_id)).toMatchObject({ status: 'pending', expected_amount: '2700.00' });
  });

  it('the link expires: the page says so, a late choice creates nothing', async () => {
    await layout(['4000.00']);
    const f = await flexible({ recommended_amount: '3800.00', min_amount: '3600.00', max_amount: '4000.00' });
    await h.call('POST', '/sandbox/clock/advance', { body: { by: '15m' }, ...ADMIN });
    const page = (await open(f.payment_url)).text;
    expect(page).toContain('data-state="expired"');
    expect(page).toContain('The time to choose an amount has run out.');
    const r = await choose(f.payment_url, '4000.00');
    expect(r.status).toBe(410);
    expect(r.text).toContain('data-state="expired"');
    expect(
      (await h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id: f.operation_id } }))
        .status,
    ).toBe(404);
  });

  it('refuses what is not an amount, or out of bounds, with the page and its reason; and a cross-site choice', async () => {
    await layout(['300.00', '25000.00']);
    const f = await flexible({ recommended_amount: '24800.00', min_amount: '200.00', max_amount: '30000.00' });
    const nan = await choose(f.payment_url, 'lots');
    expect(nan.status).toBe(400);
    expect(nan.text).toContain('Enter the amount in roubles');
    const out = await choose(f.payment_url, '31000');
    expect(out.status).toBe(400);
    expect(out.text).toContain('Enter an amount from ₽200.00 to ₽30,000.00.');
    const csrf = await choose(f.payment_url, '300.00', { origin: 'https://evil.example' });
    expect(csrf.status).toBe(403);
    expect((await h.call('GET', `/sandbox/links/${f.operation_id}`, { key: KEY_POOL })).body.status).toBe(
      'amount_selection',
    );
    const noK = await h.call('POST', `/pay/${f.operation_id}/amount`, {
      key: null,
      raw: 'amount=300.00',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(noK.status).toBe(404);
  });

  describe('a shop configured for one amount field (rule 7)', () => {
    const f2 = useSandbox({ frozenClock: true, fixtures: `${ROOT}fixtures/picker-amount-field.json` });
    it('shows one field within the bounds and the nearest payable amounts, and takes an amount typed in it', async () => {
      await f2.call('POST', '/sandbox/pool/layout', {
        key: KEY_FIELD,
        body: { method: 'WT_RUB_C2C', amounts: ['1500.00', '8000.00'] },
      });
      const body = {
        merchant_operation_id: 'field-1',
        client_id: 'p1',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        recommended_amount: '7800.00',
        min_amount: '1000.00',
        max_amount: '9000.00',
      };
      const f = (await f2.call('POST', '/v1/payment/link/flexible', { key: KEY_FIELD, body })).body;
      const u = new URL(f.payment_url);
      const page = (await f2.call('GET', u.pathname + u.search, { key: null })).text;
      expect(page.match(/name="amount" type="text"/g)).toHaveLength(1);
      expect(page).toContain('Amount, from ₽1,000.00 to ₽9,000.00');
      expect(page).toContain('name="amount" value="8000.00"');
      expect(page).toContain('name="amount" value="7500.00"');
      const r = await f2.call('POST', `${u.pathname}/amount${u.search}`, {
        key: null,
        raw: 'amount=1200.50',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(r.status).toBe(303);
      expect(
        (await f2.call('POST', '/v1/get_operation_state', { key: KEY_FIELD, body: { operation_id: f.operation_id } }))
          .body.expected_amount,
      ).toBe('1200.50');
    });
  });
});
