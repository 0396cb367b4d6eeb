// The self-matching pool through the API and the sandbox controls only: matching and filling payouts, availability
// and recommendations with their validation, limits and headers, and every outcome of the flexible link.
import { readFileSync } from 'node:fs';
import { claimOf } from '../../src/domain/operation.js';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES } from '../../src/world/load.js';
import { KEY_A, KEY_B, KEY_POOL, type Harness } from '../helpers/harness.js';
import { useSandbox, useSandboxes } from '../helpers/sandbox.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

const ADMIN = { 'x-admin-token': 'adm' };
/** Sandboxes a test opens itself (another world, a file store), closed after it, then its temp dirs removed. */
const defer = useCleanup();
const open = useSandboxes(defer);
const world = () => JSON.parse(readFileSync(DEFAULT_FIXTURES, 'utf8'));
let seq = 0;
const moid = () => `pool-${process.pid}-${++seq}`;

async function layout(h: Harness, amounts: string[], key = KEY_POOL) {
  const r = await h.call('POST', '/sandbox/pool/layout', { key, body: { method: 'WT_RUB_C2C', amounts } });
  expect(r.status, r.text).toBe(200);
  return r.body as { created: number; first_operation_id: string; last_operation_id: string };
}

const pay = (amount: string, over: Record<string, unknown> = {}) => ({
  merchant_operation_id: moid(),
  client_id: 'payer',
  method: 'WT_RUB_C2C',
  amount,
  currency: 'RUB',
  ...over,
});
const flex = (recommended: string, over: Record<string, unknown> = {}) => ({
  merchant_operation_id: moid(),
  client_id: 'payer',
  method: 'WT_RUB_C2C',
  currency: 'RUB',
  recommended_amount: recommended,
  ...over,
});
const availability = (h: Harness, min: string, max: string, key = KEY_POOL) =>
  h.call('GET', `/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=${min}&max_amount=${max}`, { key });
const recommendations = (h: Harness, body: Record<string, unknown>, key = KEY_POOL) =>
  h.call('POST', '/v1/payment/recommendations', { key, body: { method: 'WT_RUB_C2C', currency: 'RUB', ...body } });
const advance = (h: Harness, by: string) =>
  h.call('POST', '/sandbox/clock/advance', { key: null, headers: ADMIN, body: { by } });

describe('pool matching and payouts', () => {
  const h = useSandbox({ frozenClock: true, adminToken: 'adm' });

  it('an empty pool declines: the payment is rejected, no synthetic pending', async () => {
    const r = await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1000.00') });
    expect(r.body).toMatchObject({ status: 'rejected' });
  });

  it('a payment claims a slot in matching order and gets its payout destination as requisites', async () => {
    const l = await layout(h, ['800.00', '1500.00', '3000.00']);
    const payout = (
      await h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id: l.first_operation_id } })
    ).body;
    expect(payout).toMatchObject({ type: 'payout', status: 'pending', expected_amount: '800.00' });
    // 1000.00 cannot come from 800.00 (not its whole remainder, and no piece fits): the 1500.00 slot gives it.
    const p = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1000.00') })).body;
    expect(p.status).toBe('pending');
    const pool = (await h.call('GET', '/sandbox/pool?limit=5', { key: null, headers: ADMIN })).body;
    const slots = pool.pools[0].first;
    expect(slots.map((s: { free: string }) => s.free)).toEqual(['800.00', '500.00', '3000.00']);
    const matched = slots[1];
    const state = (
      await h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id: matched.payout_id } })
    ).body;
    expect(p.number).toBe(state.number);
  });

  it('payments that fill a payout complete it; its receipts list one item per payment (§2.4)', async () => {
    const l = await layout(h, ['1500.00']);
    const a = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1000.00') })).body;
    const b = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('500.00') })).body;
    expect([a.status, b.status]).toEqual(['pending', 'pending']);
    // Nothing is left to claim.
    expect((await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('500.00') })).body.status).toBe('rejected');
    await h.call('POST', `/sandbox/operations/${a.operation_id}/pay`, { key: KEY_POOL, body: {} });
    let payout = (
      await h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id: l.first_operation_id } })
    ).body;
    expect(payout).toMatchObject({ status: 'pending', receipts: [], receipt_evidence_status: 'not_ready' });
    await advance(h, '1s');
    await h.call('POST', `/sandbox/operations/${b.operation_id}/pay`, { key: KEY_POOL, body: {} });
    payout = (
      await h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id: l.first_operation_id } })
    ).body;
    expect(payout).toMatchObject({ status: 'completed', actual_amount: '1500.00', receipt_evidence_status: 'partial' });
    expect(payout.receipts.map((r: { amount: number }) => r.amount)).toEqual([1000, 500]);
    expect(payout.receipts[0].completed_at < payout.receipts[1].completed_at).toBe(true);
    // The slot is gone from the pool.
    expect((await h.call('GET', '/sandbox/pool', { key: null, headers: ADMIN })).body.pools[0].slots).toBe(0);
  });

  it('a cancelled claim releases the remainder; a pool payout does not settle on its own timer', async () => {
    const l = await layout(h, ['1500.00']);
    const a = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1500.00') })).body;
    expect((await availability(h, '100.00', '5000.00')).body.intervals).toEqual([]);
    await h.call('POST', '/v1/cancel_operation', { key: KEY_POOL, body: { operation_id: a.operation_id } });
    expect((await availability(h, '100.00', '5000.00')).body.intervals).toEqual([
      { min_amount: '500.00', max_amount: '1000.00' },
      { min_amount: '1500.00', max_amount: '1500.00' },
    ]);
    await advance(h, '1h');
    const payout = (
      await h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id: l.first_operation_id } })
    ).body;
    expect(payout.status).toBe('pending');
    const settle = await h.call('POST', `/sandbox/operations/${l.first_operation_id}/settle`, {
      key: KEY_POOL,
      body: { outcome: 'completed' },
    });
    expect(settle.status).toBe(409);
    expect(settle.body.message).toMatch(/completes when matched payments fill it/);
  });

  it('a layout through a shop whose payout route is not pooled is refused', async () => {
    const r = await h.call('POST', '/sandbox/pool/layout', {
      key: KEY_A,
      body: { method: 'WT_RUB_C2C', amounts: ['100.00'] },
    });
    expect(r.status).toBe(412);
    expect(r.body.code).toBe('not_pool_route');
  });
});

describe('availability and recommendations', () => {
  const h = useSandbox({ per: 'file', frozenClock: true, adminToken: 'adm' });
  beforeAll(async () => {
    await layout(h, ['300.00', '1500.00', '2500.00', '25000.00']);
    // These tests read often; the rate limit has its own tests below.
    await h.call('POST', '/sandbox/pool/settings', { key: null, headers: ADMIN, body: { rate_limit: false } });
  });

  it('answers the intervals with every field of §2.7 and Cache-Control: no-store', async () => {
    const r = await availability(h, '100.00', '30000.00');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toEqual({
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      evaluated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      coverage: 'full',
      reserved: false,
      truncated: false,
      intervals: [
        // 300.00 only whole (below min_piece); pieces of 500.00 up to 25000.00 − 500.00; 25000.00 whole.
        { min_amount: '300.00', max_amount: '300.00' },
        { min_amount: '500.00', max_amount: '24500.00' },
        { min_amount: '25000.00', max_amount: '25000.00' },
      ],
    });
  });

  it.each([
    ['method=WT_RUB_C2C&currency=RUB&min_amount=100.00', 'max_amount'],
    ['method=WT_RUB_C2C&currency=RUB&min_amount=0.00&max_amount=10.00', 'min_amount'],
    ['method=WT_RUB_C2C&currency=RUB&min_amount=1.234&max_amount=10.00', 'min_amount'],
    ['method=WT_RUB_C2C&currency=RUB&min_amount=200.00&max_amount=100.00', 'min_amount'],
    ['method=NOPE&currency=RUB&min_amount=100.00&max_amount=200.00', 'method'],
    ['method=WT_RUB_C2C&currency=USDT&min_amount=100.00&max_amount=200.00', 'currency'],
    ['method=WT_RUB_C2C&currency=XXX&min_amount=100.00&max_amount=200.00', 'currency'],
  ])('400 for %s (naming %s), with Cache-Control: no-store', async (query, field) => {
    const r = await h.call('GET', `/v1/payment/availability?${query}`, { key: KEY_POOL });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(field);
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('412 without a route or pricing for the range; coverage none for a route with no pool', async () => {
    const noRoute = await h.call(
      'GET',
      '/v1/payment/availability?method=WT_RUB_PHONE&currency=RUB&min_amount=100.00&max_amount=200.00',
      { key: KEY_B },
    );
    expect([noRoute.status, noRoute.body.code]).toEqual([412, 'no_route']);
    const noPricing = await availability(h, '50.00', '200.00');
    expect([noPricing.status, noPricing.body.code]).toEqual([412, 'pricing_not_covered']);
    const none = await availability(h, '100.00', '200.00', KEY_A);
    expect(none.body).toMatchObject({ coverage: 'none', intervals: [], truncated: false, reserved: false });
    const noneRec = await recommendations(h, { amount: '150.00', min_amount: '100.00', max_amount: '200.00' }, KEY_A);
    expect(noneRec.body).toMatchObject({ coverage: 'none', intervals: [], recommendations: [] });
  });

  it('recommends exact free remainders first, then by distance, then the lower amount; limit defaults to 3', async () => {
    const r = await recommendations(h, { amount: '2400.00', min_amount: '100.00', max_amount: '30000.00' });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body.recommendations).toEqual([
      { amount: '2500.00', delta: '100.00' },
      { amount: '1500.00', delta: '-900.00' },
      { amount: '300.00', delta: '-2100.00' },
    ]);
    const all = await recommendations(h, {
      amount: '2400.00',
      min_amount: '100.00',
      max_amount: '30000.00',
      limit: 10,
    });
    // Then, per interval, the amount nearest the request: 2400.00 itself (300.00 and 25000.00 are already listed).
    expect(all.body.recommendations).toEqual([
      { amount: '2500.00', delta: '100.00' },
      { amount: '1500.00', delta: '-900.00' },
      { amount: '300.00', delta: '-2100.00' },
      { amount: '25000.00', delta: '22600.00' },
      { amount: '2400.00', delta: '0.00' },
    ]);
  });

  it.each([[0], [11], [2.5], ['3']])('400 for limit %j', async (limit) => {
    const r = await recommendations(h, { amount: '1000.00', min_amount: '100.00', max_amount: '2000.00', limit });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('limit');
  });

  it('never changes state: operations, postings and balances are the same after any reads', async () => {
    const before = JSON.stringify([
      ...h.sandbox.store.state.operations.values(),
      ...h.sandbox.store.state.postings.values(),
    ]);
    const balances = (await h.call('GET', '/v1/balances', { key: KEY_POOL })).body;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100_00, max: 30_000_00 }),
        fc.integer({ min: 100_00, max: 30_000_00 }),
        fc.integer({ min: 1, max: 40_000_00 }),
        async (a, b, x) => {
          const [lo, hi] = [Math.min(a, b) / 100, Math.max(a, b) / 100].map((n) => n.toFixed(2));
          expect((await availability(h, lo!, hi!)).status).toBe(200);
          expect(
            (await recommendations(h, { amount: (x / 100).toFixed(2), min_amount: lo, max_amount: hi, limit: 10 }))
              .status,
          ).toBe(200);
        },
      ),
      { numRuns: 50 },
    );
    expect(
      JSON.stringify([...h.sandbox.store.state.operations.values(), ...h.sandbox.store.state.postings.values()]),
    ).toBe(before);
    expect((await h.call('GET', '/v1/balances', { key: KEY_POOL })).body).toEqual(balances);
  });
});

describe('read limits (spec §8)', () => {
  // Real time stands still too: the rate window also counts real seconds (test/emulator/rate-window.test.ts).
  const h = useSandbox({ frozenClock: true, adminToken: 'adm', realNow: () => Date.parse('2026-03-01T12:00:00Z') });
  beforeEach(async () => {
    await layout(h, ['1500.00']);
  });

  it('5 requests per second per shop across both endpoints, then 429 with Retry-After; another shop is not affected', async () => {
    for (let i = 0; i < 3; i++) expect((await availability(h, '100.00', '2000.00')).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect(
        (await recommendations(h, { amount: '1000.00', min_amount: '100.00', max_amount: '2000.00' })).status,
      ).toBe(200);
    const limited = await availability(h, '100.00', '2000.00');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect((await availability(h, '100.00', '200.00', KEY_A)).status).toBe(200);
    await advance(h, '1s');
    expect((await availability(h, '100.00', '2000.00')).status).toBe(200);
  });

  it('one active read per replica: a concurrent read gets an immediate 503; the first answers after its latency', async () => {
    await h.call('POST', '/sandbox/pool/settings', { key: null, headers: ADMIN, body: { read_latency_ms: 500 } });
    const first = availability(h, '100.00', '2000.00');
    await new Promise((r) => setImmediate(r));
    const second = await recommendations(h, { amount: '1000.00', min_amount: '100.00', max_amount: '2000.00' }, KEY_A);
    expect(second.status).toBe(503);
    expect(second.body.code).toBe('read_capacity_exhausted');
    await advance(h, '500ms');
    const r = await first;
    expect(r.status).toBe(200);
    expect(r.body.intervals).toHaveLength(2);
    // Capacity is free again.
    const third = availability(h, '100.00', '2000.00');
    await advance(h, '500ms');
    expect((await third).status).toBe(200);
  });

  it('a read slower than the 2-second budget answers 503 at the budget', async () => {
    await h.call('POST', '/sandbox/pool/settings', { key: null, headers: ADMIN, body: { read_latency_ms: 5000 } });
    const read = availability(h, '100.00', '2000.00');
    await new Promise((r) => setImmediate(r));
    await advance(h, '2s');
    const r = await read;
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('read_timeout');
    const settings = await h.call('GET', '/sandbox/pool/settings', { key: null, headers: ADMIN });
    expect(settings.body).toEqual({ read_latency_ms: 5000, rate_limit: true });
  });
});

describe('flexible payment link (§4.3)', () => {
  const h = useSandbox({ frozenClock: true, adminToken: 'adm' });

  const link = (body: Record<string, unknown>, key = KEY_POOL) =>
    h.call('POST', '/v1/payment/link/flexible', { key, body });
  const state = (operation_id: string) =>
    h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id } });
  const pageOf = (url: string) => h.call('GET', url.replace(/^https?:\/\/[^/]+/, ''), { key: null });

  it.each([
    [{ recommended_amount: '0.00' }, 'recommended_amount'],
    [{ min_amount: '-1.00' }, 'min_amount'],
    [{ min_amount: '2000.00', max_amount: '1000.00' }, 'min_amount'],
    [{ min_amount: '2000.00' }, 'recommended_amount'],
    [{ max_amount: '1000.00' }, 'recommended_amount'],
  ])('400 for %j, and nothing is stored', async (over, field) => {
    const r = await link(flex('1500.00', over));
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(field);
    expect(h.sandbox.store.state.links.size + h.sandbox.store.state.operations.size).toBe(0);
  });

  it('412 when the payin route includes a provider other than the pool', async () => {
    const r = await link(flex('1500.00'), KEY_A);
    expect([r.status, r.body.code]).toEqual([412, 'not_pool_only']);
  });

  it('available now: created like /v1/payment/link, payment_url carries k; a retry returns the same URL and payment', async () => {
    await layout(h, ['1500.00']);
    const body = flex('1500.00', { min_amount: '1000.00', max_amount: '2000.00' });
    const r = await link(body);
    expect(r.body).toMatchObject({
      status: 'pending',
      expected_amount: '1500.00',
      payment_url: expect.stringMatching(/\/pay\/[0-9a-f-]{36}\?k=[\w-]{43}$/),
    });
    expect((await link(body)).body).toEqual(r.body);
    expect((await state(r.body.operation_id)).status).toBe(200);
    // The page answers only with its k credential.
    expect((await pageOf(r.body.payment_url)).status).toBe(200);
    expect((await pageOf(r.body.payment_url.replace(/\?k=.*/, ''))).status).toBe(404);
    // A wrong credential: the same length, its first character changed.
    expect(
      (await pageOf(r.body.payment_url.replace(/k=(.)/, (_: string, c: string) => `k=${c === 'A' ? 'B' : 'A'}`)))
        .status,
    ).toBe(404);
    // The same merchant_operation_id on another endpoint is another body.
    expect(
      (
        await h.call('POST', '/v1/payment', {
          key: KEY_POOL,
          body: pay('1500.00', { merchant_operation_id: body.merchant_operation_id }),
        })
      ).status,
    ).toBe(412);
  });

  it('amount_selection: 404 on reads, no event; the payer confirms an amount and the payment carries it', async () => {
    await layout(h, ['3000.00']);
    const body = flex('2800.00', { min_amount: '1000.00', max_amount: '3000.00' });
    const r = await link(body);
    expect(r.body).toEqual({
      operation_id: expect.any(String),
      status: 'amount_selection',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '2800.00',
      payment_url: expect.stringMatching(/\?k=/),
      expires_at: new Date(h.sandbox.clock.now() + 15 * 60_000).toISOString(),
    });
    const id = r.body.operation_id;
    expect((await state(id)).status).toBe(404);
    expect((await h.call('POST', '/v1/cancel_operation', { key: KEY_POOL, body: { operation_id: id } })).status).toBe(
      404,
    );
    expect((await link(body)).body).toEqual(r.body);
    expect((await pageOf(r.body.payment_url)).text).toContain('data-state="choose"');
    expect([...h.sandbox.store.state.events.values()].filter((e) => e.operation_id === id)).toEqual([]);
    // Another shop cannot confirm it.
    expect(
      (await h.call('POST', `/sandbox/links/${id}/confirm`, { key: KEY_A, body: { amount: '2500.00' } })).status,
    ).toBe(404);
    expect(
      (await h.call('POST', `/sandbox/links/${id}/confirm`, { key: KEY_POOL, body: { amount: '3500.00' } })).status,
    ).toBe(400);
    const confirmed = await h.call('POST', `/sandbox/links/${id}/confirm`, {
      key: KEY_POOL,
      body: { amount: '2500.00' },
    });
    expect(confirmed.body).toMatchObject({ operation_id: id, status: 'pending', expected_amount: '2500.00' });
    const events = [...h.sandbox.store.state.events.values()].filter((e) => e.operation_id === id);
    expect(events.map((e) => e.type)).toEqual(['operation.pending']);
    // Retrying the link now returns the payment, with the same URL.
    expect((await link(body)).body).toMatchObject({
      operation_id: id,
      status: 'pending',
      payment_url: r.body.payment_url,
    });
    expect((await state(id)).body.expected_amount).toBe('2500.00');
  });

  it('the amount taken at the last moment: the confirmation creates a rejected payment with the ordinary rejected event', async () => {
    await layout(h, ['3000.00']);
    const r = await link(flex('2800.00', { min_amount: '1000.00', max_amount: '3000.00' }));
    expect(r.body.status).toBe('amount_selection');
    // Another payer takes the whole slot.
    expect((await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('3000.00') })).body.status).toBe('pending');
    const confirmed = await h.call('POST', `/sandbox/links/${r.body.operation_id}/confirm`, {
      key: KEY_POOL,
      body: { amount: '3000.00' },
    });
    expect(confirmed.body).toMatchObject({ status: 'rejected', expected_amount: '3000.00' });
    const events = [...h.sandbox.store.state.events.values()].filter((e) => e.operation_id === r.body.operation_id);
    expect(events.map((e) => e.type)).toEqual(['operation.rejected']);
    expect(h.sandbox.store.state.operation(r.body.operation_id)).toMatchObject({ reject_reason: 'amount_taken' });
  });

  it('the link lifetime elapses: nothing is created, no event, the confirmation is refused', async () => {
    await layout(h, ['3000.00']);
    const r = await link(flex('2800.00'));
    await advance(h, '15m');
    const id = r.body.operation_id;
    expect(h.sandbox.store.state.link(id)?.status).toBe('expired');
    const c = await h.call('POST', `/sandbox/links/${id}/confirm`, { key: KEY_POOL, body: { amount: '2500.00' } });
    expect(c.status).toBe(409);
    expect(c.body.message).toMatch(/expired/);
    expect((await state(id)).status).toBe(404);
    expect([...h.sandbox.store.state.events.values()].filter((e) => e.operation_id === id)).toEqual([]);
    expect((await pageOf(r.body.payment_url)).text).toContain('data-state="expired"');
  });

  it('nothing available: rejected, payment_url null, no payment', async () => {
    const r = await link(flex('1500.00'));
    expect(r.body).toEqual({
      operation_id: expect.any(String),
      status: 'rejected',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '1500.00',
      payment_url: null,
    });
    expect((await state(r.body.operation_id)).status).toBe(404);
    expect(h.sandbox.store.state.operations.size).toBe(0);
  });

  it('operation_id is derived from the shop and merchant_operation_id', async () => {
    const body = flex('1500.00');
    const a = (await link(body)).body.operation_id;
    const other = await open({ frozenClock: true });
    expect((await other.call('POST', '/v1/payment/link/flexible', { key: KEY_POOL, body })).body.operation_id).toBe(a);
  });
});

describe('flexible link without the opt-in', () => {
  it('creates an ordinary payment for recommended_amount, payment_url always null', async () => {
    const w = world();
    w.shops.find((s: { id: string }) => s.id === 'shop_pool').flexible_links = false;
    const h = await open({ world: w, frozenClock: true });
    await layout(h, ['3000.00']);
    const r = await h.call('POST', '/v1/payment/link/flexible', {
      key: KEY_POOL,
      body: flex('2500.00', { min_amount: '1000.00' }),
    });
    expect(r.body).toMatchObject({ status: 'pending', expected_amount: '2500.00', payment_url: null });
    // No picker even though 500.00 is still available: a payment the pool cannot take is rejected.
    const nothing = await h.call('POST', '/v1/payment/link/flexible', { key: KEY_POOL, body: flex('2800.00') });
    expect(nothing.body).toMatchObject({ status: 'rejected', payment_url: null });
  });
});

describe('pool state on disk', () => {
  it('fixture pool_layouts are seeded once; slots, claims and links survive a restart', async () => {
    const dir = tempDir(defer, 'paygate-pool-');
    const store = join(dir, 'sandbox.json');
    const w = world();
    w.pool_layouts = [
      {
        shop_id: 'shop_pool',
        method: 'WT_RUB_C2C',
        generate: { count: 50, min: '1000.00', max: '5000.00', step: '100.00', seed: 3 },
      },
    ];
    const first = (await open({ world: w, store, frozenClock: true })).sandbox;
    const payment = await first.service.create('shop_pool', 'payment', {
      merchant_operation_id: 'disk-1',
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: '1000.00',
      currency: 'RUB',
    });
    const flexible = await first.service.flexible('shop_pool', {
      merchant_operation_id: 'disk-2',
      client_id: 'c',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '999999.00',
    });
    expect('link' in flexible && flexible.link.status).toBe('amount_selection');
    const before = first.store.state.poolWindow('pool_main', 'WT_RUB_C2C')!;
    const snapshot = [...before.slots.values()].map((s) => [s.payout_id, s.free.toFixed(2)]);
    expect(snapshot).toHaveLength(50);
    await first.close();
    const again = (await open({ world: w, store, frozenClock: true })).sandbox;
    expect(again.store.state.operations.size).toBe(52 - 1); // 50 payouts + 1 payment; the link is no operation
    const after = again.store.state.poolWindow('pool_main', 'WT_RUB_C2C')!;
    expect([...after.slots.values()].map((s) => [s.payout_id, s.free.toFixed(2)])).toEqual(snapshot);
    expect(claimOf(again.store.state.operation(payment.id)!)).toBeDefined();
    expect(again.store.state.link('link' in flexible ? flexible.link.id : '')?.status).toBe('amount_selection');
  });
});

describe('key scopes (spec §7: 403 on link and amount endpoints)', () => {
  it('a key limited to some optional endpoint groups gets 403 on the others, before its body is read', async () => {
    const h = await open({ frozenClock: true, adminToken: 'adm' });
    const issued = await h.call('POST', '/sandbox/keys', {
      key: null,
      headers: ADMIN,
      body: { shop_id: 'shop_pool', scopes: ['amounts'] },
    });
    expect(issued.body).toMatchObject({ shop_id: 'shop_pool', scopes: ['amounts'] });
    const key = issued.body.api_key as string;
    expect((await availability(h, '100.00', '200.00', key)).status).toBe(200);
    const flexible = await h.call('POST', '/v1/payment/link/flexible', {
      key,
      raw: 'not even json',
      headers: { 'content-type': 'application/json' },
    });
    expect([flexible.status, flexible.body.code]).toEqual([403, 'key_not_authorized']);
    expect((await h.call('POST', '/v1/payment/link', { key, body: pay('1000.00') })).status).toBe(403);
    // Core endpoints stay open to every key.
    expect((await h.call('POST', '/v1/payment', { key, body: pay('1000.00') })).status).toBe(200);
    const links = (
      await h.call('POST', '/sandbox/keys', {
        key: null,
        headers: ADMIN,
        body: { shop_id: 'shop_pool', scopes: ['links'] },
      })
    ).body.api_key as string;
    expect((await availability(h, '100.00', '200.00', links)).status).toBe(403);
    expect((await h.call('POST', '/v1/payment/link/flexible', { key: links, body: flex('1000.00') })).status).toBe(200);
    expect(
      (
        await h.call('POST', '/sandbox/keys', {
          key: null,
          headers: ADMIN,
          body: { shop_id: 'shop_pool', scopes: ['everything'] },
        })
      ).status,
    ).toBe(400);
  });
});

describe('coverage partial', () => {
  it("a route mixing the pool and a simulated provider reports partial coverage with the pool's intervals", async () => {
    const w = world();
    w.routes.find((r: { id: string }) => r.id === 'r_a_c2c_in').providers = ['pool_main', 'sim_cards'];
    const h = await open({ world: w, frozenClock: true });
    await layout(h, ['1500.00']);
    const r = await availability(h, '100.00', '3000.00', KEY_A);
    expect(r.body).toMatchObject({
      coverage: 'partial',
      intervals: [
        { min_amount: '500.00', max_amount: '1000.00' },
        { min_amount: '1500.00', max_amount: '1500.00' },
      ],
    });
    // The flexible link is for pool-only routes.
    expect((await h.call('POST', '/v1/payment/link/flexible', { key: KEY_A, body: flex('1500.00') })).status).toBe(412);
    // A payment the pool can take goes to the pool (first in the route); one it cannot falls through to sim_cards.
    const pooled = (await h.call('POST', '/v1/payment', { key: KEY_A, body: pay('1500.00') })).body;
    expect(claimOf(h.sandbox.store.state.operation(pooled.operation_id)!)).toBeDefined();
    const simulated = (await h.call('POST', '/v1/payment', { key: KEY_A, body: pay('1200.00') })).body;
    expect(simulated.status).toBe('pending');
    expect(h.sandbox.store.state.operation(simulated.operation_id)?.provider_id).toBe('sim_cards');
  });
});
