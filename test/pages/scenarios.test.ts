// Every state of the hosted page is reached by a bundled scenario (scenarios/hosted-page/, tag `page:<state>`), and
// the page of each scenario's `page` step shows exactly that state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_STATES } from '../../src/emulator/pages/state.js';
import { closePages, scenarioPages, type ScenarioPage } from './helpers.js';

describe('hosted-page scenarios', () => {
  let pages: ScenarioPage[] = [];
  beforeAll(async () => {
    pages = await scenarioPages();
  }, 60_000);
  afterAll(() => closePages(pages));

  it('reach every state of the page', () => {
    const reached = new Set(pages.map((p) => p.state));
    expect(PAGE_STATES.filter((s) => !reached.has(s))).toEqual([]);
  });

  it('each leaves its page in the state its tag names', async () => {
    for (const p of pages) {
      const res = await fetch(p.url);
      const html = await res.text();
      expect(res.status, p.file).toBe(200);
      expect(/data-state="([a-z_]+)"/.exec(html)?.[1], p.file).toBe(p.state);
    }
  });
});
