// The packed tarball as a consumer meets it: a project with `strict` and no `skipLibCheck` type-checks
// against every entry; the published types reach no h3, crossws or internal class; exports carry types; the files
// the README links to are in the package; no install script, no source maps pointing at unshipped sources.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, installConsumer, packOnce, type Packed } from './install.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const ENTRIES = [
  'paygate',
  'paygate/client',
  'paygate/contract',
  'paygate/emulator',
  'paygate/webhooks',
  'paygate/testing',
  'paygate/msw',
];

/** A consumer's code: types from every entry, used the way an integration would. */
const CONSUMER_TS = `
import type { Paygate, ClientOptions, Operation as GatewayOperation } from 'paygate';
import { APIError, type OperationStatus } from 'paygate/client';
import type { ErrorBody, WebhookEvent as ContractEvent } from 'paygate/contract';
import type { Sandbox, SandboxOptions, SandboxTls, RunningSandbox } from 'paygate/emulator';
import type { TestSandbox, StartSandboxOptions, ScenarioOutcome } from 'paygate/testing';
import { verifyWebhook, type WebhookEvent } from 'paygate/webhooks';
import type { PaygateHandlers, PaygateHandlersOptions } from 'paygate/msw';

export const options: ClientOptions = { baseUrl: 'http://127.0.0.1:4080', apiKey: 'pg_test_x' };
export const start: StartSandboxOptions = { clock: 'frozen', https: false };
export const sandboxOptions: SandboxOptions = { frozenClock: true, fixtures: 'fixtures/default.json' };
export const handlers: PaygateHandlersOptions = { baseUrl: 'https://gateway.example.com', sandboxOptions };

export async function paid(sb: TestSandbox, client: Paygate): Promise<OperationStatus> {
  const created: GatewayOperation = await client.payments.create({
    method: 'WT_RUB_C2C', amount: '1500.00', currency: 'RUB', client_id: 'alice',
  });
  await sb.pay(created.operation_id);
  await sb.clock.advance('5s');
  const event: WebhookEvent = await sb.webhooks.waitFor('operation.completed', { operationId: created.operation_id });
  return event.data.operation.status;
}

export async function idle(s: Sandbox, running: RunningSandbox): Promise<string | undefined> {
  await s.webhooks.idle();
  const tls: SandboxTls | undefined = s.tls;
  return tls?.fingerprint ?? (running.baseUrl + s.urls.paymentPage + s.demo.shops[0]?.api_key);
}

export function explain(e: unknown, body: ErrorBody, raw: string, secret: string): string {
  const event: ContractEvent = verifyWebhook(raw, {}, secret);
  return e instanceof APIError ? \`\${e.status} \${body.code} \${event.type}\` : 'other';
}

export type Outcome = ScenarioOutcome['ok'];
export type Handlers = PaygateHandlers[number];
`;

function tsconfig(resolution: 'NodeNext' | 'Bundler', files: string[]): object {
  return {
    compilerOptions: {
      strict: true,
      target: 'ES2022',
      module: resolution === 'NodeNext' ? 'NodeNext' : 'ESNext',
      moduleResolution: resolution,
      types: ['node'],
      noEmit: true,
    },
    files,
  };
}

/** tsc over `files` of the consumer project; its output (errors; with --listFiles, every file read). */
function typeCheck(
  dir: string,
  resolution: 'NodeNext' | 'Bundler',
  files: string[],
  ...args: string[]
): { status: number | null; out: string } {
  const config = `tsconfig.${resolution}.json`;
  writeFileSync(join(dir, config), JSON.stringify(tsconfig(resolution, files), null, 2));
  const r = spawnSync(process.execPath, [TSC, '-p', config, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

let dir: string;
let consumer: string;
let packed: Packed;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-pack-'));
  consumer = join(dir, 'consumer');
  packed = await packOnce(dir);
  installConsumer(consumer, packed.tarball, ['@types/node', 'msw']);
  writeFileSync(join(consumer, 'index.ts'), CONSUMER_TS);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a strict consumer of the packed tarball (no skipLibCheck)', () => {
  it('type-checks with NodeNext resolution, and the types it reads name no h3, crossws or internal class', () => {
    const { status, out } = typeCheck(consumer, 'NodeNext', ['index.ts'], '--listFiles');
    expect(out.split('\n').filter((l) => /error TS/.test(l))).toEqual([]);
    expect(status).toBe(0);
    const read = out.split('\n').filter((l) => l.includes('/node_modules/'));
    expect(read.some((f) => f.includes('/paygate/dist/emulator/sandbox.d.ts'))).toBe(true);
    const leaked = read.filter((f) =>
      /\/node_modules\/(h3|crossws|srvx|listhen|lowdb)\/|\/paygate\/dist\/(store\/|domain\/|emulator\/(app|context|runtime\/service|webhooks\/)[^/]*)/.test(
        f,
      ),
    );
    expect(leaked).toEqual([]);
  }, 120_000);

  it("type-checks with Bundler resolution (the exports types conditions), and reports a consumer's own type error", () => {
    // wrong.ts proves the check is live: its one error must be the only one.
    writeFileSync(
      join(consumer, 'wrong.ts'),
      "import type { SandboxUrls } from 'paygate/emulator';\nexport const urls: SandboxUrls = { base: 1 };\n",
    );
    const { status, out } = typeCheck(consumer, 'Bundler', ['index.ts', 'wrong.ts']);
    expect(out.split('\n').filter((l) => /error TS/.test(l))).toEqual([
      expect.stringMatching(/^wrong\.ts\(2,\d+\): error TS2322/),
    ]);
    expect(status).not.toBe(0);
  }, 120_000);

  it('every entry and ./package.json load by name at run time', () => {
    const script = `for (const e of ${JSON.stringify(ENTRIES)}) await import(e);
const { default: pkg } = await import('paygate/package.json', { with: { type: 'json' } });
process.stdout.write(pkg.name);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(out).toBe('paygate');
  }, 120_000);
});

describe('the tarball', () => {
  const manifest = () =>
    JSON.parse(readFileSync(join(consumer, 'node_modules/paygate/package.json'), 'utf8')) as Record<string, unknown>;

  it('every export has a types condition first and both files are shipped', () => {
    const exports = manifest()['exports'] as Record<string, string | { types: string; default: string }>;
    expect(Object.keys(exports).sort()).toEqual([
      '.',
      './client',
      './contract',
      './emulator',
      './msw',
      './package.json',
      './testing',
      './webhooks',
    ]);
    for (const [key, target] of Object.entries(exports)) {
      if (key === './package.json') continue;
      expect(typeof target, key).toBe('object');
      if (typeof target === 'string') continue;
      expect(Object.keys(target)[0], key).toBe('types');
      expect(packed.files, key).toEqual(expect.arrayContaining([target.types.slice(2), target.default.slice(2)]));
    }
  });

  it('runs no script on install (build on prepack, not prepare)', () => {
    const scripts = manifest()['scripts'] as Record<string, string>;
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts[hook], hook).toBeUndefined();
    // A clean build: dist/ is emptied first, so nothing stale (an old source map) is packed.
    expect(scripts['prepack']).toMatch(/rmSync\('dist'.*&& npm run build$/);
  });

  it('ships LICENSE, CHANGELOG.md and README.md, no source map or build info', () => {
    expect(packed.files).toEqual(
      expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'docs/spec/payment-gateway-interface.md']),
    );
    expect(packed.files.filter((f) => /\.(map|tsbuildinfo)$/.test(f))).toEqual([]);
    expect(
      packed.files.filter(
        (f) =>
          f.startsWith('dist/') &&
          /sourceMappingURL/.test(readFileSync(join(consumer, 'node_modules/paygate', f), 'utf8')),
      ),
    ).toEqual([]);
  });

  it('every relative link of a shipped Markdown file points at a shipped file or folder', () => {
    const broken: string[] = [];
    for (const md of packed.files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(consumer, 'node_modules/paygate', md), 'utf8');
      for (const [, href] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!href || /^([a-z]+:|#)/i.test(href)) continue;
        const target = normalize(join(dirname(md), href.split('#')[0]!)).replace(/\/$/, '');
        if (!packed.files.some((f) => f === target || f.startsWith(`${target}/`))) broken.push(`${md}: ${href}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
