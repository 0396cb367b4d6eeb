// Owns what the hosted-page tests share: each bundled scenarios/hosted-page/ scenario run against its own listening
// sandbox (so its page can be opened afterwards), the page of a scenario's `page` step, raw page requests (forms,
// multipart uploads, SSE), and finding Debian's chromium for the browser tests (a loud skip when there is none).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseScenario } from '../../src/scenarios/load.js';
import { runOneScenario } from '../../src/scenarios/run-scenario.js';
import type { Sandbox } from '../../src/emulator/index.js';
import { createSandbox } from '../../src/emulator/index.js';

export const ROOT = new URL('../../', import.meta.url).pathname;
export const SCENARIO_DIR = join(ROOT, 'scenarios/hosted-page');
export const sample = (name: string) => new Uint8Array(readFileSync(join(ROOT, 'fixtures/receipts', name)));

export interface ScenarioPage {
  file: string;
  name: string;
  /** The page state the scenario reaches (its `page:<state>` tag). */
  state: string;
  /** The payment_url of its `page` step. */
  url: string;
  sandbox: Sandbox;
}

/** Run one hosted-page scenario against a fresh sandbox listening on 127.0.0.1:0, and leave that sandbox open. */
export async function runScenarioPage(file: string, index: number): Promise<ScenarioPage> {
  const s = parseScenario(readFileSync(file, 'utf8'), file);
  const fixtures =
    s.fixtures === 'default' ? undefined : isAbsolute(s.fixtures) ? s.fixtures : resolve(dirname(file), s.fixtures);
  const sandbox = await createSandbox({
    ...(fixtures ? { fixtures } : {}),
    frozenClock: true,
    startTime: s.startTime,
    log: () => {},
  });
  try {
    const { url: baseUrl } = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    const keys = Object.fromEntries(sandbox.demo.shops.map((x) => [x.id, x.api_key]));
    const shop = s.shop ?? sandbox.demo.shops[0]!.id;
    // Its own fixtures are already the sandbox's: run it as a default-world scenario with the sandbox's keys.
    const result = await runOneScenario(
      { ...s, fixtures: 'default', shop },
      { seed: 7, index, remote: { baseUrl, keys, adminToken: sandbox.adminToken, reset: false } },
    );
    if (result.status !== 'passed')
      throw new Error(
        `${file}: ${result.status} ${JSON.stringify(result.steps.find((x) => x.status === 'failed') ?? result.error)}`,
      );
    const step = result.steps.find((x) => x.id === 'page');
    const url = (step?.response?.body as { payment_url?: string } | undefined)?.payment_url;
    const state = s.tags?.find((t) => t.startsWith('page:'))?.slice('page:'.length);
    if (!url || !state)
      throw new Error(`${file}: needs a step with id "page" answering a payment_url, and a page:<state> tag`);
    return { file, name: s.name, state, url, sandbox };
  } catch (e) {
    await sandbox.close();
    throw e;
  }
}

export function scenarioFiles(): string[] {
  return readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(SCENARIO_DIR, f));
}

/** Every hosted-page scenario's page (each in its own sandbox; close them with closePages). */
export async function scenarioPages(): Promise<ScenarioPage[]> {
  const out: ScenarioPage[] = [];
  try {
    for (const [i, f] of scenarioFiles().entries()) out.push(await runScenarioPage(f, i));
  } catch (e) {
    await closePages(out);
    throw e;
  }
  return out;
}

export async function closePages(pages: readonly ScenarioPage[]): Promise<void> {
  await Promise.all(pages.map((p) => p.sandbox.close()));
}

/** A multipart receipt form as a browser would send it. */
export async function receiptForm(
  file: Uint8Array,
  filename = 'receipt.pdf',
  type = 'application/pdf',
): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.set('receipt', new Blob([file], { type }), filename);
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { body: new Uint8Array(await req.arrayBuffer()), contentType: req.headers.get('content-type')! };
}

/** Where Debian's chromium is, or undefined (the browser tests then skip, loudly). */
export function chromiumPath(): string | undefined {
  const found = [process.env.PAYGATE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => !!p && existsSync(p),
  );
  if (!found) {
    const line = '!'.repeat(100);
    console.warn(
      `\n${line}\n!! SKIPPED: the hosted page's browser tests need Chromium (Debian package "chromium"), and none was found at\n` +
        `!! /usr/bin/chromium or /usr/bin/chromium-browser (or $PAYGATE_CHROMIUM). Install it: apt-get install -y chromium\n${line}\n`,
    );
  }
  return found;
}
