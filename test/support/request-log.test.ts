// GET /sandbox/logs (`paygate logs tail`): every answered request in a bounded ring, newest first, with
// its shop, status, error code and latency, secrets in the query masked, and the id sent back as x-request-id on
// every kind of answer; filters; a key sees its own shop's requests only. GET /sandbox/balances: every shop's
// balances, admin token only.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SandboxRequestLogEntry } from '../../src/client/resources/sandbox-support.js';
import { REQUEST_LOG_SIZE } from '../../src/emulator/runtime/request-log.js';
import { KEY_A, KEY_B } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const ADMIN = 'adm';
const T0 = '2026-01-01T00:00:00.000Z';
const admin = { key: null, headers: { 'x-admin-token': ADMIN } };

describe('GET /sandbox/logs', () => {
  const h = useSandbox({ frozenClock: true, startTime: T0, adminToken: ADMIN });
  const logs = async (query = '', opts: Parameters<typeof h.call>[2] = admin): Promise<SandboxRequestLogEntry[]> => {
    const res = await h.call('GET', `/sandbox/logs${query}`, opts);
    expect(res.status, res.text).toBe(200);
    return res.body.requests;
  };

  it('each answer: shop, method, path, status, error code, latency, and its id is the x-request-id header', async () => {
    const created = await h.call('POST', '/v1/payment', {
      body: { merchant_operation_id: 'l-1', client_id: 'c', method: 'WT_RUB_C2C', amount: '500.00', currency: 'RUB' },
    });
    const invalid = await h.call('POST', '/v1/payment', {
      key: KEY_B,
      body: { merchant_operation_id: 'l-2', client_id: 'c', method: 'WT_RUB_C2C', amount: '1,500.00', currency: 'RUB' },
    });
    const unauth = await h.call('GET', '/v1/balances', { key: 'pg_test_wrong' });
    const control = await h.call('GET', '/sandbox/clock', admin);
    const [c, i, u, k] = (await logs('?limit=4')).reverse();
    expect(c).toMatchObject({
      id: created.headers.get('x-request-id'),
      shop_id: 'shop_a',
      method: 'POST',
      path: '/v1/payment',
      status: 200,
      error_code: null,
    });
    expect(i).toMatchObject({
      id: invalid.headers.get('x-request-id'),
      shop_id: 'shop_b',
      status: 400,
      error_code: 'validation_error',
    });
    expect(u).toMatchObject({
      id: unauth.headers.get('x-request-id'),
      shop_id: '',
      status: 401,
      error_code: 'invalid_api_key',
    });
    expect(k).toMatchObject({
      id: control.headers.get('x-request-id'),
      shop_id: '',
      path: '/sandbox/clock',
      status: 200,
    });
    for (const e of [c, i, u, k]) {
      expect(e!.latency_ms).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(e!.at))).toBe(false);
    }
    expect(new Set([c, i, u, k].map((e) => e!.id)).size).toBe(4);
  });

  it('every kind of answer carries x-request-id and is logged under it: 404, 405, HEAD, an unknown path, a page, a receipt link', async () => {
    const answers = [
      await h.call('GET', '/v1/no-such-endpoint'),
      await h.call('GET', '/v1/payment'),
      await h.call('HEAD', '/v1/balances'),
      await h.call('GET', '/nowhere', { key: null }),
      await h.call('GET', '/pay/00000000-0000-5000-8000-000000000000', { key: null }),
      await h.call('GET', '/storage/receipts/nothing?expires=1&signature=forged', { key: null }),
    ];
    const ids = answers.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_\d+$/);
    const logged = await logs('?limit=6');
    expect(logged.map((e) => e.id).reverse()).toEqual(ids);
    expect(logged.reverse().map((e) => [e.status, e.error_code, e.shop_id])).toEqual([
      [404, 'not_found', 'shop_a'],
      [405, 'method_not_allowed', 'shop_a'],
      [200, null, 'shop_a'],
      [404, 'not_found', ''],
      [404, null, ''], // the payer's HTML page: no error code
      [404, 'not_found', ''],
    ]);
  });

  it('secrets in the query are masked: a signed receipt link, and k, sig, token anywhere', async () => {
    const a = h.make({ apiKey: KEY_A });
    const op = await a.payments.create({
      merchant_operation_id: 'r-1',
      client_id: 'c',
      method: 'WT_RUB_PHONE',
      amount: '1500.00',
      currency: 'RUB',
    });
    await a.payments.confirm({
      operation_id: op.operation_id,
      receipt: fileURLToPath(new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url)),
    });
    const url = new URL((await a.operations.get({ operation_id: op.operation_id })).receipts[0]!.receipt_url!);
    const signature = url.searchParams.get('signature')!;
    expect(signature.length).toBeGreaterThan(8);
    const download = await h.call('GET', url.pathname + url.search, { key: null });
    expect(download.status).toBe(200);
    await h.call('GET', '/v1/balances?k=k-secret&sig=sig-secret&token=tok-secret&keep=visible');
    const [secrets, receipt] = await logs('?limit=2');
    expect(receipt!.path).toBe(`${url.pathname}?expires=${url.searchParams.get('expires')}&signature=***`);
    expect(secrets!.path).toBe('/v1/balances?k=***&sig=***&token=***&keep=visible');
    const all = JSON.stringify(await logs('?limit=2000'));
    for (const s of [signature, 'k-secret', 'sig-secret', 'tok-secret']) expect(all).not.toContain(s);
  });

  it('filters: shop, method, status (a code or a class), path prefix, errors, limit; newest first', async () => {
    await h.call('GET', '/v1/balances');
    await h.call('GET', '/v1/balances', { key: KEY_B });
    await h.call('POST', '/v1/get_operation_state', { body: { operation_id: '00000000-0000-5000-8000-000000000000' } });
    await h.call('GET', '/v1/nothing');
    await h.call('GET', '/sandbox/clock', admin);
    const paths = (es: SandboxRequestLogEntry[]) => es.map((e) => `${e.method} ${e.path} ${e.status}`);
    expect(paths(await logs('?shop=shop_b'))).toEqual(['GET /v1/balances 200']);
    expect(paths(await logs('?method=post'))).toEqual(['POST /v1/get_operation_state 404']);
    expect(paths(await logs('?status=404'))).toEqual(['GET /v1/nothing 404', 'POST /v1/get_operation_state 404']);
    expect(paths(await logs('?status=4xx&shop=shop_a'))).toEqual([
      'GET /v1/nothing 404',
      'POST /v1/get_operation_state 404',
    ]);
    expect(paths(await logs('?errors=true&path=/v1/get'))).toEqual(['POST /v1/get_operation_state 404']);
    expect(paths(await logs('?path=/v1/balances&limit=1'))).toEqual(['GET /v1/balances 200']);
    expect((await logs('?path=/v1/balances&limit=1'))[0]!.shop_id).toBe('shop_b');
    expect(paths(await logs('?path=/sandbox/clock'))).toEqual(['GET /sandbox/clock 200']);
  });

  it("a shop's key sees its own shop's requests only; naming another shop is 400; no credential is 401", async () => {
    await h.call('GET', '/v1/balances');
    await h.call('GET', '/v1/balances', { key: KEY_B });
    const own = await logs('', { key: KEY_B });
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e) => e.shop_id === 'shop_b')).toBe(true);
    const other = await h.call('GET', '/sandbox/logs?shop=shop_a', { key: KEY_B });
    expect(other.status).toBe(400);
    expect((await h.call('GET', '/sandbox/logs', { key: null })).status).toBe(401);
  });

  it('bad filters are 400 naming the parameter', async () => {
    for (const [q, name] of [
      ['status=4', 'status'],
      ['status=6xx', 'status'],
      ['limit=0', 'limit'],
      ['limit=2001', 'limit'],
      ['errors=yes', 'errors'],
    ]) {
      const res = await h.call('GET', `/sandbox/logs?${q}`, admin);
      expect(res.status, q).toBe(400);
      expect(res.body.message.startsWith(`${name}: `), res.body.message).toBe(true);
    }
  });

  it(`the ring keeps the newest ${REQUEST_LOG_SIZE} requests`, async () => {
    const first = await h.call('GET', '/livez', { key: null });
    for (let i = 0; i < REQUEST_LOG_SIZE + 9; i++) await h.call('GET', '/livez', { key: null });
    const last = await h.call('GET', '/livez', { key: null });
    const kept = await logs(`?limit=${REQUEST_LOG_SIZE}`);
    expect(kept).toHaveLength(REQUEST_LOG_SIZE);
    expect(kept[0]!.id).toBe(last.headers.get('x-request-id'));
    const n = (id: string | null) => Number(id!.slice('req_'.length));
    expect(n(kept.at(-1)!.id)).toBe(n(last.headers.get('x-request-id')) - REQUEST_LOG_SIZE + 1);
    expect(kept.some((e) => e.id === first.headers.get('x-request-id'))).toBe(false);
  });
});

describe('GET /sandbox/balances', () => {
  const h = useSandbox({ frozenClock: true, startTime: T0, adminToken: ADMIN });

  it("every shop's balances, the same rows as each shop's /v1/balances", async () => {
    const a = h.make({ apiKey: KEY_A });
    const op = await a.payments.create({
      merchant_operation_id: 'b-1',
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: '500.00',
      currency: 'RUB',
    });
    await a.sandbox.operations.pay({ operation_id: op.operation_id });
    const all = await h.admin.sandbox.balances();
    expect(all.shops.map((s) => s.shop_id)).toEqual(h.sandbox.demo.shops.map((s) => s.id));
    for (const shop of all.shops) {
      expect(shop.name).toBe(h.sandbox.demo.shops.find((s) => s.id === shop.shop_id)!.name);
      const own = await h.make({ apiKey: h.keyOf(shop.shop_id) }).balances.list();
      expect(shop.balances).toEqual(own.balances);
    }
    // The paid payment moved shop A's RUB balance off its opening 1000000.00.
    expect(all.shops.find((s) => s.shop_id === 'shop_a')!.balances.find((b) => b.currency === 'RUB')!.balance).not.toBe(
      '1000000.00',
    );
    expect(all.shops.find((s) => s.shop_id === 'shop_b')!.balances).toEqual([
      { currency: 'RUB', balance: '250000.00', current_minus: '0.00', reserved: '0.00' },
    ]);
  });

  it('401 without the admin token, also with a shop key', async () => {
    const none = await h.call('GET', '/sandbox/balances', { key: null });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('missing_admin_token');
    const key = await h.call('GET', '/sandbox/balances', { key: KEY_A });
    expect(key.status).toBe(401);
    expect(key.text).not.toContain('250000.00');
    const wrong = await h.call('GET', '/sandbox/balances', { key: null, headers: { 'x-admin-token': 'nope' } });
    expect(wrong.body.code).toBe('invalid_admin_token');
  });
});
