// Edge rules of the self-matching pool and flexible links found in review, each pinned to what docs/pool.md or the
// spec says: link bounds, overpaid and underpaid payouts, pricing, exact ordering, hosted-page opt-in, layout
// validation, and matching order across a restart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURES } from '../../src/world/load.js';
import { KEY_POOL, type Harness } from '../helpers/harness.js';
import { useSandbox, useSandboxes } from '../helpers/sandbox.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

const world = () => JSON.parse(readFileSync(DEFAULT_FIXTURES, 'utf8'));
/** Sandboxes a test opens itself (another world, a file store), closed after it, then its temp dirs removed. */
const defer = useCleanup();
const open = useSandboxes(defer);
let seq = 0;
const moid = () => `review-${process.pid}-${++seq}`;
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

async function layout(h: Harness, amounts: string[]) {
  const r = await h.call('POST', '/sandbox/pool/layout', { key: KEY_POOL, body: { method: 'WT_RUB_C2C', amounts } });
  expect(r.status, r.text).toBe(200);
  return r.body as { created: number; first_operation_id: string; last_operation_id: string };
}

describe('pool edges', () => {
  const h = useSandbox({ frozenClock: true, adminToken: 'adm' });
  const state = (operation_id: string) =>
    h.call('POST', '/v1/get_operation_state', { key: KEY_POOL, body: { operation_id } });
  const payOp = (id: string, amount?: string) =>
    h.call('POST', `/sandbox/operations/${id}/pay`, { key: KEY_POOL, body: amount ? { amount } : {} });

  // F1 — a link without explicit bounds has the route's limits as bounds (docs/pool.md, flexible links 8): an amount
  // outside them is a 400 and changes nothing.
  it('F1: confirming an amount outside the route limits of a link with no bounds is a 400 and stores nothing', async () => {
    await layout(h, ['3000.00']);
    const r = await h.call('POST', '/v1/payment/link/flexible', { key: KEY_POOL, body: flex('2800.00') });
    expect(r.body.status).toBe('amount_selection');
    const id = r.body.operation_id;
    const c = await h.call('POST', `/sandbox/links/${id}/confirm`, {
      key: KEY_POOL,
      body: { amount: '1000000000.00' },
    });
    expect(c.status, c.text).toBe(400);
    expect(h.sandbox.store.state.operation(id)).toBeUndefined();
    expect(h.sandbox.store.state.link(id)?.status).toBe('amount_selection');
  });

  // F2 — a payout paid in full waits for its other open claims, so every matched payment's transfer is one item of
  // its receipts (§2.4).
  it('F2: a payment that completes after its payout was filled by an overpayment still appears in the payout receipts', async () => {
    const l = await layout(h, ['1500.00']);
    const a = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1000.00') })).body;
    const b = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('500.00') })).body;
    expect([a.status, b.status]).toEqual(['pending', 'pending']);
    await payOp(a.operation_id, '1500.00'); // A overpays: the payout is paid in full, but B's claim is still open
    expect((await state(l.first_operation_id)).body.status).toBe('pending');
    expect((await payOp(b.operation_id)).body.status).toBe('completed'); // B's transfer completes the payout
    const payout = (await state(l.first_operation_id)).body;
    expect(payout.status).toBe('completed');
    // One item per payment (ordered by completed_at, then id: both completed at the same frozen instant).
    expect(payout.receipts.map((x: { amount: number }) => x.amount).sort((x: number, y: number) => x - y)).toEqual([
      500, 1500,
    ]);
    expect(payout.actual_amount).toBe('2000.00');
  });

  it('F2b: an overpaid payout completes when the last open claim on it is cancelled', async () => {
    const l = await layout(h, ['1500.00']);
    const a = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1000.00') })).body;
    const b = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('500.00') })).body;
    await payOp(a.operation_id, '1500.00');
    expect((await state(l.first_operation_id)).body.status).toBe('pending');
    const c = await h.call('POST', '/v1/cancel_operation', { key: KEY_POOL, body: { operation_id: b.operation_id } });
    expect(c.body.outcome).toBe('cancelled');
    const payout = (await state(l.first_operation_id)).body;
    expect(payout.status).toBe('completed');
    expect(payout.actual_amount).toBe('1500.00');
    expect(payout.receipts.map((x: { amount: number }) => x.amount)).toEqual([1500]);
  });

  // F3 — a filled payout's actual_amount is what its payments paid, and its receipt items add up to it exactly (§2.4).
  it('F3: an overpaid pool payout: receipts add up to actual_amount', async () => {
    const l = await layout(h, ['1500.00']);
    const a = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1500.00') })).body;
    await payOp(a.operation_id, '2000.00');
    const payout = (await state(l.first_operation_id)).body;
    expect(payout.status).toBe('completed');
    const sum = payout.receipts.reduce((s: number, x: { amount: number }) => s + x.amount, 0);
    expect(sum).toBe(Number(payout.actual_amount));
    // The shop is charged what was paid out: actual amount plus commission, the excess taken from the balance.
    expect(payout.settlement_amount).toBe((2000 + Number(payout.commission_amount)).toFixed(2));
    const rub = (await h.call('GET', '/v1/balances', { key: KEY_POOL })).body.balances.find(
      (b: { currency: string }) => b.currency === 'RUB',
    );
    expect(rub.reserved).toBe('0.00');
  });

  // F4 — an underpaid payout whose remainder nobody can match is closed short by the provider: it completes for
  // what was paid and the rest of the reserve returns.
  it('F4: an underpaid pool payout whose remainder cannot be matched can still be resolved (filled or failed)', async () => {
    const l = await layout(h, ['1500.00']);
    const a = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1500.00') })).body;
    await payOp(a.operation_id, '1450.00'); // 50.00 left: below pricing (100.00) and min_piece
    const fill = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('50.00') })).body;
    const fail = await h.call('POST', `/sandbox/operations/${l.first_operation_id}/settle`, {
      key: KEY_POOL,
      body: { outcome: 'failed' },
    });
    expect(
      fill.status === 'pending' || fail.status === 200,
      `fill=${fill.status}/${fill.reject_reason} fail=${fail.status} ${fail.text}`,
    ).toBe(true);
    // Closed short: it completes for what the payer sent, and the unfilled rest of the reserve returns.
    const payout = (await state(l.first_operation_id)).body;
    expect(payout).toMatchObject({ status: 'completed', actual_amount: '1450.00' });
    expect(payout.receipts.map((x: { amount: number }) => x.amount)).toEqual([1450]);
    const rub = (await h.call('GET', '/v1/balances', { key: KEY_POOL })).body.balances.find(
      (b: { currency: string }) => b.currency === 'RUB',
    );
    expect(rub.reserved).toBe('0.00');
  });

  it('F4b: a pool payout cannot be closed while a matched payment is still open', async () => {
    const l = await layout(h, ['1500.00']);
    await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1000.00') });
    const r = await h.call('POST', `/sandbox/operations/${l.first_operation_id}/settle`, {
      key: KEY_POOL,
      body: { outcome: 'failed' },
    });
    expect(r.status).toBe(409);
    expect((await state(l.first_operation_id)).body.status).toBe('pending');
  });

  // F5 — a picker is offered only when some free amount within the bounds is also inside the shop's payin pricing.
  it('F5: amount_selection is not offered when the only free amounts cannot be paid (outside pricing)', async () => {
    await layout(h, ['1500.00']);
    const a = (await h.call('POST', '/v1/payment', { key: KEY_POOL, body: pay('1500.00') })).body;
    await payOp(a.operation_id, '1450.00'); // the only free amount is 50.00
    const r = await h.call('POST', '/v1/payment/link/flexible', { key: KEY_POOL, body: flex('1000.00') });
    expect(r.body.status).toBe('rejected');
  });

  // F6 — recommendations order by exact distance, also for an amount beyond 2^53 cents.
  it('F6: recommendations order by exact distance even for a very large amount', async () => {
    await layout(h, ['2500.00', '2500.50']);
    const r = await h.call('POST', '/v1/payment/recommendations', {
      key: KEY_POOL,
      body: {
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        amount: '99999999999999999.99',
        min_amount: '100.00',
        max_amount: '500000.00',
        limit: 2,
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.recommendations.map((x: { amount: string }) => x.amount)).toEqual(['2500.50', '2500.00']);
  });

  // F7 — the picker is a hosted page: a shop without one is not opted in and gets payment_url null.
  it('F7: a shop without a hosted page never gets a flexible payment_url that 404s', async () => {
    const w = world();
    w.shops.find((s: { id: string }) => s.id === 'shop_pool').hosted_page = false;
    const h2 = await open({ world: w, frozenClock: true });
    const l = await h2.call('POST', '/sandbox/pool/layout', {
      key: KEY_POOL,
      body: { method: 'WT_RUB_C2C', amounts: ['1500.00'] },
    });
    expect(l.status).toBe(200);
    const r = await h2.call('POST', '/v1/payment/link/flexible', { key: KEY_POOL, body: flex('1500.00') });
    expect(r.body.status).toBe('pending');
    if (r.body.payment_url !== null) {
      const page = await h2.call('GET', r.body.payment_url.replace(/^https?:\/\/[^/]+/, ''), { key: null });
      expect(page.status).toBe(200);
    }
  });

  // F8 — a generated layout with min > max is a 400 and creates nothing.
  it('F8: a generated layout with min > max is a 400 and creates nothing', async () => {
    const before = h.sandbox.store.state.operations.size;
    const r = await h.call('POST', '/sandbox/pool/layout', {
      key: KEY_POOL,
      body: { method: 'WT_RUB_C2C', generate: { count: 5, min: '5000.00', max: '1000.00', step: '100.00' } },
    });
    expect(r.status, r.text).toBe(400);
    expect(h.sandbox.store.state.operations.size).toBe(before);
  });
});

// F9 — matching order is creation order (oldest payout first), also for a payout accepted late, and the same after
// a restart.
describe('pool edges: matching order across a restart', () => {
  it('F9: matching order is the same before and after a restart (and oldest payout first)', async () => {
    const dir = tempDir(defer, 'paygate-pool-review-');
    const store = join(dir, 'sandbox.json');
    const w = world();
    const first = (await open({ world: w, store, frozenClock: true })).sandbox;
    const payout = (n: string, client_id: string) => ({
      merchant_operation_id: `po-${n}`,
      client_id,
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
      number: '2200700012345678',
      name: 'R',
    });
    const older = first.service.create('shop_pool', 'payout', payout('older', 'r+slow')); // admitting for 10 s
    await new Promise((r) => setImmediate(r));
    await first.clock.advance(1000);
    const younger = await first.service.create('shop_pool', 'payout', payout('younger', 'r'));
    await first.clock.advance(10_000);
    const olderOp = await older;
    const order = (s: typeof first) => [...s.store.state.poolWindow('pool_main', 'WT_RUB_C2C')!.slots.keys()];
    const before = order(first);
    await first.close();
    const again = (await open({ world: w, store, frozenClock: true })).sandbox;
    const after = order(again);
    expect(after).toEqual(before);
    expect(before).toEqual([olderOp.id, younger.id]);
  });
});
