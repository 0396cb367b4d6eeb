// The Balances, Webhooks, Requests, Clock, Pool and Workspaces pages over HTTP, no browser: what each shows beside
// what the API answers (the balance chart's points beside the postings and GET /v1/balances, the pool's bars and
// intervals beside pool.show and the availability read), each action and its effect through the same control as the
// CLI (redeliver, clock advance, workspace create and delete), their refusals and CSRF refusals, and a shop key
// seeing only its shop and only the controls its key may call.
import { beforeAll, describe, expect, it } from 'vitest';
import { KEY_A, KEY_B, KEY_POOL, paymentBody, payoutBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { deadPort } from '../helpers/transport.js';
import { ADMIN_TOKEN, expectCleanMarkup, expectSafeHeaders, get, postForm, signIn, type Signed } from './helpers.js';
import { attr, chartPoints, postingsViaApi } from './ledger.js';
import { MAX_POINTS, WINDOW_OPS } from '../../src/emulator/dashboard/pages/balance-series.js';

const T0 = '2026-07-01T10:00:00.000Z';
const AS_ADMIN = { key: null, headers: { 'x-admin-token': ADMIN_TOKEN } };

/** Cents of a decimal string (exact for scale 2). */
const cents = (s: string) => Math.round(Number(s) * 100);

describe('dashboard pages over HTTP', () => {
  let port = 0;
  beforeAll(async () => {
    port = await deadPort();
  });
  const h = useSandbox(() => ({
    adminToken: ADMIN_TOKEN,
    frozenClock: true,
    startTime: T0,
    webhookUrl: `http://127.0.0.1:${port}/hooks`,
  }));
  const post = (s: Signed, path: string, fields: Record<string, string>) =>
    postForm(h, path, { _csrf: s.csrf, ...fields }, { cookie: s.cookie });

  it('balances: the chart has a point per posting, each the fold of the postings, ending at /v1/balances', async () => {
    const pay = await h.client.payments.create(paymentBody({ amount: '1000.00' }) as never);
    await h.call('POST', `/sandbox/operations/${pay.operation_id}/pay`, { key: KEY_A, body: {} });
    const out = await h.client.payouts.create(payoutBody({ amount: '300.00' }) as never);
    await h.call('POST', `/sandbox/operations/${out.operation_id}/settle`, {
      key: KEY_A,
      body: { outcome: 'completed' },
    });
    await h.client.payments.create(paymentBody({ amount: '50.00' }) as never);

    const admin = await signIn(h, ADMIN_TOKEN);
    const page = await get(h, '/dashboard/balances', admin);
    expect(page.status).toBe(200);
    expectSafeHeaders(page);
    expectCleanMarkup(page.text);
    const points = chartPoints(page.text, 'shop_a');
    const postings = await postingsViaApi(h, KEY_A);
    // Every posting that moves shop_a's accounts is a point (the opening balance is the first), in order.
    const bal = 'shop:shop_a:balance';
    const res = 'shop:shop_a:reserved';
    const moving = [...postings.values()].filter(
      (p) => p.currency === 'RUB' && [p.source, p.destination].some((a) => a === bal || a === res),
    );
    const opPoints = points.filter((p) => !p.posting.startsWith('opening:'));
    expect(opPoints.map((p) => p.posting).sort()).toEqual(moving.map((p) => p.id).sort());
    expect(points.map((p) => p.kind)).toContain('payout_reserved');
    expect(points.map((p) => p.kind)).toContain('payout_settled');
    // Each step is exactly its posting's effect on the shop's balance and reserved accounts.
    for (let i = 1; i < points.length; i++) {
      const p = postings.get(points[i]!.posting)!;
      const a = cents(p.amount);
      const dBal = (p.destination === bal ? a : 0) - (p.source === bal ? a : 0);
      const dRes = (p.destination === res ? a : 0) - (p.source === res ? a : 0);
      expect(cents(points[i]!.balance) - cents(points[i - 1]!.balance), p.id).toBe(dBal);
      expect(cents(points[i]!.reserved) - cents(points[i - 1]!.reserved), p.id).toBe(dRes);
      const minus = Math.max(-(cents(points[i]!.balance) + cents(points[i]!.reserved)), 0);
      expect(cents(points[i]!.minus)).toBe(minus);
    }
    const last = points[points.length - 1]!;
    const now = (await h.call('GET', '/v1/balances', { key: KEY_A })).body.balances[0];
    expect([last.balance, last.reserved, last.minus]).toEqual([now.balance, now.reserved, now.current_minus]);
    // The moments payouts were reserved and settled are marked.
    expect(page.text).toContain('data-mark="payout_reserved"');
    expect(page.text).toContain('data-mark="payout_settled"');
    // The admin sees every shop; a shop key only its own.
    expect(page.text).toContain('data-shop="shop_b"');
    const shopB = await signIn(h, KEY_B);
    const own = await get(h, '/dashboard/balances', shopB);
    expect(own.status).toBe(200);
    expect(own.text).not.toContain('data-shop="shop_a"');
    expect(own.text).not.toContain(pay.operation_id);
    expect(chartPoints(own.text, 'shop_b').length).toBeGreaterThan(0);
  });

  it('balances of a shop with more operations than the chart covers: still exact, ending at /v1/balances', async () => {
    // Payouts laid out in the pool: each reserves from shop_pool's balance.
    const laid = await h.call('POST', '/sandbox/pool/layout', {
      key: KEY_POOL,
      body: { method: 'WT_RUB_C2C', generate: { count: WINDOW_OPS + 5, min: '500.00', max: '900.00', seed: 7 } },
    });
    expect(laid.body.created).toBe(WINDOW_OPS + 5);
    const s = await signIn(h, KEY_POOL);
    const page = await get(h, '/dashboard/balances', s);
    expect(page.text).toContain(`newest ${WINDOW_OPS} operations`);
    const points = chartPoints(page.text, 'shop_pool');
    expect(points.some((p) => p.posting.startsWith('opening:'))).toBe(false);
    expect(points.length).toBeLessThanOrEqual(MAX_POINTS);
    const shown = new Set(points.map((p) => p.posting.split(':')[0]!));
    const postings = new Map<string, { source: string; destination: string; amount: string }>();
    for (const id of shown) {
      const d = await h.call('GET', `/sandbox/operations/${id}`, { key: KEY_POOL });
      for (const p of d.body.postings) postings.set(p.id, p);
    }
    const bal = 'shop:shop_pool:balance';
    for (let i = 1; i < points.length; i++) {
      const p = postings.get(points[i]!.posting)!;
      const a = cents(p.amount);
      expect(cents(points[i]!.balance) - cents(points[i - 1]!.balance)).toBe(
        (p.destination === bal ? a : 0) - (p.source === bal ? a : 0),
      );
    }
    const now = (await h.call('GET', '/v1/balances', { key: KEY_POOL })).body.balances[0];
    expect(points[points.length - 1]!.balance).toBe(now.balance);
  });

  it('webhooks: endpoints masked, deliveries by status, Redeliver through webhooks.redeliver, CSRF and scope', async () => {
    const added = await h.call('POST', '/sandbox/webhooks', {
      key: KEY_A,
      body: { url: `http://127.0.0.1:${port}/second` },
    });
    expect(added.status).toBe(201);
    const op = await h.client.payments.create(paymentBody() as never);
    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { key: KEY_A, body: {} });
    await h.sandbox.webhooks.idle();
    const s = await signIn(h, KEY_A);
    const page = await get(h, '/dashboard/webhooks', s);
    expect(page.status).toBe(200);
    expectCleanMarkup(page.text);
    expect(page.text).toContain(`http://127.0.0.1:${port}/second`);
    expect(page.text).not.toContain(added.body.secret);
    expect(page.text).toContain(`whsec_…${added.body.secret.slice(-4)}`);
    const api = (await h.call('GET', '/sandbox/webhooks/deliveries?limit=200', { key: KEY_A })).body
      .deliveries as Array<{
      event_id: string;
      status: string;
      attempts: unknown[];
    }>;
    const statuses = (html: string) => [...html.matchAll(/data-delivery-status="(\w+)"/g)].map((m) => m[1]);
    expect(statuses(page.text)).toEqual(api.map((d) => d.status));
    for (const st of ['pending', 'succeeded', 'failed']) {
      const filtered = await get(h, `/dashboard/webhooks?status=${st}`, s);
      expect(statuses(filtered.text)).toEqual(api.filter((d) => d.status === st).map((d) => d.status));
    }
    // Redeliver: a new attempt of that event.
    const target = api[0]!;
    const r = await post(s, '/dashboard/webhooks', { shop: 'shop_a', event_id: target.event_id });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`/dashboard/webhooks?redelivered=${target.event_id}`);
    await h.sandbox.webhooks.idle();
    const after = (await h.call('GET', `/sandbox/webhooks/deliveries?event_id=${target.event_id}`, { key: KEY_A })).body
      .deliveries[0];
    expect(after.attempts.length).toBe(target.attempts.length + 1);
    expect((await get(h, r.headers.get('location')!, s)).text).toContain(`Done: redelivered ${target.event_id}.`);
    // Without the CSRF token: 403, nothing done.
    const forged = await postForm(
      h,
      '/dashboard/webhooks',
      { shop: 'shop_a', event_id: target.event_id },
      { cookie: s.cookie },
    );
    expect(forged.status).toBe(403);
    // A shop key cannot act for another shop, nor see its endpoints.
    const other = await post(s, '/dashboard/webhooks', { shop: 'shop_b', event_id: target.event_id });
    expect(other.status).toBe(404);
    expect(page.text).not.toContain('shop_b');
    // An unknown event: the control's refusal, on the page.
    const unknown = await post(s, '/dashboard/webhooks', { shop: 'shop_a', event_id: 'evt_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('role="alert"');
  });

  it('requests: the request log, masked, in the session scope, with its live stream', async () => {
    await h.client.payments.create(paymentBody() as never);
    await h.call('GET', '/v1/balances', { key: KEY_B });
    const s = await signIn(h, KEY_A);
    const page = await get(h, '/dashboard/requests', s);
    expect(page.status).toBe(200);
    expectCleanMarkup(page.text);
    expect(page.text).toContain('data-requests-live="/dashboard/requests/events"');
    expect(page.text).toContain('/v1/payment');
    expect(page.text).not.toMatch(/<td data-label="Shop">shop_b</);
    expect(page.text).not.toContain(KEY_A);
    const admin = await signIn(h, ADMIN_TOKEN);
    expect((await get(h, '/dashboard/requests', admin)).text).toMatch(/<td data-label="Shop">shop_b</);
    // The stream answers only a session.
    expect((await get(h, '/dashboard/requests/events')).status).toBe(401);
  });

  it('clock: now, frozen, the next timer; advance by a duration; a bad one refused; a shop key gets no control', async () => {
    await h.client.payouts.create(payoutBody() as never);
    const admin = await signIn(h, ADMIN_TOKEN);
    const page = await get(h, '/dashboard/clock', admin);
    expect(page.status).toBe(200);
    expectCleanMarkup(page.text);
    const clock = (await h.call('GET', '/sandbox/clock', AS_ADMIN)).body;
    expect(page.text).toContain(`data-clock="now"><span class="mono">${clock.now}</span>`);
    expect(page.text).toContain('data-clock="frozen"');
    if (clock.next_timer_at) expect(page.text).toContain(`data-clock="next"><span class="mono">${clock.next_timer_at}`);
    const r = await post(admin, '/dashboard/clock', { by: '1h30m' });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard/clock?advanced=1h30m');
    const now = (await h.call('GET', '/sandbox/clock', AS_ADMIN)).body.now;
    expect(Date.parse(now) - Date.parse(clock.now)).toBe(90 * 60_000);
    expect((await get(h, r.headers.get('location')!, admin)).text).toContain('Done: the clock advanced by 1h30m.');
    const bad = await post(admin, '/dashboard/clock', { by: '90 minutes' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('a duration such as 500ms');
    expect(bad.text).toContain(
      'id="clock-by" name="by" required autocomplete="off" spellcheck="false" value="90 minutes"',
    );
    expect((await h.call('GET', '/sandbox/clock', AS_ADMIN)).body.now).toBe(now);
    const forged = await postForm(h, '/dashboard/clock', { by: '1h' }, { cookie: admin.cookie });
    expect(forged.status).toBe(403);

    const shop = await signIn(h, KEY_A);
    const own = await get(h, '/dashboard/clock', shop);
    expect(own.status).toBe(200);
    expect(own.text).not.toContain('data-do="advance"');
    expect(own.text).toContain('clock.advance');
    expect((await post(shop, '/dashboard/clock', { by: '1h' })).status).toBe(403);
    expect((await h.call('GET', '/sandbox/clock', AS_ADMIN)).body.now).toBe(now);
  });

  it('pool: a bar per open payout at its free remainder, and the intervals the availability read returns', async () => {
    const laid = await h.call('POST', '/sandbox/pool/layout', {
      key: KEY_POOL,
      body: { method: 'WT_RUB_C2C', amounts: ['1000.00', '2500.00', '700.00'] },
    });
    expect(laid.status).toBe(200);
    const admin = await signIn(h, ADMIN_TOKEN);
    const page = await get(
      h,
      '/dashboard/pool?method=WT_RUB_C2C&shop=shop_pool&min_amount=100.00&max_amount=3000.00',
      admin,
    );
    expect(page.status).toBe(200);
    expectCleanMarkup(page.text);
    const state = (await h.call('GET', '/sandbox/pool?limit=200', AS_ADMIN)).body.pools;
    const slots = state.flatMap((w: { first: Array<{ payout_id: string; free: string }> }) => w.first);
    const bars = [...page.text.matchAll(/<rect class="bar"[^>]*>/g)].map(([t]) => [
      attr(t, 'data-payout'),
      attr(t, 'data-free'),
    ]);
    expect(bars.length).toBe(slots.length);
    expect(new Map(bars as Array<[string, string]>)).toEqual(
      new Map(slots.map((s: { payout_id: string; free: string }) => [s.payout_id, s.free])),
    );
    // Smallest first.
    expect(bars.map(([, f]) => Number(f))).toEqual([...bars.map(([, f]) => Number(f))].sort((a, b) => a - b));
    const avail = await h.call(
      'GET',
      '/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=100.00&max_amount=3000.00',
      { key: KEY_POOL },
    );
    const bands = [...page.text.matchAll(/<rect class="band"[^>]*>/g)].map(([t]) => ({
      min_amount: attr(t, 'data-min'),
      max_amount: attr(t, 'data-max'),
    }));
    expect(bands).toEqual(avail.body.intervals);
    expect(bands.length).toBeGreaterThan(0);
    // A range the availability read refuses: its 4xx and message on the page.
    const bad = await get(h, '/dashboard/pool?method=WT_RUB_C2C&shop=shop_pool&min_amount=lots&max_amount=1.00', admin);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert"');
    // A shop key: no pool.show (admin), the availability read of its own shop only.
    const shop = await signIn(h, KEY_POOL);
    const own = await get(h, '/dashboard/pool', shop);
    expect(own.status).toBe(200);
    expect(own.text).toContain('pool.show');
    expect(own.text).not.toContain('class="bar"');
    expect(own.text).not.toContain('<option>shop_a</option>');
  });

  it('workspaces: list, create (its secrets shown once, on the answer), delete; admin only; CSRF', async () => {
    const admin = await signIn(h, ADMIN_TOKEN);
    const page = await get(h, '/dashboard/workspaces', admin);
    expect(page.status).toBe(200);
    expectCleanMarkup(page.text);
    expect(page.text).toContain('No workspaces besides the default one.');
    const created = await post(admin, '/dashboard/workspaces', { action: 'create', id: 'dash-ws' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.text).toContain('data-created="dash-ws"');
    const token = /data-created-secret>([^<]+)</.exec(created.text)![1]!;
    expect(
      (await h.call('GET', '/w/dash-ws/sandbox/clock', { key: null, headers: { 'x-admin-token': token } })).status,
    ).toBe(200);
    const list = await get(h, '/dashboard/workspaces', admin);
    expect(list.text).toContain('data-workspace="dash-ws"');
    expect(list.text).not.toContain(token);
    // A refusal: the id is taken.
    const twice = await post(admin, '/dashboard/workspaces', { action: 'create', id: 'dash-ws' });
    expect(twice.status).toBe(409);
    expect(twice.text).toContain('role="alert"');
    const forged = await postForm(
      h,
      '/dashboard/workspaces',
      { action: 'delete', id: 'dash-ws' },
      { cookie: admin.cookie },
    );
    expect(forged.status).toBe(403);
    const shop = await signIn(h, KEY_A);
    expect((await get(h, '/dashboard/workspaces', shop)).status).toBe(404);
    expect((await post(shop, '/dashboard/workspaces', { action: 'delete', id: 'dash-ws' })).status).toBe(404);
    const del = await post(admin, '/dashboard/workspaces', { action: 'delete', id: 'dash-ws' });
    expect(del.status).toBe(303);
    expect(del.headers.get('location')).toBe('/dashboard/workspaces?deleted=dash-ws');
    expect((await h.call('GET', '/sandbox/workspaces', AS_ADMIN)).body.workspaces).toEqual([]);
  });
});
