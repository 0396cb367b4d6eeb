// The support commands as the real binary runs them (a subprocess against a sandbox of this process): exit codes
// (0, 1 API error, 2 usage, 3 connection), the admin token against a shop key, `ops watch` ending by itself once the
// operation is terminal, Ctrl+C (SIGINT) ending `ops watch` and `logs tail` with exit 0 like `webhooks listen`, and
// --help with an example on every new command.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { json, ok, usage, useLiveSandbox } from './live-sandbox.js';
import { BIN, deadPort, ROOT, runCli } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_ops_test';
const live = useLiveSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: ADMIN,
  shop: 'shop_a',
});
/** Only the admin token (every shop). */
const adminEnv = () => ({ ...live.env, PAYGATE_API_KEY: undefined });
/** Only shop A's key. */
const keyEnv = () => ({ ...live.env, PAYGATE_ADMIN_TOKEN: undefined });

/** A payment of shop A. */
const created = (moid: string, client = 'cli-user') =>
  live.api('POST', '/v1/payment', 'key', {
    merchant_operation_id: moid,
    client_id: client,
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
  }) as Promise<{ operation_id: string }>;

/** A long-running CLI command: its stdout lines as they come, SIGINT, and its exit code. */
class Running {
  readonly lines: string[] = [];
  stderr = '';
  readonly #child: ChildProcessWithoutNullStreams;
  #buf = '';
  #waiters: { n: number; resolve: () => void }[] = [];
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: Record<string, string | undefined>) {
    const full: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith('PAYGATE_') && k !== 'FORCE_COLOR') full[k] = v;
    for (const [k, v] of Object.entries(env)) if (v !== undefined) full[k] = v;
    full.NO_COLOR = '1';
    this.#child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: full, stdio: ['pipe', 'pipe', 'pipe'] });
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
  }

  /** Resolves once `n` lines were printed. */
  printed(n: number): Promise<void> {
    if (this.lines.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ n, resolve }));
  }

  interrupt(): Promise<number | null> {
    this.#child.kill('SIGINT');
    return this.exited;
  }
}

/** Resolves once the sandbox has one more operation-stream listener (a watch connected). */
function watchConnected(): Promise<void> {
  const set = live.h.sandbox.service.writeListeners;
  const before = set.size;
  return new Promise((resolve) => {
    const add = set.add.bind(set);
    set.add = (l) => {
      const r = add(l);
      if (set.size > before) {
        set.add = add;
        resolve();
      }
      return r;
    };
  });
}

describe('exit codes', () => {
  it('0: ops list across shops with the admin token, --json the body', async () => {
    const op = await created('proc-1');
    const out = ok(await runCli(['ops', 'list', '--merchant-operation-id', 'proc-1'], { env: adminEnv() }));
    expect(out).toMatch(
      /^\S+Z +\S+Z +shop_a +proc-1 +cli-user +payment +WT_RUB_C2C +1500\.00 RUB +0\.00 RUB +pending +create$/m,
    );
    const body = json(
      await runCli(['ops', 'list', '--merchant-operation-id', 'proc-1', '--json'], { env: adminEnv() }),
    );
    expect(body).toEqual(await live.api('GET', '/sandbox/operations?merchant_operation_id=proc-1', 'admin'));
    expect((body.operations as { operation_id: string }[])[0]!.operation_id).toBe(op.operation_id);
  });

  it('2: a bad flag value, naming the flag, before any request', async () => {
    usage(
      await runCli(['ops', 'list', '--since', 'last week'], { env: adminEnv() }),
      '--since "last week": must be an RFC 3339 timestamp or a date',
    );
    usage(await runCli(['ops', 'list', '--min-amount', '1,500.00'], { env: adminEnv() }), '--min-amount');
    usage(await runCli(['logs', 'tail', '--status', '4'], { env: adminEnv() }), '--status "4"');
    usage(await runCli(['ops', 'list', '--limit', '0'], { env: adminEnv() }), '--limit');
  });

  it('2: neither an admin token nor an API key; balances --all-shops without the admin token', async () => {
    usage(
      await runCli(['ops', 'list'], {
        env: { ...live.env, PAYGATE_API_KEY: undefined, PAYGATE_ADMIN_TOKEN: undefined },
      }),
      'no sandbox admin token and no API key',
      '--admin-token',
    );
    usage(
      await runCli(['balances', '--all-shops'], { env: keyEnv() }),
      'no sandbox admin token',
      'PAYGATE_ADMIN_TOKEN',
    );
  });

  it("1: a shop's key naming another shop (400), an unknown operation (404), a shared merchant_operation_id (409)", async () => {
    const other = await runCli(['ops', 'list', '--shop', 'shop_b'], { env: keyEnv() });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('admin token');
    const missing = await runCli(['ops', 'show', '00000000-0000-5000-8000-000000000000'], { env: adminEnv() });
    expect(missing.code).toBe(1);
    await created('proc-shared');
    const res = await fetch(`${live.h.baseUrl}/v1/payment`, {
      method: 'POST',
      headers: { 'x-api-key': live.h.keyOf('shop_b'), 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant_operation_id: 'proc-shared',
        client_id: 'b',
        method: 'WT_RUB_C2C',
        amount: '900.00',
        currency: 'RUB',
      }),
    });
    expect(res.status).toBe(200);
    const shared = await runCli(['ops', 'show', 'proc-shared'], { env: adminEnv() });
    expect(shared.code).toBe(1);
    expect(shared.stderr).toMatch(/ambiguous_reference: .*shop_a.*--shop|ambiguous_reference: .*shop_b.*--shop/);
    expect(ok(await runCli(['ops', 'show', 'proc-shared', '--shop', 'shop_b'], { env: adminEnv() }))).toMatch(
      /^shop_id +shop_b$/m,
    );
    // ops watch resolves it as ops show does.
    const watched = await runCli(['ops', 'watch', 'proc-shared'], { env: adminEnv() });
    expect(watched.code).toBe(1);
    expect(watched.stderr).toMatch(/ambiguous_reference: .*shop_a.*--shop|ambiguous_reference: .*shop_b.*--shop/);
  });

  it('3: nothing listening at the base URL', async () => {
    const r = await runCli(['ops', 'list'], {
      env: { ...adminEnv(), PAYGATE_BASE_URL: `http://127.0.0.1:${await deadPort()}` },
    });
    expect(r.code).toBe(3);
    const w = await runCli(['logs', 'tail'], {
      env: { ...adminEnv(), PAYGATE_BASE_URL: `http://127.0.0.1:${await deadPort()}` },
    });
    expect(w.code).toBe(3);
  });
});

describe('live commands', () => {
  it('ops watch <merchant_operation_id> --shop: prints the current state, then the change, and exits 0 once terminal', async () => {
    const op = await created('proc-watch');
    const connected = watchConnected();
    const watch = new Running(['ops', 'watch', 'proc-watch', '--shop', 'shop_a'], adminEnv());
    await connected;
    await watch.printed(1);
    await live.api('POST', `/sandbox/operations/${op.operation_id}/pay`, 'key', {});
    expect(await watch.exited).toBe(0);
    expect(watch.lines).toHaveLength(2);
    expect(watch.lines[0]).toMatch(
      / shop_a {2}proc-watch {2}payment WT_RUB_C2C {2}1500\.00 RUB {2}pending {2}\(create\)/,
    );
    expect(watch.lines[1]).toMatch(/ pending → completed {2}\(payer transferred 1500\.00 RUB\)/);
    expect(watch.stderr).toContain('Ctrl+C stops');
  });

  it('ops watch <merchant_operation_id> without --shop, like ops show: the one shop that used it', async () => {
    const op = await created('proc-watch-noshop');
    expect(ok(await runCli(['ops', 'show', 'proc-watch-noshop'], { env: adminEnv() }))).toMatch(/^shop_id +shop_a$/m);
    const connected = watchConnected();
    const watch = new Running(['ops', 'watch', 'proc-watch-noshop'], adminEnv());
    await connected;
    await watch.printed(1);
    await live.api('POST', `/sandbox/operations/${op.operation_id}/pay`, 'key', {});
    expect(await watch.exited).toBe(0);
    expect(watch.lines[0]).toMatch(
      / shop_a {2}proc-watch-noshop {2}payment WT_RUB_C2C {2}1500\.00 RUB {2}pending {2}\(create\)/,
    );
    expect(watch.lines[1]).toMatch(/ pending → completed/);
  });

  it('ops watch (a tail, --json): one JSON object per line; Ctrl+C ends it with exit 0', async () => {
    const connected = watchConnected();
    const watch = new Running(['ops', 'watch', '--client-id', 'proc-tail', '--json'], adminEnv());
    await connected;
    await created('proc-tail-1', 'proc-tail');
    await created('proc-other', 'someone-else');
    await created('proc-tail-2', 'proc-tail');
    await watch.printed(2);
    expect(await watch.interrupt()).toBe(0);
    expect(watch.lines.map((l) => (JSON.parse(l) as { merchant_operation_id: string }).merchant_operation_id)).toEqual([
      'proc-tail-1',
      'proc-tail-2',
    ]);
    expect(live.h.sandbox.service.writeListeners.size).toBe(0);
  });

  it('logs tail: its own connection first, then each request as one line; Ctrl+C ends it with exit 0', async () => {
    const tail = new Running(['logs', 'tail', '--since-start', '0'], adminEnv());
    await tail.printed(1);
    expect(tail.lines[0]).toMatch(/ - +GET +\/sandbox\/logs\/stream\?backlog=0 +200 /);
    const res = await fetch(`${live.h.baseUrl}/v1/balances?k=visible-secret`, {
      headers: { 'x-api-key': 'pg_test_wrong' },
    });
    await res.text();
    await tail.printed(2);
    expect(await tail.interrupt()).toBe(0);
    expect(tail.lines[1]).toMatch(
      new RegExp(
        `^\\S+Z {2}- +GET +/v1/balances\\?k=\\*\\*\\* +401 +[\\d.]+ ms {2}invalid_api_key +${res.headers.get('x-request-id')}$`,
      ),
    );
    expect(tail.lines.join('\n')).not.toContain('visible-secret');
  });
});

describe('--help', () => {
  const commands = [
    ['ops'],
    ['ops', 'list'],
    ['ops', 'show'],
    ['ops', 'watch'],
    ['logs'],
    ['logs', 'tail'],
    ['balances'],
  ];
  it.concurrent.each(commands.map((c) => [c.join(' '), c] as const))('%s --help has an example', async (_, cmd) => {
    const r = await runCli([...cmd, '--help'], { env: { PAYGATE_CONFIG: live.cfg.path } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: paygate/);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain(`$ paygate ${cmd[0]}`);
  });

  it('ops list --help names every filter and the output forms', async () => {
    const r = await runCli(['ops', 'list', '--help'], { env: { PAYGATE_CONFIG: live.cfg.path } });
    for (const flag of [
      '--status',
      '--type',
      '--method',
      '--client-id',
      '--merchant-operation-id',
      '--shop',
      '--since',
      '--until',
      '--min-amount',
      '--max-amount',
      '--limit',
      '--cursor',
      '--all',
      '--json',
      '--csv',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });
});
