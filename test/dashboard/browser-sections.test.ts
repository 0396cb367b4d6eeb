// The Balances, Webhooks, Requests, Clock, Pool and Workspaces pages in headless Chromium, with data on each: the
// balance chart's points (read from the SVG's data attributes in the page) matching the ledger's postings read
// through the API, the pool's bars and bands matching pool.show and the availability read, Redeliver, a clock
// advance, a workspace created and deleted, the Requests page following the request log live (no reload), a shop
// key seeing only its shop and no admin control; axe-core with no serious or critical violation on each page, on a
// desktop (English) and a phone (Russian), with no console error or CSP refusal and nothing scrolling sideways.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_A, KEY_B, KEY_POOL, payoutBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { deadPort } from '../helpers/transport.js';
import {
  CONTEXT,
  launch,
  LOCALE_OF,
  overflowsSideways,
  seriousViolations,
  VIEWPORTS,
  watchProblems,
} from '../pages/browser.js';
import { chromiumPath } from '../pages/helpers.js';
import { ADMIN_TOKEN } from './helpers.js';
import { postingsViaApi } from './ledger.js';
import { seed } from './seed.js';

const chromium = chromiumPath();
const port = await deadPort();
const ADMIN = { key: null, headers: { 'x-admin-token': ADMIN_TOKEN } };
/** With PAYGATE_SCREENSHOTS=<dir> (npm run docs: docs/dashboard) each section is saved there, desktop and phone. */
const shots = process.env.PAYGATE_SCREENSHOTS;
const SECTIONS = ['balances', 'webhooks', 'requests', 'clock', 'pool', 'workspaces'] as const;

describe.skipIf(!chromium)('the dashboard sections in Chromium', { timeout: 90_000 }, () => {
  const h = useSandbox({
    transport: 'http',
    per: 'file',
    frozenClock: true,
    startTime: '2026-07-01T10:00:00Z',
    adminToken: ADMIN_TOKEN,
    webhookUrl: `http://127.0.0.1:${port}/hooks`,
  });
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await seed(h);
    const laid = await h.call('POST', '/sandbox/pool/layout', {
      key: KEY_POOL,
      body: { method: 'WT_RUB_C2C', amounts: ['1000.00', '2500.00', '700.00', '4000.00'] },
    });
    expect(laid.status).toBe(200);
    const out = await h.client.payouts.create(payoutBody({ amount: '640.00' }) as never);
    await h.call('POST', `/sandbox/operations/${out.operation_id}/settle`, {
      key: KEY_A,
      body: { outcome: 'completed' },
    });
    await h.sandbox.webhooks.idle();
    browser = await launch(chromium!);
    if (shots) mkdirSync(shots, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
  });

  const dash = (path = '') => `${h.baseUrl}/dashboard${path}`;
  async function open(credential: string, v: 'desktop' | 'phone' = 'desktop') {
    const context = await browser.newContext({ ...CONTEXT, locale: LOCALE_OF[v], viewport: VIEWPORTS[v] });
    contexts.push(context);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(dash('/sign-in'));
    await page.fill('#credential', credential);
    await page.click('main button[type=submit]');
    await page.waitForURL(/\/dashboard\/operations/);
    return { page, problems };
  }

  it('each section: axe finds nothing serious, nothing scrolls sideways, no console error; desktop and phone', async () => {
    for (const v of ['desktop', 'phone'] as const) {
      const { page, problems } = await open(ADMIN_TOKEN, v);
      for (const s of SECTIONS) {
        await page.goto(dash(`/${s}`));
        expect(await page.locator('main h1').count(), `${s} ${v}`).toBe(1);
        expect(await seriousViolations(page), `${s} ${v}`).toEqual([]);
        expect(await overflowsSideways(page), `${s} ${v} scrolls sideways`).toBe(false);
        expect(problems.take(), `${s} ${v}`).toEqual([]);
        if (shots) await page.screenshot({ path: join(shots, `${s}-${v}.png`), fullPage: true });
      }
    }
  });

  it('the balance chart: its points are the postings, folded, and it ends at /v1/balances', async () => {
    const { page } = await open(ADMIN_TOKEN);
    await page.goto(dash('/balances'));
    const points = await page.$$eval('figure[data-shop="shop_a"][data-currency="RUB"] circle.pt', (cs) =>
      cs.map((c) => ({
        posting: c.getAttribute('data-posting')!,
        balance: c.getAttribute('data-balance')!,
        reserved: c.getAttribute('data-reserved')!,
        minus: c.getAttribute('data-current-minus')!,
      })),
    );
    const postings = await postingsViaApi(h, KEY_A);
    const bal = 'shop:shop_a:balance';
    const res = 'shop:shop_a:reserved';
    const cents = (s: string) => Math.round(Number(s) * 100);
    const moving = [...postings.values()].filter(
      (p) => p.currency === 'RUB' && [p.source, p.destination].some((a) => a === bal || a === res),
    );
    expect(
      points
        .filter((p) => !p.posting.startsWith('opening:'))
        .map((p) => p.posting)
        .sort(),
    ).toEqual(moving.map((p) => p.id).sort());
    for (let i = 1; i < points.length; i++) {
      const p = postings.get(points[i]!.posting)!;
      const a = cents(p.amount);
      expect(cents(points[i]!.balance) - cents(points[i - 1]!.balance)).toBe(
        (p.destination === bal ? a : 0) - (p.source === bal ? a : 0),
      );
      expect(cents(points[i]!.reserved) - cents(points[i - 1]!.reserved)).toBe(
        (p.destination === res ? a : 0) - (p.source === res ? a : 0),
      );
    }
    const now = (await h.call('GET', '/v1/balances', { key: KEY_A })).body.balances[0];
    const last = points[points.length - 1]!;
    expect([last.balance, last.reserved, last.minus]).toEqual([now.balance, now.reserved, now.current_minus]);
    expect(await page.locator('figure[data-shop="shop_a"] line[data-mark="payout_reserved"]').count()).toBeGreaterThan(
      0,
    );
    expect(await page.locator('figure[data-shop="shop_a"] line[data-mark="payout_settled"]').count()).toBeGreaterThan(
      0,
    );
    // The chart is drawn: each point inside the plot.
    const box = await page.locator('figure[data-shop="shop_a"][data-currency="RUB"] svg.balance-chart').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
  });

  it('redeliver: the delivery gets another attempt', async () => {
    const { page } = await open(KEY_A);
    await page.goto(dash('/webhooks'));
    const eventId = await page.getAttribute('main form input[name=event_id]', 'value');
    const before = (await h.call('GET', `/sandbox/webhooks/deliveries?event_id=${eventId}`, { key: KEY_A })).body
      .deliveries[0].attempts.length;
    await page.click(`main form:has(input[value="${eventId}"]) button[data-do=redeliver]`);
    await page.waitForURL(/redelivered=/);
    expect(await page.textContent('[role=status]')).toContain(eventId!);
    await h.sandbox.webhooks.idle();
    const after = (await h.call('GET', `/sandbox/webhooks/deliveries?event_id=${eventId}`, { key: KEY_A })).body
      .deliveries[0].attempts.length;
    expect(after).toBe(before + 1);
  });

  it('clock: advance by 2h moves sandbox time by two hours', async () => {
    const { page } = await open(ADMIN_TOKEN);
    await page.goto(dash('/clock'));
    const before = (await h.call('GET', '/sandbox/clock', ADMIN)).body.now;
    expect(await page.textContent('[data-clock=now] .mono')).toBe(before);
    await page.fill('#clock-by', '2h');
    await page.click('button[data-do=advance]');
    await page.waitForURL(/advanced=2h/);
    const now = (await h.call('GET', '/sandbox/clock', ADMIN)).body.now;
    expect(Date.parse(now) - Date.parse(before)).toBe(2 * 3_600_000);
    expect(await page.textContent('[data-clock=now] .mono')).toBe(now);
  });

  it('pool: the bars are the free remainders, the bands the intervals of an availability read', async () => {
    const { page } = await open(ADMIN_TOKEN);
    await page.goto(dash('/pool'));
    await page.selectOption('#pool-shop-0', 'shop_pool');
    await page.fill('#pool-min-0', '100.00');
    await page.fill('#pool-max-0', '5000.00');
    await page.click('#h-pool-0 ~ form button[type=submit]');
    await page.waitForURL(/min_amount=100.00/);
    const bars = await page.$$eval('rect.bar', (rs) => rs.map((r) => r.getAttribute('data-free')!));
    const pools = (await h.call('GET', '/sandbox/pool?limit=200', ADMIN)).body.pools;
    const frees = pools.flatMap((w: { first: Array<{ free: string }> }) => w.first.map((s) => s.free));
    expect(bars).toEqual([...frees].sort((a: string, b: string) => Number(a) - Number(b)));
    const bands = await page.$$eval('rect.band', (rs) =>
      rs.map((r) => ({ min_amount: r.getAttribute('data-min'), max_amount: r.getAttribute('data-max') })),
    );
    const avail = await h.call(
      'GET',
      '/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=100.00&max_amount=5000.00',
      { key: KEY_POOL },
    );
    expect(bands).toEqual(avail.body.intervals);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('workspaces: create shows its secrets once; it is listed; delete removes it', async () => {
    const { page } = await open(ADMIN_TOKEN);
    await page.goto(dash('/workspaces'));
    await page.fill('#ws-id', 'browser-ws');
    await page.click('button[data-do=create]');
    await page.waitForSelector('[data-created="browser-ws"]');
    const token = await page.textContent('[data-created-secret]');
    expect(
      (await h.call('GET', '/w/browser-ws/sandbox/clock', { key: null, headers: { 'x-admin-token': token! } })).status,
    ).toBe(200);
    await page.goto(dash('/workspaces'));
    expect(await page.locator('[data-workspace="browser-ws"]').count()).toBe(1);
    expect(await page.content()).not.toContain(token!);
    await page.click('button[data-do=delete]');
    await page.waitForURL(/deleted=browser-ws/);
    expect(await page.locator('[data-workspace="browser-ws"]').count()).toBe(0);
    expect((await h.call('GET', '/sandbox/workspaces', ADMIN)).body.workspaces).toEqual([]);
  });

  it('requests: a request from another client appears live, without a reload', async () => {
    const { page } = await open(ADMIN_TOKEN);
    await page.goto(dash('/requests'));
    await expect.poll(() => page.getAttribute('table[data-requests-live]', 'data-connected')).toBe('true');
    const marker = await page.evaluate('window.__marker = 1');
    await h.call('GET', '/v1/balances?probe=live', { key: KEY_B });
    await expect
      .poll(() => page.locator('tr[data-request] .mono', { hasText: '/v1/balances?probe=live' }).count())
      .toBe(1);
    expect(await page.evaluate('window.__marker')).toBe(marker ?? 1); // the same document: no reload
    const row = page.locator('tr[data-request]', { hasText: '/v1/balances?probe=live' });
    expect(await row.locator('td').nth(5).textContent()).toBe('shop_b');
  });

  it('a shop key sees only its shop, and no admin control', async () => {
    const { page } = await open(KEY_B);
    expect(await page.locator('nav.sections a[href$="/workspaces"]').count()).toBe(0);
    await page.goto(dash('/balances'));
    expect(await page.locator('figure[data-shop="shop_a"]').count()).toBe(0);
    expect(await page.locator('figure[data-shop="shop_b"]').count()).toBe(1);
    await page.goto(dash('/webhooks'));
    expect(await page.content()).not.toContain('shop_a');
    await page.goto(dash('/clock'));
    expect(await page.locator('button[data-do=advance]').count()).toBe(0);
    await page.goto(dash('/pool'));
    expect(await page.locator('rect.bar').count()).toBe(0);
    expect(await page.locator('#pool-shop-0 option').allTextContents()).toEqual(['shop_b']);
    await page.goto(dash('/requests'));
    const shops = await page.$$eval('tr[data-request] td:nth-child(6)', (tds) => tds.map((t) => t.textContent));
    expect(shops.every((s) => s === 'shop_b' || s === '—')).toBe(true);
    const ws = await page.goto(dash('/workspaces'));
    expect(ws!.status()).toBe(404);
  });
});
