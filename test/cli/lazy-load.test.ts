// Fast start: `paygate --help` loads commander and nothing heavy; `paygate balances` loads the client but never
// the emulator, h3, lowdb or @inquirer/prompts, nor zod, undici or the contract (it checks the body with the generated
// light check). Measured by a resolve hook that logs every module URL. bin/paygate.js runs the esbuild bundle
// (dist/cli-bundle, made by `npm run build`): a chunk stands for the modules esbuild put in it (its metafile), so
// the rules below speak of the same source modules with or without the bundle.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BALANCES, fakeServer, ROOT, runCli, tempConfig, type FakeServer } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const HOOK = fileURLToPath(new URL('./load-log-hook.mjs', import.meta.url));
const cfg = tempConfig();
let server: FakeServer;
let clock: FakeServer;
beforeAll(async () => {
  const chunks = JSON.parse(readFileSync(join(BUNDLE, 'chunks.json'), 'utf8')) as Record<string, string[]>;
  for (const [chunk, inputs] of Object.entries(chunks)) {
    chunkInputs.set(
      pathToFileURL(join(ROOT, chunk)).href,
      inputs.map((i) => pathToFileURL(join(ROOT, i)).href),
    );
  }
  server = await fakeServer(() => ({ status: 200, body: BALANCES }));
  clock = await fakeServer((req) =>
    req.url.startsWith('/sandbox/pool/settings')
      ? { status: 200, body: { read_latency_ms: 0, rate_limit: true } }
      : { status: 200, body: { now: '2026-01-01T00:00:00.000Z', frozen: true, pending_timers: 0 } },
  );
});
afterAll(async () => {
  await server.close();
  await clock.close();
  cfg.cleanup();
});

const BUNDLE = join(ROOT, 'dist/cli-bundle');
const mtime = (path: string) => statSync(join(ROOT, path), { throwIfNoEntry: false })?.mtimeMs ?? -1;
/** The source modules (URLs) of each bundle chunk, from esbuild's metafile (dist/cli-bundle/chunks.json). */
const chunkInputs = new Map<string, string[]>();

/** A loaded URL and, for a bundle chunk, the modules it holds. */
function sources(url: string): string[] {
  const inputs = chunkInputs.get(url);
  return inputs ? [url, ...inputs] : [url];
}

/** The modules the CLI loaded (a chunk counts as the modules it holds), and the URLs it loaded as they were. */
async function loaded(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; modules: string[]; urls: string[] }> {
  const log = join(cfg.dir, `load-${Math.random().toString(36).slice(2)}.log`);
  const r = await runCli(args, {
    nodeArgs: ['--import', HOOK],
    env: { PAYGATE_CONFIG: cfg.path, PAYGATE_TEST_LOAD_LOG: log, ...env },
  });
  const urls = readFileSync(log, 'utf8').trim().split('\n');
  return { code: r.code, modules: urls.flatMap(sources), urls };
}

/**
 * The command modules among `modules`: what a command's folder (dist/cli/commands/<command>/) holds but its define.js
 * (flags and help), i.e. its run function and what only it uses; but those under `own` (e.g. 'sandbox/time/').
 */
function commandModules(modules: string[], own?: string): string[] {
  return modules.filter(
    (m) =>
      /\/dist\/cli\/commands\/.+\/[^/]+\.js$/.test(m) &&
      !m.endsWith('/define.js') &&
      (own === undefined || !m.includes(`/dist/cli/commands/${own}`)),
  );
}

const HEAVY = [/\/emulator\//, /node_modules\/h3\//, /node_modules\/lowdb\//, /node_modules\/@inquirer\//];
const DEFERRED = [
  /node_modules\/undici\//,
  /node_modules\/zod\//,
  /node_modules\/ora\//,
  /node_modules\/chalk\//,
  /\/client\//,
  /\/contract\//,
];

describe('lazy loading', () => {
  it('npm run build made the bundle and the light contract, and the CLI runs the bundle', async () => {
    expect(
      mtime('dist/cli-bundle/main.js'),
      'dist/cli-bundle is older than dist/cli: run npm run build',
    ).toBeGreaterThanOrEqual(mtime('dist/cli/main.js'));
    expect(
      mtime('dist/cli-contract/routes.js'),
      'dist/cli-contract is older than dist/: run npm run build',
    ).toBeGreaterThanOrEqual(mtime('dist/client/routes.js'));
    const { code, urls } = await loaded(['state', '--help']);
    expect(code).toBe(0);
    expect(urls.filter((u) => chunkInputs.has(u)).length).toBeGreaterThan(0);
    expect(urls.filter((u) => /\/dist\/(cli|client|contract)\//.test(u))).toEqual([]);
  });

  it('--help loads commander and the small CLI modules only', async () => {
    const { code, modules } = await loaded(['--help']);
    expect(code).toBe(0);
    expect(modules.some((m) => m.includes('node_modules/commander/'))).toBe(true);
    for (const re of [...HEAVY, ...DEFERRED]) expect(modules.filter((m) => re.test(m))).toEqual([]);
    expect(commandModules(modules)).toEqual([]);
  });

  it('a subcommand --help loads no command module either', async () => {
    const { modules } = await loaded(['payment', 'create', '--help']);
    for (const re of [...HEAVY, ...DEFERRED]) expect(modules.filter((m) => re.test(m))).toEqual([]);
    expect(commandModules(modules)).toEqual([]);
  });

  it('completion defines every command yet loads no client, contract or command module but its own', async () => {
    const { code, modules } = await loaded(['completion', 'bash']);
    expect(code).toBe(0);
    expect(modules.some((m) => m.includes('/dist/cli/commands/sandbox/pool/define.js'))).toBe(true);
    // The one contract module it may load: the zod-free list of webhook event types, `trigger <event>`'s choices.
    const loadedNow = modules.filter((m) => !m.endsWith('/dist/contract/webhook-event-types.js'));
    for (const re of [...HEAVY, ...DEFERRED.filter((d) => !d.source.includes('chalk'))])
      expect(loadedNow.filter((m) => re.test(m))).toEqual([]);
    expect(commandModules(modules, 'completion/')).toEqual([]);
  });

  it('balances loads the client but not the emulator, h3, lowdb or @inquirer/prompts (and no spinner without a TTY)', async () => {
    const { code, modules } = await loaded(['balances'], {
      PAYGATE_BASE_URL: server.baseUrl,
      PAYGATE_API_KEY: 'pg_lazy_key_0000',
    });
    expect(code).toBe(0);
    expect(modules.some((m) => m.includes('/dist/cli/commands/balances/run.js'))).toBe(true);
    expect(modules.some((m) => m.includes('/dist/client/'))).toBe(true);
    for (const re of HEAVY) expect(modules.filter((m) => re.test(m))).toEqual([]);
    // The answer is checked by the generated light check, sent over node:http: no zod, no contract, no undici.
    expect(modules.filter((m) => m.endsWith('/dist/cli-contract/checks/balances.list.js'))).toHaveLength(1);
    for (const re of [/node_modules\/zod\//, /node_modules\/undici\//, /\/dist\/contract\//])
      expect(modules.filter((m) => re.test(m))).toEqual([]);
    expect(modules.filter((m) => m.includes('node_modules/ora/'))).toEqual([]);
    expect(commandModules(modules, 'balances/')).toEqual([]);
  });

  it('config set writes the profile file through lowdb; config get reads it without lowdb', async () => {
    const set = await loaded(['config', 'set', 'base-url', 'http://127.0.0.1:9']);
    expect(set.code).toBe(0);
    expect(set.modules.some((m) => /node_modules\/lowdb\//.test(m))).toBe(true);
    expect(set.modules.some((m) => /node_modules\/steno\//.test(m))).toBe(true);
    const get = await loaded(['config', 'get', 'base-url']);
    expect(get.code).toBe(0);
    for (const re of HEAVY) expect(get.modules.filter((m) => re.test(m))).toEqual([]);
  });

  it('sandbox time --help loads no command module; sandbox time loads only its own', async () => {
    const help = await loaded(['sandbox', 'time', 'advance', '--help']);
    for (const re of [...HEAVY, ...DEFERRED]) expect(help.modules.filter((m) => re.test(m))).toEqual([]);
    expect(commandModules(help.modules)).toEqual([]);

    const { code, modules } = await loaded(['sandbox', 'time'], {
      PAYGATE_BASE_URL: clock.baseUrl,
      PAYGATE_ADMIN_TOKEN: 'pg_admin_lazy_0000',
    });
    expect(code).toBe(0);
    expect(modules.some((m) => m.includes('/dist/cli/commands/sandbox/time/run.js'))).toBe(true);
    for (const re of HEAVY) expect(modules.filter((m) => re.test(m))).toEqual([]);
    expect(commandModules(modules, 'sandbox/time/')).toEqual([]);
  });

  it('sandbox pool layout --help loads no command module; sandbox pool settings loads only its own', async () => {
    const help = await loaded(['sandbox', 'pool', 'layout', '--help']);
    for (const re of [...HEAVY, ...DEFERRED]) expect(help.modules.filter((m) => re.test(m))).toEqual([]);
    expect(commandModules(help.modules)).toEqual([]);

    const { code, modules } = await loaded(['sandbox', 'pool', 'settings'], {
      PAYGATE_BASE_URL: clock.baseUrl,
      PAYGATE_ADMIN_TOKEN: 'pg_admin_lazy_0000',
    });
    expect(code).toBe(0);
    expect(modules.some((m) => m.includes('/dist/cli/commands/sandbox/pool/run.js'))).toBe(true);
    for (const re of HEAVY) expect(modules.filter((m) => re.test(m))).toEqual([]);
    expect(commandModules(modules, 'sandbox/pool/')).toEqual([]);
  });
});
