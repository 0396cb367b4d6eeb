// What a developer and a support engineer do on the dashboard, in headless Chromium: sign in and out (a wrong
// credential refused, nothing of it in any URL, page, cookie or log), a shop key's narrower view, the list and an
// open operation following the sandbox live (no reload) after a create and a `sandbox pay` from another client,
// the filters, every action button and its effect, redeliver, and a forged form refused.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_B } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { deadPort } from '../helpers/transport.js';
import { CONTEXT, launch, VIEWPORTS, watchProblems } from '../pages/browser.js';
import { chromiumPath } from '../pages/helpers.js';
import { ADMIN_TOKEN } from './helpers.js';
import { pay, seed } from './seed.js';

const chromium = chromiumPath();
const port = await deadPort();
const ADMIN = { key: null, headers: { 'x-admin-token': ADMIN_TOKEN } };

describe.skipIf(!chromium)('the dashboard in Chromium', { timeout: 60_000 }, () => {
  const h = useSandbox({
    transport: 'http',
    per: 'file',
    frozenClock: true,
    startTime: '2026-07-01T10:00:00Z',
    adminToken: ADMIN_TOKEN,
    webhookUrl: `http://127.0.0.1:${port}/hooks`,
  });
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: ReturnType<typeof watchProblems>;
  const urls: string[] = [];

  beforeAll(async () => {
    await seed(h);
    browser = await launch(chromium!);
    context = await browser.newContext({ ...CONTEXT, viewport: VIEWPORTS.desktop });
    context.on('request', (r) => urls.push(r.url()));
    page = await context.newPage();
    problems = watchProblems(page);
  }, 60_000);

  afterAll(async () => {
    await page?.goto('about:blank');
    await browser?.close();
  });

  const dash = (path = '') => `${h.baseUrl}/dashboard${path}`;
  async function signIn(p: Page, credential: string): Promise<void> {
    await p.goto(dash('/sign-in'));
    await p.fill('#credential', credential);
    await p.click('main button[type=submit]');
  }
  const rows = (p: Page = page) =>
    p.$$eval('tr[data-row]', (trs) => trs.map((tr) => [tr.getAttribute('data-row'), tr.getAttribute('data-status')]));
  const live = (p: Page = page) => expect.poll(() => p.getAttribute('main', 'data-connected')).toBe('true');

  it('signs in and out; a wrong credential is refused; no credential in any URL, page, cookie or log', async () => {
    await page.goto(dash());
    expect(page.url()).toBe(dash('/sign-in'));
    await signIn(page, 'pg_admin_not_the_token');
    expect(await page.textContent('[role=alert]')).toContain('neither the admin token nor a valid API key');
    expect(await page.inputValue('#credential')).toBe('');
    expect(await page.getAttribute('#credential', 'type')).toBe('password');
    // The refusal is a 401 answer, which the browser reports as such; nothing else.
    expect(problems.take()).toEqual([expect.stringContaining('status of 401')]);
    await signIn(page, ADMIN_TOKEN);
    await page.waitForURL(dash('/operations'));
    expect(await page.textContent('.who')).toContain('Signed in as admin');
    expect(await page.content()).not.toContain(ADMIN_TOKEN);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'paygate_dashboard', httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    expect(cookie!.value).not.toContain(ADMIN_TOKEN);
    expect(await page.evaluate('document.cookie')).toBe(''); // HttpOnly: no script reads it

    await page.click('.signout button');
    await page.waitForURL(/\/dashboard\/sign-in\?out=1$/);
    expect(await page.textContent('[role=status]')).toContain('You are signed out.');
    await page.goto(dash('/operations'));
    expect(page.url()).toMatch(/\/dashboard\/sign-in\?next=/);
    expect(await context.cookies()).toEqual([]);

    for (const secret of [ADMIN_TOKEN, 'pg_admin_not_the_token']) {
      expect(urls.filter((u) => u.includes(secret))).toEqual([]);
    }
    const log = JSON.stringify((await h.call('GET', '/sandbox/logs?limit=2000', ADMIN)).body);
    expect(log).not.toContain(ADMIN_TOKEN);
    expect(log).not.toContain('pg_admin_not_the_token');
    expect(log).not.toContain(cookie!.value);
    expect(problems.take()).toEqual([]);
  });

  it("a shop's key sees its own shop only, without the admin's controls", async () => {
    const shop = await context.browser()!.newContext({ ...CONTEXT, viewport: VIEWPORTS.phone });
    try {
      const p = await shop.newPage();
      await signIn(p, KEY_B);
      await p.waitForURL(dash('/operations'));
      const shopsShown = await p.$$eval('td[data-label="Shop"]', (tds) => [...new Set(tds.map((t) => t.textContent))]);
      expect(shopsShown).toEqual(['shop_b']);
      expect(await p.locator('a[href$="/dashboard/workspaces"]').count()).toBe(0);
      expect(await p.locator('#f-shop').count()).toBe(0);
      expect(await p.content()).not.toContain(KEY_B);
      await p.goto('about:blank');
    } finally {
      await shop.close();
    }
  });

  it('the list follows the sandbox: a create and a `sandbox pay` from another client appear without a reload', async () => {
    await signIn(page, ADMIN_TOKEN);
    await page.waitForURL(dash('/operations'));
    await live();
    await page.evaluate('window.__samePage = true');
    const op = (await h.call('POST', '/v1/payment', { body: pay({ merchant_operation_id: 'live-1' }) })).body;
    await expect.poll(async () => (await rows())[0]).toEqual([op.operation_id, 'pending']);
    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
    await expect.poll(async () => (await rows())[0]).toEqual([op.operation_id, 'completed']);
    expect(await page.getAttribute(`tr[data-row="${op.operation_id}"]`, 'class')).toContain('fresh');
    expect(await page.evaluate('window.__samePage')).toBe(true);
    expect(problems.take()).toEqual([]);
  });

  it('the filters narrow the list', async () => {
    await page.goto(dash('/operations'));
    await page.selectOption('#f-status', 'completed');
    await page.selectOption('#f-shop', 'shop_a');
    await page.click('form[method=get] button[type=submit]');
    await page.waitForURL(/status=completed/);
    const found = await rows();
    expect(found.length).toBeGreaterThan(0);
    for (const [, status] of found) expect(status).toBe('completed');
    const shops = await page.$$eval('td[data-label="Shop"]', (tds) => [...new Set(tds.map((t) => t.textContent))]);
    expect(shops).toEqual(['shop_a']);
    await page.fill('#f-merchant_operation_id', 'order-1001');
    await page.click('form[method=get] button[type=submit]');
    await page.waitForURL(/merchant_operation_id=order-1001/);
    expect(await page.$$eval('td[data-label="merchant_operation_id"]', (t) => t.map((x) => x.textContent))).toEqual([
      'order-1001',
    ]);
  });

  it('an open operation follows a `sandbox pay`; its diagram then highlights the path pending → completed', async () => {
    const op = (await h.call('POST', '/v1/payment', { body: pay() })).body;
    await page.goto(dash(`/operations/${op.operation_id}`));
    await live();
    await page.evaluate('window.__samePage = true');
    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
    await expect.poll(() => page.textContent('h1 .status')).toBe('completed');
    expect(await page.evaluate('window.__samePage')).toBe(true);
    const highlighted = await page.$$eval('svg.diagram.wide .edge.on', (es) =>
      es.map((e) => e.getAttribute('data-edge')),
    );
    expect(highlighted).toEqual(['pending:completed']);
    const width = (sel: string) =>
      page.evaluate(`parseFloat(getComputedStyle(document.querySelector('${sel}')).strokeWidth)`) as Promise<number>;
    expect(await width('.wide .edge.on path')).toBeGreaterThan(await width('.wide .edge:not(.on) path'));
    expect(await page.$$eval('ol.timeline li', (li) => li.map((x) => x.getAttribute('data-move')))).toEqual([
      ':pending',
      'pending:completed',
    ]);
    expect(problems.take()).toEqual([]);
  });

  it('every action button calls its control; redeliver adds an attempt', async () => {
    const details = async (id: string) =>
      (await h.call('GET', `/sandbox/operations/${id}`, ADMIN)).body.operation as Record<string, string>;
    const click = async (id: string, action: string, amount?: string) => {
      await page.goto(dash(`/operations/${id}`));
      if (amount !== undefined) await page.fill(`#amount-${action}`, amount);
      await page.click(`button[data-action="${action}"]`);
      await page.waitForURL(/\?done=/);
      expect(await page.textContent('.notice.ok')).toContain('Done');
    };
    const created = async (body: Record<string, unknown>, path = '/v1/payment') =>
      (await h.call('POST', path, { body })).body.operation_id as string;

    const a = await created(pay());
    await click(a, 'pay');
    expect(await details(a)).toMatchObject({ status: 'completed', actual_amount: '1500.00' });
    const b = await created(pay());
    await click(b, 'pay_other', '1234.50');
    expect(await details(b)).toMatchObject({ status: 'completed', actual_amount: '1234.50' });
    const c = await created(pay());
    await click(c, 'cancel');
    expect((await details(c)).status).toBe('cancelled');
    for (const outcome of ['completed', 'failed']) {
      const p = await created({ ...pay(), number: '2200700000000004' }, '/v1/payout');
      await click(p, `settle_${outcome}`);
      expect((await details(p)).status).toBe(outcome === 'completed' ? 'completed' : 'rejected');
    }
    for (const decision of ['approve', 'decline']) {
      const ops = (await h.call('GET', '/sandbox/operations?status=manual_check', ADMIN)).body.operations;
      let id = ops[0]?.operation_id as string | undefined;
      if (!id) {
        id = await created(pay({ method: 'WT_RUB_PHONE' }));
        await h.client.payments.confirm({
          operation_id: id,
          receipt: `${process.cwd()}/fixtures/receipts/mismatch-1499.pdf`,
        });
      }
      await click(id, decision);
      expect((await details(id)).status).toBe(decision === 'approve' ? 'completed' : 'rejected');
    }

    // Redeliver: one more attempt of that delivery.
    await h.sandbox.webhooks.idle();
    await page.goto(dash(`/operations/${a}`));
    const attempts = () => page.locator('.delivery').first().locator('tbody tr').count();
    const before = await attempts();
    await page.locator('button[data-action="redeliver"]').first().click();
    await page.waitForURL(/\?done=redeliver/);
    await h.sandbox.webhooks.idle();
    await page.reload();
    expect(await attempts()).toBe(before + 1);
    expect(problems.take()).toEqual([]);
  });

  it('a form whose CSRF token was tampered with is refused, and nothing happens', async () => {
    const op = (await h.call('POST', '/v1/payment', { body: pay() })).body;
    await page.goto(dash(`/operations/${op.operation_id}`));
    await live();
    // The token forged and the form sent in one step (a live update could otherwise swap the form back in).
    await Promise.all([
      page.waitForNavigation(),
      page.evaluate(
        `(() => { const f = document.querySelector('button[data-action="pay"]').form; f.querySelector('input[name=_csrf]').value = 'forged'; f.requestSubmit(); })()`,
      ),
    ]);
    await expect.poll(() => page.textContent('main h1')).toBe('Refused');
    expect(await page.textContent('[role=alert]')).toContain('did not come from this dashboard');
    const d = (await h.call('GET', `/sandbox/operations/${op.operation_id}`, ADMIN)).body;
    expect(d.operation.status).toBe('pending');
    problems.take(); // the 403 answer is logged by the browser as a failed resource
  });
});
