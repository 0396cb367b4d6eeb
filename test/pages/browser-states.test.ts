// Every state of the hosted page in headless Chromium, as each bundled scenarios/hosted-page/ scenario leaves it: on a
// desktop (English) and on a phone (Russian), and at 200 % zoom (and 320 px) — the state shown in the browser's language, axe-core finds no serious or critical violation
// (WCAG 2.1 AA contrast included), nothing scrolls sideways, no console error or CSP refusal. With
// PAYGATE_SCREENSHOTS=<dir> (npm run docs: docs/hosted-page) each state is also saved there, desktop and phone.
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTEXT,
  launch,
  LOCALE_OF,
  overflowsSideways,
  seriousViolations,
  VIEWPORTS,
  watchProblems,
  type Viewport,
} from './browser.js';
import { chromiumPath, closePages, runScenarioPage, scenarioFiles, type ScenarioPage } from './helpers.js';

const chromium = chromiumPath();
const shots = process.env.PAYGATE_SCREENSHOTS;

describe.skipIf(!chromium)('every state of the hosted page in Chromium', { timeout: 30_000 }, () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pages = {} as Record<Viewport, { page: Page; problems: ReturnType<typeof watchProblems> }>;
  const opened: ScenarioPage[] = [];

  beforeAll(async () => {
    browser = await launch(chromium!);
    for (const v of Object.keys(VIEWPORTS) as Viewport[]) {
      const context = await browser.newContext({ ...CONTEXT, locale: LOCALE_OF[v], viewport: VIEWPORTS[v] });
      contexts.push(context);
      const page = await context.newPage();
      pages[v] = { page, problems: watchProblems(page) };
    }
    if (shots) mkdirSync(shots, { recursive: true });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await closePages(opened);
  });

  async function check(v: Viewport, sp: ScenarioPage): Promise<void> {
    const { page, problems } = pages[v];
    await page.goto(sp.url);
    await expect.poll(() => page.getAttribute('main', 'data-state')).toBe(sp.state);
    expect(await page.locator('main h1').count(), v).toBe(1);
    expect(await page.getAttribute('html', 'lang'), v).toBe(LOCALE_OF[v].slice(0, 2));
    // axe on the desktop and the phone; at 200 % zoom what matters is that it reflows.
    if (v !== 'zoom200') expect(await seriousViolations(page), `${sp.file} ${v}`).toEqual([]);
    expect(await overflowsSideways(page), `${sp.file} ${v} scrolls sideways`).toBe(false);
    if (v === 'zoom200') {
      // And the narrowest a page must reflow to (WCAG 1.4.10: 320 CSS pixels).
      await page.setViewportSize({ width: 320, height: 640 });
      expect(await overflowsSideways(page), `${sp.file} at 320 px scrolls sideways`).toBe(false);
      await page.setViewportSize(VIEWPORTS.zoom200);
    }
    if (shots && v !== 'zoom200')
      await page.screenshot({ path: join(shots, `${basename(sp.file, '.yaml')}-${v}.png`), fullPage: true });
    expect(problems.take(), `${sp.file} ${v}`).toEqual([]);
  }

  for (const [i, file] of scenarioFiles().entries()) {
    it(basename(file, '.yaml'), { timeout: 30_000 }, async () => {
      const sp = await runScenarioPage(file, i);
      opened.push(sp);
      // The three viewports at once (one page each, reused from test to test).
      await Promise.all((Object.keys(VIEWPORTS) as Viewport[]).map((v) => check(v, sp)));
      // Leave the page before its sandbox closes, so no live stream is cut under it.
      for (const v of Object.keys(VIEWPORTS) as Viewport[]) await pages[v].page.goto('about:blank');
      await sp.sandbox.close();
    });
  }
});
