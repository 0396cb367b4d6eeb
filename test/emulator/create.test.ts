// Creating payments, payouts and links; reading state and balances — every rule, in-process and over HTTP.
import { describe, expect, it } from 'vitest';
import { Operation, OperationState, BalancesResponse, LinkOperation } from '../../src/contract/index.js';
import { luhnCheckDigit } from '../../src/domain/requisites.js';
import { KEY_A, KEY_B, KEY_REVOKED, paymentBody, payoutBody, type Harness } from '../helpers/harness.js';
import { describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describeTransports('create and read', (transport) => {
  const h = useSandbox({ transport });

  const state = (ref: Record<string, string>, key = KEY_A) =>
    h.call('POST', '/v1/get_operation_state', { body: ref, key });
  const balances = async (key = KEY_A) => {
    const r = await h.call('GET', '/v1/balances', { key });
    expect(r.status).toBe(200);
    return Object.fromEntries(BalancesResponse.parse(r.body).balances.map((b) => [b.currency, b]));
  };

  it('creates a card payment: pending, requisites allocated, amounts at scale 2', async () => {
    const r = await h.call('POST', '/v1/payment', { body: paymentBody({ amount: '1500' }) });
    expect(r.status).toBe(200);
    const op = Operation.parse(r.body);
    expect(op.operation_id).toMatch(UUID);
    expect(op).toMatchObject({
      type: 'payment',
      status: 'pending',
      method: 'WT_RUB_C2C',
      expected_amount: '1500.00',
      actual_amount: '0.00',
      currency: 'RUB',
      commission_amount: '37.50',
      settlement_amount: '1462.50',
      settlement_currency: 'RUB',
    });
    expect(op.number).toMatch(/^220070\d{10}$/);
    expect(luhnCheckDigit(op.number!.slice(0, 15))).toBe(op.number!.slice(15));
    expect(op.name).toBeTruthy();
    expect(op.expires_at).toBeDefined();
    expect(r.body).not.toHaveProperty('payment_url');
    expect(r.body).not.toHaveProperty('recorded_amount');
    expect(r.body).not.toHaveProperty('recorded_currency');
    expect(r.body).not.toHaveProperty('fx_rate');
    expect(r.body).not.toHaveProperty('manual_check_reason');
    expect(r.text).not.toMatch(/sim_|r_a_|provider|route/);
  });

  it('ignores number, name and bankname on payments and allocates its own requisites', async () => {
    const r = await h.call('POST', '/v1/payment', {
      body: paymentBody({ number: '4111111111111111', name: 'Me', bankname: 'nope' }),
    });
    expect(r.status).toBe(200);
    expect(r.body.number).not.toBe('4111111111111111');
    expect(r.body.name).not.toBe('Me');
  });

  it('a phone payment on a receipt route awaits confirmation with a bank and its name', async () => {
    const r = await h.call('POST', '/v1/payment', { body: paymentBody({ method: 'WT_RUB_PHONE', amount: '2000.00' }) });
    expect(r.status).toBe(200);
    const op = Operation.parse(r.body);
    expect(op.status).toBe('awaiting_confirmation');
    expect(op.external_confirmation).toEqual({ required: true, methods: ['receipt'] });
    expect(op.number).toMatch(/^\+79\d{9}$/);
    expect(['sber', 'tcs', 'alfa']).toContain(op.bankname);
    expect(op.bankname_details).toMatch(/банк/i);
    expect(op.commission_amount).toBe('60.00');
  });

  it('the +receipt magic value forces a receipt requirement on any route', async () => {
    const r = await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'alice+receipt' }) });
    expect(r.body.status).toBe('awaiting_confirmation');
    expect(r.body.external_confirmation.required).toBe(true);
  });

  it('rejected payments carry no requisites and no synthetic pending', async () => {
    const r = await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'bob+reject' }) });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('rejected');
    expect(r.body).not.toHaveProperty('number');
    expect(r.body).not.toHaveProperty('expires_at');
    const below = await h.call('POST', '/v1/payment', { body: paymentBody({ amount: '50.00' }) });
    expect(below.body.status).toBe('rejected');
    const noRoute = await h.call('POST', '/v1/payment', { body: paymentBody({ method: 'WT_RUB_PHONE' }), key: KEY_B });
    expect(noRoute.body.status).toBe('rejected');
  });

  it('creates a card payout: name defaults to аноним, bankname ignored, reserve taken', async () => {
    const before = await balances();
    const r = await h.call('POST', '/v1/payout', { body: payoutBody({ amount: '1000.00', bankname: 'sber' }) });
    expect(r.status).toBe(200);
    const op = Operation.parse(r.body);
    expect(op).toMatchObject({
      type: 'payout',
      status: 'pending',
      number: '2200700000000004',
      name: 'аноним',
      commission_amount: '40.00',
      settlement_amount: '1040.00',
      settlement_currency: 'RUB',
    });
    expect(op.bankname).toBeUndefined();
    const after = await balances();
    expect(before.RUB).toEqual({ currency: 'RUB', balance: '1000000.00', current_minus: '0.00', reserved: '0.00' });
    expect(after.RUB).toEqual({ currency: 'RUB', balance: '998960.00', current_minus: '0.00', reserved: '1040.00' });
  });

  it('a phone payout keeps the bank code, adds its name and converts into USDT', async () => {
    const r = await h.call('POST', '/v1/payout', {
      body: payoutBody({
        method: 'WT_RUB_PHONE',
        number: '+79001234567',
        name: 'Иван',
        bankname: 'sber',
        amount: '1000.00',
      }),
    });
    expect(r.status).toBe(200);
    const op = Operation.parse(r.body);
    expect(op).toMatchObject({
      status: 'pending',
      bankname: 'sber',
      bankname_details: 'Сбербанк',
      name: 'Иван',
      fx_source: 'sandbox_fx',
      fx_rate: '10.80', // a quote: 1000.00 × 0.0108 (spec §2.3)
      settlement_currency: 'USDT',
      commission_amount: '0.61',
      settlement_amount: '11.41',
    });
    expect(r.body).not.toHaveProperty('recorded_amount');
    expect(r.body).not.toHaveProperty('recorded_currency');
    expect((await balances()).USDT).toEqual({
      currency: 'USDT',
      balance: '9988.59',
      current_minus: '0.00',
      reserved: '11.41',
    });
  });

  it('validates payout destinations', async () => {
    const noBank = await h.call('POST', '/v1/payout', {
      body: payoutBody({ method: 'WT_RUB_PHONE', number: '+79001234567' }),
    });
    expect(noBank.status).toBe(400);
    expect(noBank.body.code).toBe('bankname_required');
    const badBank = await h.call('POST', '/v1/payout', {
      body: payoutBody({ method: 'WT_RUB_PHONE', number: '+79001234567', bankname: 'chase' }),
    });
    expect(badBank.status).toBe(400);
    expect(badBank.body.code).toBe('unknown_bank');
    // The message lists the codes that would do.
    expect(badBank.body.message).toBe(
      'bankname chase is not in the RUB bank dictionary; the RUB banks are sber, tcs, alfa, vtb, raif, gazprom, ozon, psb, sovcom, mts',
    );
    const noNumber = await h.call('POST', '/v1/payout', { body: paymentBody() });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.code).toBe('number_required');
  });

  it('rejects a payout beyond balance plus overdraft, and moves no money', async () => {
    const r = await h.call('POST', '/v1/payout', { body: payoutBody({ amount: '300000.00' }), key: KEY_B });
    expect(r.body.status).toBe('rejected');
    expect((await balances(KEY_B)).RUB).toEqual({
      currency: 'RUB',
      balance: '250000.00',
      current_minus: '0.00',
      reserved: '0.00',
    });
  });

  it.each([
    [{ amount: 1500 }, 'amount'],
    [{ amount: '0.00' }, 'amount'],
    [{ amount: '-5.00' }, 'amount'],
    [{ amount: '1.234' }, 'amount'],
    [{ amount: '1e3' }, 'amount'],
    [{ amount: ' 10.00' }, 'amount'],
    [{ client_id: '' }, 'client_id'],
    [{ client_id: undefined }, 'client_id'],
    [{ merchant_operation_id: 7 }, 'merchant_operation_id'],
    [{ currency: 'rub' }, 'currency'],
    [{ method: undefined }, 'method'],
    [{ merchant_id: 'm_acme' }, 'merchant_id'],
    [{ shop_id: 'shop_a' }, 'shop_id'],
  ])('400 for %j naming %s, and nothing is stored', async (over, field) => {
    const body = paymentBody(over);
    const r = await h.call('POST', '/v1/payment', { body });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('validation_error');
    expect(r.body.message).toContain(field);
    if (typeof body.merchant_operation_id === 'string') {
      expect((await state({ merchant_operation_id: body.merchant_operation_id })).status).toBe(404);
    }
    expect(h.sandbox.store.state.operations.size).toBe(0);
  });

  it('400 for unknown methods and method/currency mismatches', async () => {
    const a = await h.call('POST', '/v1/payment', { body: paymentBody({ method: 'WT_EUR_SEPA' }) });
    expect([a.status, a.body.code]).toEqual([400, 'unknown_method']);
    const b = await h.call('POST', '/v1/payment', { body: paymentBody({ currency: 'USDT' }) });
    expect([b.status, b.body.code]).toEqual([400, 'method_currency_mismatch']);
    const c = await h.call('POST', '/v1/payment', { body: paymentBody({ currency: 'EUR' }) });
    expect([c.status, c.body.code]).toEqual([400, 'unsupported_currency']);
  });

  it('malformed input of any kind is a clear 4xx', async () => {
    const cases: [Parameters<Harness['call']>[2], number, string][] = [
      [{ raw: '{"amount": ', headers: { 'content-type': 'application/json' } }, 400, 'invalid_json'],
      [{ raw: '', headers: { 'content-type': 'application/json' } }, 400, 'invalid_json'],
      [{ raw: '[1,2]', headers: { 'content-type': 'application/json' } }, 400, 'validation_error'],
      [{ raw: 'null', headers: { 'content-type': 'application/json' } }, 400, 'validation_error'],
      [{ raw: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, 'unsupported_media_type'],
      [{ raw: JSON.stringify(paymentBody()) }, 415, 'unsupported_media_type'],
      [{ raw: '['.repeat(30000) + ']'.repeat(30000), headers: { 'content-type': 'application/json' } }, 400, ''],
      [
        {
          raw: JSON.stringify({ ...paymentBody(), pad: 'x'.repeat(70_000) }),
          headers: { 'content-type': 'application/json' },
        },
        413,
        'body_too_large',
      ],
      [
        { raw: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), headers: { 'content-type': 'application/json' } },
        400,
        'invalid_json',
      ],
    ];
    for (const [opts, status, code] of cases) {
      const r = await h.call('POST', '/v1/payment', opts);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      if (code) expect(r.body.code).toBe(code);
      expect(typeof r.body.message).toBe('string');
    }
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const raw = JSON.stringify(paymentBody()).replace(/}$/, `,"deep":${deep}}`);
    const nested = await h.call('POST', '/v1/payment', { raw, headers: { 'content-type': 'application/json' } });
    expect(nested.status).toBe(200);
    expect(h.sandbox.store.state.operations.size).toBe(1);
  });

  it('authenticates before parsing, with the two messages of §5', async () => {
    const missing = await h.call('POST', '/v1/payment', {
      raw: 'not json',
      key: null,
      headers: { 'content-type': 'application/json' },
    });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ code: 'missing_api_key', message: 'x-api-key header is required' });
    const invalid = await h.call('POST', '/v1/payment', {
      raw: 'not json',
      key: 'nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(invalid.body).toEqual({ code: 'invalid_api_key', message: 'invalid api key' });
    const revoked = await h.call('GET', '/v1/balances', { key: KEY_REVOKED });
    expect([revoked.status, revoked.body.message]).toEqual([401, 'invalid api key']);
    const upper = await h.call('GET', '/v1/balances', { key: null, headers: { 'X-API-KEY': KEY_A } });
    expect(upper.status).toBe(200);
  });

  it('stores API keys only as hashes', async () => {
    const keys = [...h.sandbox.store.state.keys.values()];
    expect(keys.length).toBe(4);
    const dump = JSON.stringify(h.sandbox.store.state.snapshot());
    expect(dump).not.toContain(KEY_A);
    expect(dump).not.toContain(KEY_B);
  });

  it('is idempotent on merchant_operation_id: same body returns the original, another body is 412', async () => {
    const body = paymentBody({ amount: '100' });
    const first = await h.call('POST', '/v1/payment', { body });
    const again = await h.call('POST', '/v1/payment', { body: { ...body, amount: '100.00', unknown_field: 1 } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await h.call('POST', '/v1/payment', { body: { ...body, amount: '101.00' } });
    expect(other.status).toBe(412);
    expect(other.body.code).toBe('idempotency_conflict');
    const asPayout = await h.call('POST', '/v1/payout', { body: { ...body, number: '2200700000000004' } });
    expect(asPayout.status).toBe(412);
    const link = await h.call('POST', '/v1/payment/link', { body });
    expect(link.status).toBe(200);
    expect(link.body.operation_id).toBe(first.body.operation_id);
  });

  it('concurrent duplicates create exactly one operation', async () => {
    const body = paymentBody();
    const results = await Promise.all(Array.from({ length: 12 }, () => h.call('POST', '/v1/payment', { body })));
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(results.map((r) => r.body.operation_id)).size).toBe(1);
    expect(h.sandbox.store.state.operationsOfShop('shop_a').length).toBe(1);
  });

  it('payment links: payment_url when the hosted page is enabled, null when not', async () => {
    const a = await h.call('POST', '/v1/payment/link', { body: paymentBody() });
    expect(a.status).toBe(200);
    const op = LinkOperation.parse(a.body);
    expect(op.payment_url).toBe(`${h.sandbox.urls.paymentPage}/${op.operation_id}`);
    const b = await h.call('POST', '/v1/payment/link', { body: paymentBody(), key: KEY_B });
    expect(b.status).toBe(200);
    expect(b.body.payment_url).toBeNull();
    expect(b.body.status).toBe('pending');
  });

  it('get_operation_state by either identifier, with receipts not_ready while mutable', async () => {
    const body = paymentBody();
    const created = (await h.call('POST', '/v1/payment', { body })).body;
    const byId = await state({ operation_id: created.operation_id });
    expect(byId.status).toBe(200);
    const parsed = OperationState.parse(byId.body);
    expect(parsed.receipts).toEqual([]);
    expect(parsed.receipt_evidence_status).toBe('not_ready');
    const { receipts: _r, receipt_evidence_status: _s, ...rest } = byId.body;
    expect(rest).toEqual(created);
    const byMoid = await state({ merchant_operation_id: body.merchant_operation_id as string });
    expect(byMoid.body).toEqual(byId.body);
    const upper = await state({ operation_id: created.operation_id.toUpperCase() });
    expect(upper.status).toBe(200);
  });

  it('get_operation_state: exactly one identifier, a UUID, in this shop', async () => {
    const created = (await h.call('POST', '/v1/payment', { body: paymentBody() })).body;
    expect((await state({})).status).toBe(400);
    expect((await state({ operation_id: created.operation_id, merchant_operation_id: 'x' })).status).toBe(400);
    expect((await state({ operation_id: 'not-a-uuid' })).status).toBe(400);
    const unknown = await state({ operation_id: '00000000-0000-4000-8000-000000000000' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'operation_not_found']);
    const otherShop = await state({ operation_id: created.operation_id }, KEY_B);
    expect(otherShop.status).toBe(404);
    expect(otherShop.body).toEqual(unknown.body);
  });

  it('balances: a row per supported currency, scoped to the key', async () => {
    const a = await balances(KEY_A);
    expect(Object.keys(a).sort()).toEqual(['RUB', 'USDT']);
    const b = await balances(KEY_B);
    expect(Object.keys(b)).toEqual(['RUB']);
    expect(b.RUB!.balance).toBe('250000.00');
  });

  it('health probes answer 204 without a key; unknown paths and methods get the error shape', async () => {
    for (const p of ['/livez', '/healthz', '/readyz']) expect((await h.call('GET', p, { key: null })).status).toBe(204);
    const nf = await h.call('GET', '/v1/nope');
    expect([nf.status, nf.body.code]).toEqual([404, 'not_found']);
    const wrong = await h.call('GET', '/v1/payment');
    expect([wrong.status, wrong.body.code]).toEqual([405, 'method_not_allowed']);
  });
});

describe('acceptance latency and payout settlement on the sandbox clock', () => {
  const h = useSandbox({ frozenClock: true, startTime: '2026-01-01T00:00:00Z' });

  it('a slow provider: the create waits on the clock, and the operation is 404 meanwhile', async () => {
    const body = paymentBody({ client_id: 'carol+slow' });
    let done = false;
    const pending = h.call('POST', '/v1/payment', { body }).then((r) => ((done = true), r));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    expect(
      (await h.call('POST', '/v1/get_operation_state', { body: { merchant_operation_id: body.merchant_operation_id } }))
        .status,
    ).toBe(404);
    await h.sandbox.clock.advance(9_999);
    expect(done).toBe(false);
    await h.sandbox.clock.advance(1);
    const r = await pending;
    expect(r.body.status).toBe('pending');
    // The provider's 30-minute window starts when it accepts, 10 s after the request.
    expect(r.body.expires_at).toBe('2026-01-01T00:30:10.000Z');
    const dup = await h.call('POST', '/v1/payment', { body });
    expect(dup.body).toEqual(r.body);
  });

  it('slower than the 15 s wait: rejected after 15 s', async () => {
    const pending = h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'dan+timeout' }) });
    await new Promise((r) => setImmediate(r));
    await h.sandbox.clock.advance(15_000);
    const r = await pending;
    expect(r.body.status).toBe('rejected');
    expect(r.body).not.toHaveProperty('number');
  });

  it('a payout settles after the provider delay; a failing one returns its reserve', async () => {
    const ok = (await h.call('POST', '/v1/payout', { body: payoutBody({ amount: '1000.00' }) })).body;
    const bad = (await h.call('POST', '/v1/payout', { body: payoutBody({ amount: '500.00', client_id: 'eve+fail' }) }))
      .body;
    expect(bad.settlement_amount).toBe('532.50');
    const before = (await h.call('GET', '/v1/balances')).body.balances[0];
    expect(before).toEqual({ currency: 'RUB', balance: '998427.50', current_minus: '0.00', reserved: '1572.50' });
    await h.sandbox.clock.advance(5_000);
    const s1 = (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: ok.operation_id } })).body;
    expect(s1).toMatchObject({
      status: 'completed',
      actual_amount: '1000.00',
      recorded_amount: '1000.00',
      recorded_currency: 'RUB',
    });
    const s2 = (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: bad.operation_id } })).body;
    expect(s2.status).toBe('rejected');
    expect(s2.actual_amount).toBe('0.00');
    const after = (await h.call('GET', '/v1/balances')).body.balances[0];
    expect(after).toEqual({ currency: 'RUB', balance: '998960.00', current_minus: '0.00', reserved: '0.00' });
  });
});
