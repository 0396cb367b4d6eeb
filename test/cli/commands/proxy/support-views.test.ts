// `paygate ops list | show | watch` and `paygate logs tail` through the binary, pointed at a proxy (--base-url, the
// proxy's admin token) in front of a sandbox (issue 27 §1): they show the operations and requests that passed through
// it — the timeline as seen — and `ops watch` exits 0 once a terminal status passes through.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { createConformanceChecker } from '../../../../src/conformance/index.js';
import { createProxy } from '../../../../src/proxy/server.js';
import { startSandbox, type TestSandbox } from '../../../../src/testing/index.js';
import { useCleanup } from '../../../helpers/cleanup.js';
import { BIN, ROOT, runCli } from '../../run-cli.js';

vi.setConfig({ testTimeout: 90_000 });
const defer = useCleanup();

/** A long-running CLI command: its stdout lines as they come, SIGINT, and its exit code. */
class Running {
  readonly lines: string[] = [];
  stderr = '';
  readonly #child: ChildProcessWithoutNullStreams;
  #buf = '';
  #waiters: { n: number; resolve: () => void }[] = [];
  readonly exited: Promise<number | null>;

  constructor(args: string[]) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('PAYGATE_') && k !== 'FORCE_COLOR') env[k] = v;
    env.NO_COLOR = '1';
    this.#child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    this.#child.stdout.setEncoding('utf8').on('data', (d: string) => {
      this.#buf += d;
      let i: number;
      while ((i = this.#buf.indexOf('\n')) >= 0) {
        this.lines.push(this.#buf.slice(0, i));
        this.#buf = this.#buf.slice(i + 1);
      }
      this.#waiters = this.#waiters.filter((w) => (this.lines.length >= w.n ? (w.resolve(), false) : true));
    });
    this.exited = new Promise((r) => this.#child.once('close', (code) => r(code)));
    defer(async () => {
      if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
      await this.exited;
    });
  }

  printed(n: number): Promise<void> {
    if (this.lines.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }

  interrupt(): Promise<number | null> {
    this.#child.kill('SIGINT');
    return this.exited;
  }
}

async function setup(): Promise<{ sb: TestSandbox; url: string; flags: string[] }> {
  const sb = await startSandbox();
  defer(() => sb.close());
  const proxy = createProxy({ upstream: new URL(sb.baseUrl), checker: createConformanceChecker() });
  const { url } = await proxy.listen();
  defer(() => proxy.close());
  return { sb, url, flags: ['--base-url', url, '--admin-token', proxy.adminToken] };
}

async function post(url: string, key: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

const create = (url: string, key: string, moid: string) =>
  post(url, key, '/v1/payment', {
    merchant_operation_id: moid,
    client_id: 'dora',
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
  });

describe('the support commands pointed at paygate proxy', () => {
  it('ops list --json, ops show --json (pending then completed as seen), logs tail --json', async () => {
    const { sb, url, flags } = await setup();
    const key = sb.keys.shop_a!;
    const id = (await create(url, key, 'order-7')).operation_id as string;
    await sb.pay(id);
    await post(url, key, '/v1/get_operation_state', { operation_id: id });

    const listed = await runCli(['ops', 'list', '--json', ...flags]);
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout) as { operations: Array<Record<string, unknown>> };
    expect(page.operations.map((r) => [r.operation_id, r.status, r.merchant_operation_id])).toEqual([
      [id, 'completed', 'order-7'],
    ]);
    const none = await runCli(['ops', 'list', '--status', 'pending', '--json', ...flags]);
    expect(JSON.parse(none.stdout)).toMatchObject({ total: 0, operations: [] });

    const shown = await runCli(['ops', 'show', 'order-7', '--json', ...flags]);
    expect(shown.code).toBe(0);
    const d = JSON.parse(shown.stdout) as { history: Array<{ from: string | null; to: string; cause: string }> };
    expect(d.history.map((h) => `${h.from ?? '-'} → ${h.to}: ${h.cause}`)).toEqual([
      '- → pending: create answered (exchange #1)',
      'pending → completed: seen on state read (exchange #2)',
    ]);
    const text = await runCli(['ops', 'show', id, ...flags]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/pending → completed +\(seen on state read \(exchange #2\)\)/);

    const tail = new Running(['logs', 'tail', '--json', '--since-start', '5', ...flags]);
    await tail.printed(2);
    expect(await tail.interrupt()).toBe(0);
    const entries = tail.lines.map((l) => JSON.parse(l) as { method: string; path: string; status: number });
    expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /v1/payment 200',
      'POST /v1/get_operation_state 200',
    ]);
    expect([listed, shown, text].map((r) => r.stdout + r.stderr).join('') + tail.lines.join('')).not.toContain(key);
  });

  it('ops watch <id> exits 0 once a terminal status passes through the proxy', async () => {
    const { sb, url, flags } = await setup();
    const key = sb.keys.shop_a!;
    const id = (await create(url, key, 'order-8')).operation_id as string;
    const watch = new Running(['ops', 'watch', id, '--json', ...flags]);
    await watch.printed(1);
    await sb.pay(id);
    await post(url, key, '/v1/get_operation_state', { operation_id: id });
    expect(await watch.exited).toBe(0);
    expect(watch.lines.map((l) => (JSON.parse(l) as { status: string }).status)).toEqual(['pending', 'completed']);
  });

  it('without the proxy’s admin token: 401, as the sandbox answers', async () => {
    const { url } = await setup();
    const r = await runCli(['ops', 'list', '--base-url', url, '--admin-token', 'pg_wrong_token_123']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid_admin_token|invalid admin token/);
  });
});
