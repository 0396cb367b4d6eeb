// Owns the browser side of the hosted-page tests: Debian's chromium driven by playwright-core (executablePath, never a
// downloaded browser), the viewports a payer uses, axe-core's serious and critical violations of a page, and what a
// page complained about (console errors, CSP refusals, uncaught exceptions).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
  /** The desktop at 200 % zoom: half the CSS pixels. */
  zoom200: { width: 640, height: 400 },
} as const;

export type Viewport = keyof typeof VIEWPORTS;

/** The payer's browser: English, Moscow time (so local times differ from the page's UTC). */
export const CONTEXT: BrowserContextOptions = { locale: 'en-US', timezoneId: 'Europe/Moscow', deviceScaleFactor: 1 };

/** The language each viewport's browser asks for: the phone is a Russian payer's, so both languages are checked. */
export const LOCALE_OF: Record<Viewport, string> = { desktop: 'en-US', phone: 'ru-RU', zoom200: 'en-US' };

export function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe-core's violations of impact serious or critical (WCAG 2.1 A/AA and best practices). */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  // Evaluated through the debugging protocol, which the page's CSP does not govern (an injected tag would be refused).
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(axeSource);
  const found =
    (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`)) as AxeFinding[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Collect what the page complains about: console errors (a CSP refusal is one), uncaught exceptions. */
export function watchProblems(page: Page): { take(): string[] } {
  let problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  return {
    take() {
      const out = problems;
      problems = [];
      return out;
    },
  };
}

/** Whether the page scrolls sideways (content wider than the viewport): it must reflow instead. */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(
    'document.documentElement.scrollWidth > document.documentElement.clientWidth',
  ) as Promise<boolean>;
}
