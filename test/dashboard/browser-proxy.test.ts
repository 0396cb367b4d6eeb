// The dashboard on `paygate proxy` in headless Chromium: signed in with the proxy's admin token (a wrong one
// refused), the list of the proxied operations follows the traffic live (no reload) after a create through the
// proxy, an operation of a drifting upstream shows its violation on the timeline and in its panel, no action and no
// sandbox section is offered (their addresses 404), and axe-core finds no serious or critical violation on any of
// its pages, desktop and phone. With PAYGATE_SCREENSHOTS=<dir> (npm run docs: docs/dashboard) the operation page with
// its violation is saved there, desktop and phone.
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deferred } from '../helpers/cleanup.js';
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
import { createThrough, driftedPayment, proxied, type Proxied } from './proxy-setup.js';

const chromium = chromiumPath();
const shots = process.env.PAYGATE_SCREENSHOTS;
const VIEWS = ['desktop', 'phone'] as const;

describe.skipIf(!chromium)('the dashboard on the proxy in Chromium', { timeout: 60_000 }, () => {
  const closing: Deferred[] = [];
  let p: Proxied;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pages = {} as Record<(typeof VIEWS)[number], { page: Page; problems: ReturnType<typeof watchProblems> }>;

  beforeAll(async () => {
    p = await proxied((fn) => closing.push(fn));
    browser = await launch(chromium!);
    for (const v of VIEWS) {
      const context = await browser.newContext({ ...CONTEXT, locale: LOCALE_OF[v], viewport: VIEWPORTS[v] });
      contexts.push(context);
      const page = await context.newPage();
      pages[v] = { page, problems: watchProblems(page) };
    }
  }, 60_000);

  afterAll(async () => {
    for (const v of VIEWS) await pages[v]?.page.goto('about:blank');
    await browser?.close();
    for (const fn of closing.reverse()) await fn();
  });

  const dash = (path = '') => `${p.url}/dashboard${path}`;
  const rows = (page: Page) => page.$$eval('tr[data-row]', (trs) => trs.map((tr) => tr.getAttribute('data-row')));

  async function signIn(page: Page, credential: string): Promise<void> {
    await page.goto(dash('/sign-in'));
    await page.fill('#credential', credential);
    await page.click('main button[type=submit]');
  }

  async function accessible(v: (typeof VIEWS)[number], name: string): Promise<void> {
    const { page, problems } = pages[v];
    expect(await page.locator('main h1').count(), `${name} ${v}`).toBe(1);
    expect(await seriousViolations(page), `${name} ${v}`).toEqual([]);
    expect(await overflowsSideways(page), `${name} ${v} scrolls sideways`).toBe(false);
    expect(problems.take(), `${name} ${v}`).toEqual([]);
  }

  it('signs in with the proxy’s admin token (a wrong one refused); only its three sections are offered', async () => {
    const { page, problems } = pages.desktop;
    await page.goto(dash());
    expect(page.url()).toBe(dash('/sign-in'));
    await accessible('desktop', 'sign-in');
    await signIn(page, 'pg_proxy_not_the_token');
    expect(await page.textContent('[role=alert]')).toContain('That is not the admin token of this proxy.');
    expect(await page.inputValue('#credential')).toBe('');
    expect(problems.take()).toEqual([expect.stringContaining('status of 401')]);
    await signIn(page, p.proxy.adminToken);
    await page.waitForURL(dash('/operations'));
    expect(await page.content()).not.toContain(p.proxy.adminToken);
    expect(await page.$$eval('nav.sections a', (as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '/dashboard/operations',
      '/dashboard/violations',
      '/dashboard/requests',
    ]);
    for (const section of ['balances', 'clock', 'pool', 'workspaces', 'webhooks']) {
      const r = await page.goto(dash(`/${section}`));
      expect(r!.status(), section).toBe(404);
      expect(await page.textContent('main h1')).toBe('Not found');
    }
    problems.take(); // the 404s above, as the browser reports them
  });

  it('the list shows an operation created through the proxy live, without a reload', async () => {
    const { page } = pages.desktop;
    const before = await createThrough(p, 'live-before');
    await page.goto(dash('/operations'));
    expect(await rows(page)).toContain(before);
    await expect.poll(() => page.getAttribute('main', 'data-connected')).toBe('true');
    await page.evaluate('window.__same = true');
    const id = await createThrough(p, 'live-after');
    await expect.poll(() => rows(page)).toEqual([id, before]);
    expect(await page.evaluate('window.__same')).toBe(true); // the same document: no reload
    expect(await page.getAttribute(`tr[data-row="${id}"]`, 'data-status')).toBe('pending');
  });

  it('an operation of a drifting upstream: its violation on the timeline and in its panel, no action', async () => {
    const id = await driftedPayment(p, 'drift-browser');
    await signIn(pages.phone.page, p.proxy.adminToken);
    await pages.phone.page.waitForURL(dash('/operations'));
    for (const v of VIEWS) {
      const { page } = pages[v];
      await page.goto(dash(`/operations/${id}`));
      const line = page.locator('li[data-violation]', { hasText: /state\.illegal_move \(§[\d.]+, operation\.state/ });
      expect(await line.count()).toBe(1);
      expect(await page.locator('#h-violations').count()).toBe(1);
      expect(await page.locator('[data-rule="state.illegal_move"]').count()).toBeGreaterThan(0);
      expect(await page.locator('[data-action]').count()).toBe(0);
      expect(await page.locator('main form').count()).toBe(0);
      expect(await page.locator('svg.diagram g.edge.on[data-edge="pending:completed"]').count()).toBeGreaterThan(0);
      await accessible(v, 'proxy-operation');
      if (shots) await page.screenshot({ path: join(shots, `proxy-operation-${v}.png`), fullPage: true });
    }
  });

  it('a sandbox’s dashboard and the proxy’s in one browser: each keeps its own session (the port is no boundary)', async () => {
    const context = await browser.newContext({ ...CONTEXT, viewport: VIEWPORTS.desktop });
    try {
      const page = await context.newPage();
      const sandboxDash = (path: string) => `${p.sb.baseUrl}/dashboard${path}`;
      await page.goto(sandboxDash('/sign-in'));
      await page.fill('#credential', p.sb.adminToken);
      await page.click('main button[type=submit]');
      await page.waitForURL(sandboxDash('/operations'));
      await signIn(page, p.proxy.adminToken);
      await page.waitForURL(dash('/operations'));
      for (let round = 0; round < 2; round++) {
        await page.goto(sandboxDash('/operations'));
        expect(page.url(), `sandbox, round ${round}`).toBe(sandboxDash('/operations'));
        await page.goto(dash('/violations'));
        expect(page.url(), `proxy, round ${round}`).toBe(dash('/violations'));
      }
      const names = (await context.cookies()).map((c) => c.name).sort();
      expect(names).toEqual(['paygate_dashboard', 'paygate_proxy_dashboard']);
    } finally {
      await context.close();
    }
  });

  it('every page of the proxy’s dashboard passes axe-core, desktop and phone', async () => {
    for (const v of VIEWS) {
      for (const path of ['/operations', '/violations', '/requests']) {
        await pages[v].page.goto(dash(path));
        await accessible(v, path);
      }
      await pages[v].page.goto(dash('/violations'));
      const link = pages[v].page.locator('table.violations a').first();
      await link.click();
      await pages[v].page.waitForURL(/\/dashboard\/operations\/[0-9a-f-]+$/);
    }
  });
});
