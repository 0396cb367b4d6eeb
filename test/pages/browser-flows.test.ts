// What a payer does on the hosted page, in headless Chromium: the page follows the payment live (no reload) and
// counts down on the sandbox clock in the payer's own time zone; copy buttons; the upload of each sample receipt
// and its outcome; an upload with the keyboard alone; the flexible picker's outcomes (created, taken and picked
// again, expired); the language switch; and the whole path without JavaScript.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_POOL, paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { CONTEXT, launch, VIEWPORTS, watchProblems } from './browser.js';
import { chromiumPath, ROOT } from './helpers.js';

const chromium = chromiumPath();
const ADMIN = { key: null, headers: { 'x-admin-token': 'adm' } };

describe.skipIf(!chromium)('a payer on the hosted page, in Chromium', { timeout: 30_000 }, () => {
  const h = useSandbox({
    transport: 'http',
    per: 'file',
    frozenClock: true,
    startTime: '2026-07-01T10:00:00Z',
    adminToken: 'adm',
  });
  let browser: Browser;
  let withJs: BrowserContext;
  let noJs: BrowserContext;
  let page: Page;
  let plain: Page;
  let problems: ReturnType<typeof watchProblems>;

  beforeAll(async () => {
    browser = await launch(chromium!);
    withJs = await browser.newContext({ ...CONTEXT, viewport: VIEWPORTS.phone });
    await withJs.grantPermissions(['clipboard-read', 'clipboard-write']);
    noJs = await browser.newContext({ ...CONTEXT, viewport: VIEWPORTS.desktop, javaScriptEnabled: false });
    page = await withJs.newPage();
    plain = await noJs.newPage();
    problems = watchProblems(page);
  }, 30_000);

  afterAll(async () => {
    // Leave the pages before the sandbox closes their live streams.
    await page?.goto('about:blank');
    await browser?.close();
  });

  const link = async (over: Record<string, unknown> = {}) =>
    (await h.call('POST', '/v1/payment/link', { body: paymentBody(over) })).body;
  const state = (p: Page = page) => p.getAttribute('main', 'data-state');
  const waitState = (want: string, p: Page = page) => expect.poll(() => state(p), { timeout: 10_000 }).toBe(want);
  const flexible = async (over: Record<string, unknown>) =>
    (
      await h.call('POST', '/v1/payment/link/flexible', {
        key: KEY_POOL,
        body: {
          merchant_operation_id: `f-${Math.random()}`,
          client_id: 'p1',
          method: 'WT_RUB_C2C',
          currency: 'RUB',
          ...over,
        },
      })
    ).body;
  const layout = (amounts: string[]) =>
    h.call('POST', '/sandbox/pool/layout', { key: KEY_POOL, body: { method: 'WT_RUB_C2C', amounts } });

  it(
    'follows the payment live: the countdown moves with the sandbox clock, then "Paid" appears without a reload',
    { timeout: 30_000 },
    async () => {
      const op = await link();
      await page.goto(op.payment_url);
      // The deadline in the payer's time zone (Moscow, UTC+3), counting down on the (frozen) sandbox clock.
      await expect.poll(() => page.textContent('.deadline time')).toBe('July 1, 2026 at 1:30 PM');
      expect(await page.isHidden('.deadline .utc')).toBe(true);
      await expect.poll(() => page.textContent('[data-countdown]')).toBe('30:00 left');
      await page.evaluate('window.__samePage = true');
      await h.call('POST', '/sandbox/clock/advance', { body: { by: '90s' }, ...ADMIN });
      await expect.poll(() => page.textContent('[data-countdown]')).toBe('28:30 left');
      await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
      await waitState('paid');
      expect(await page.evaluate('window.__samePage')).toBe(true);
      expect(await page.textContent('h1')).toBe('Paid');
      expect(await page.textContent('#pg-announce')).toBe('Paid');
      expect(await page.title()).toContain('Paid');
      expect(problems.take()).toEqual([]);
    },
  );

  it('without server-sent events, polls the page and still changes state without a reload', async () => {
    const poller = await withJs.newPage();
    try {
      await poller.addInitScript('delete window.EventSource');
      await poller.clock.install();
      const op = await link();
      await poller.goto(op.payment_url);
      await poller.evaluate('window.__samePage = true');
      await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
      expect(await state(poller)).toBe('waiting');
      await poller.clock.runFor(5000); // the polling interval, on the page's fake clock
      await waitState('paid', poller);
      expect(await poller.evaluate('window.__samePage')).toBe(true);
    } finally {
      await poller.close();
    }
  });

  it('copies the card number without its spaces', async () => {
    const op = await link();
    await page.goto(op.payment_url);
    await page.click('button[aria-label="Copy the card number"]');
    await expect.poll(() => page.textContent('[data-copied]')).toBe('Copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(op.number);
  });

  const samples: [file: string, amount: string, outcome: string][] = [
    ['ok-1500.pdf', '1500.00', 'paid'],
    ['ok-2000.pdf', '2000.00', 'paid'],
    ['ok-2000.pdf', '1500.00', 'review'],
    ['fake-photoshop.pdf', '1500.00', 'review'],
    ['processing-1500.pdf', '1500.00', 'review'],
    ['mismatch-1499.pdf', '1500.00', 'review'],
    ['no-amount.pdf', '1500.00', 'review'],
    ['broken.pdf', '1500.00', 'review'],
  ];

  it(
    'uploads each sample receipt with progress and shows its outcome in the payer’s words',
    { timeout: 60_000 },
    async () => {
      for (const [file, amount, outcome] of samples) {
        const op = await link({ client_id: 'p+receipt', amount });
        await page.goto(op.payment_url);
        await page.setInputFiles('#pg-receipt', `${ROOT}fixtures/receipts/${file}`);
        // Every message the upload shows on its way (progress, then the check).
        await page.evaluate(
          `window.__said = []; new MutationObserver(() => { const m = document.getElementById('pg-upload-msg'); if (m && m.textContent) window.__said.push(m.textContent); }).observe(document.getElementById('pg-main'), { subtree: true, childList: true, characterData: true })`,
        );
        await page.click('form[data-upload] button[type=submit]');
        await waitState(outcome);
        const said = (await page.evaluate('window.__said')) as string[];
        expect(said, file).toContain('Checking the receipt…');
        expect(
          said.some((m) => /^Uploading… \d+ %$/.test(m)),
          `${file}: ${said.join(' | ')}`,
        ).toBe(true);
        expect(await page.evaluate('window.location.pathname'), file).toBe(`/pay/${op.operation_id}`);
        expect(await page.textContent('main'), file).not.toMatch(
          /potential_fake|not_terminal|manual_check|amount_differs/,
        );
      }
      expect(problems.take()).toEqual([]);
    },
  );

  it('refuses a file that is not a PDF before sending it, and says why', async () => {
    const op = await link({ client_id: 'p+receipt' });
    await page.goto(op.payment_url);
    await page.setInputFiles('#pg-receipt', `${ROOT}fixtures/receipts/not-a-pdf.png`);
    await expect.poll(() => page.textContent('#pg-upload-msg')).toContain('This file is not a PDF.');
    expect(await page.getAttribute('#pg-receipt', 'aria-invalid')).toBe('true');
    await page.click('form[data-upload] button[type=submit]');
    expect(await state()).toBe('upload');
    expect((await h.call('GET', `/sandbox/operations/${op.operation_id}`, {})).body.uploads).toHaveLength(0);
  });

  it('uploads with the keyboard alone', { timeout: 30_000 }, async () => {
    const op = await link({ client_id: 'k+receipt' });
    await page.goto(op.payment_url);
    let tabs = 0;
    while ((await page.evaluate('document.activeElement && document.activeElement.id')) !== 'pg-receipt' && tabs++ < 20)
      await page.keyboard.press('Tab');
    expect(tabs).toBeLessThan(20);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(`${ROOT}fixtures/receipts/ok-1500.pdf`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Upload receipt');
    await page.keyboard.press('Enter');
    await waitState('paid');
  });

  it(
    'the picker: a chosen amount becomes the payment; availability and expiry follow live',
    { timeout: 30_000 },
    async () => {
      await layout(['30000.00']);
      const f = await flexible({ recommended_amount: '29800.00', min_amount: '29000.00', max_amount: '30000.00' });
      await page.goto(f.payment_url);
      await waitState('choose');
      await page.fill('#pg-range-29000-00', '29 400');
      await page.click('.pick-range button');
      await waitState('waiting');
      expect(await page.textContent('main')).toContain('₽29,400.00');
      // Another link: what the pool can take changes under the open picker, then its time runs out.
      await layout(['40000.00']);
      const g = await flexible({ recommended_amount: '39800.00', min_amount: '39000.00', max_amount: '40000.00' });
      await page.goto(g.payment_url);
      await expect.poll(() => page.locator('button[name=amount][value="40000.00"]').count()).toBe(1);
      await h.call('POST', '/v1/payment', { key: KEY_POOL, body: paymentBody({ amount: '40000.00' }) });
      await expect.poll(() => page.locator('button[name=amount][value="40000.00"]').count()).toBe(0);
      expect(await page.textContent('main')).toContain('No amount can be paid right now.');
      await h.call('POST', '/sandbox/clock/advance', { body: { by: '15m' }, ...ADMIN });
      await waitState('expired');
      expect(await page.textContent('h1')).toBe('The time to pay has run out');
    },
  );

  it('switches the language and keeps the link’s credential', async () => {
    await layout(['50000.00']);
    const f = await flexible({ recommended_amount: '49800.00', min_amount: '49000.00', max_amount: '50000.00' });
    await page.goto(f.payment_url);
    await page.click('a[hreflang=ru]');
    await waitState('choose');
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    expect(await page.textContent('h1')).toBe('Выберите сумму');
    const url = new URL(page.url());
    expect(url.searchParams.get('k')).toBe(new URL(f.payment_url).searchParams.get('k'));
  });

  it(
    'without JavaScript: refreshes while waiting, uploads through the form, and picks again when the amount was taken',
    { timeout: 30_000 },
    async () => {
      const op = await link();
      await plain.goto(op.payment_url);
      expect(await plain.locator('meta[http-equiv=refresh]').count()).toBe(1);
      expect(await plain.isVisible('[data-check-again]')).toBe(true);
      const r = await link({ client_id: 'n+receipt' });
      await plain.goto(r.payment_url);
      await plain.setInputFiles('#pg-receipt', `${ROOT}fixtures/receipts/fake-photoshop.pdf`);
      await plain.click('form[data-upload] button[type=submit]');
      await waitState('review', plain);
      expect(new URL(plain.url()).pathname).toBe(`/pay/${r.operation_id}`);
      // Rule 6: the amount is taken between showing the picker and the payer's choice. (Amounts above every other
      // test's slots, which would otherwise cover them.)
      await layout(['90000.00']);
      const f = await flexible({ recommended_amount: '89800.00', min_amount: '89600.00', max_amount: '90000.00' });
      await plain.goto(f.payment_url);
      await h.call('POST', '/v1/payment', { key: KEY_POOL, body: paymentBody({ amount: '90000.00' }) });
      await layout(['89700.00']);
      await plain.click('button[name=amount][value="90000.00"]');
      await waitState('choose', plain);
      expect(await plain.textContent('[role=alert]')).toContain('That amount was just taken by another payment.');
      await plain.click('button[name=amount][value="89700.00"]');
      await waitState('waiting', plain);
      expect(await plain.textContent('main')).toContain('₽89,700.00');
    },
  );
});
