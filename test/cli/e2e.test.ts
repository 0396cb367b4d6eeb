// End to end against the real sandbox: the CLI as a subprocess, human and --json output of every data command,
// API errors (401, 412) with exit 1, exit 3 when nothing listens, and no API key ever printed in full.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useLiveSandbox } from './live-sandbox.js';
import { deadPort, runCli, transcript } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// A frozen clock: nothing settles or expires between the CLI's read and the raw read it is compared with.
const live = useLiveSandbox({ frozenClock: true, shop: 'shop_a' });
const cfg = live.cfg;
let key: string;
let keyNoPage: string;
let env: Record<string, string>;

beforeAll(() => {
  key = live.h.sandbox.demo.shops[0]!.api_key;
  keyNoPage = live.h.sandbox.demo.shops.find((s) => !s.hosted_page)!.api_key;
  env = { ...live.env, PAYGATE_API_KEY: key };
});

/** The body the API gives for a raw request with the same key (to check that --json is exactly the body). */
const api = (method: string, path: string, body?: unknown): Promise<unknown> => live.api(method, path, 'key', body);

const CREATE = ['--method', 'WT_RUB_C2C', '--amount', '1500.00', '--currency', 'RUB', '--client-id', 'cli-user-1'];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('payment create', () => {
  it('human: aligned fields, generated merchant_operation_id, amount with currency', async () => {
    const r = await runCli(['payment', 'create', ...CREATE], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`merchant_operation_id +${UUID.source} \\(generated\\)`));
    expect(r.stdout).toMatch(/^operation_id +[0-9a-f-]{36}$/m);
    expect(r.stdout).toMatch(/^status +(pending|awaiting_confirmation)$/m);
    expect(r.stdout).toMatch(/^expected_amount +1500\.00 RUB$/m);
    expect(r.stdout).not.toContain('\x1b[');
  });

  it('--json: stdout is exactly the body; the generated id goes to stderr', async () => {
    const r = await runCli(['payment', 'create', ...CREATE, '--json'], { env });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { operation_id: string; type: string };
    expect(body.type).toBe('payment');
    const moid = r.stderr.match(new RegExp(`merchant_operation_id: (${UUID.source}) \\(generated\\)`))?.[1];
    expect(moid).toBeDefined();
    const replay = await api('POST', '/v1/payment', {
      merchant_operation_id: moid,
      client_id: 'cli-user-1',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    });
    expect(body).toEqual(replay);
  });

  it('412 on a reused merchant_operation_id with another body: exit 1, code and message, a hint', async () => {
    const moid = `cli-412-${Date.now()}`;
    expect((await runCli(['payment', 'create', ...CREATE, '--merchant-operation-id', moid], { env })).code).toBe(0);
    const r = await runCli(
      ['payment', 'create', ...CREATE.map((a) => (a === '1500.00' ? '1600.00' : a)), '--merchant-operation-id', moid],
      { env },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('idempotency_conflict');
    expect(r.stderr).toContain('use a new --merchant-operation-id');
  });

  it('401 with a wrong key: exit 1, code and message, a hint, the key masked', async () => {
    const wrong = 'pg_test_wrong_key_9Zx8';
    const r = await runCli(['payment', 'create', ...CREATE, '--api-key', wrong], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('invalid_api_key');
    expect(r.stderr).toContain('invalid api key');
    expect(r.stderr).toContain('check --api-key / PAYGATE_API_KEY / profile');
    expect(r.stderr).toContain('****9Zx8');
    expect(r.stderr + r.stdout).not.toContain(wrong);
  });

  it('without a TTY a missing flag is a usage error naming it, at once', async () => {
    const r = await runCli(['payment', 'create', '--method', 'WT_RUB_C2C', '--currency', 'RUB', '--client-id', 'u'], {
      env,
      timeout: 10_000,
    });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing required option --amount');
  });

  it('an amount breaking the contract rule is a usage error', async () => {
    const r = await runCli(['payment', 'create', ...CREATE.map((a) => (a === '1500.00' ? '15.001' : a))], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--amount "15.001"');
  });
});

describe('payout create', () => {
  const PAYOUT = [
    '--method',
    'WT_RUB_C2C',
    '--amount',
    '500.00',
    '--currency',
    'RUB',
    '--client-id',
    'cli-user-2',
    '--number',
    '4111111111111111',
  ];

  it('human', async () => {
    const r = await runCli(['payout', 'create', ...PAYOUT], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^type +payout$/m);
    expect(r.stdout).toMatch(/^expected_amount +500\.00 RUB$/m);
    expect(r.stdout).toMatch(/^name +аноним$/m);
  });

  it('--json', async () => {
    const r = await runCli(['payout', 'create', ...PAYOUT, '--merchant-operation-id', `po-${Date.now()}`, '--json'], {
      env,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'payout', expected_amount: '500.00', currency: 'RUB' });
  });
});

describe('payment link', () => {
  it('human: shows payment_url', async () => {
    const r = await runCli(['payment', 'link', ...CREATE], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^payment_url +${live.h.baseUrl.replace(/[.]/g, '\\.')}/pay/`, 'm'));
  });

  it('--json: payment_url null for a shop without a hosted page', async () => {
    const r = await runCli(['payment', 'link', ...CREATE, '--json'], { env: { ...env, PAYGATE_API_KEY: keyNoPage } });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(body).toHaveProperty('payment_url', null);
    expect(body.type).toBe('payment');
  });

  it('--min-amount without --flexible is a usage error', async () => {
    const r = await runCli(['payment', 'link', ...CREATE, '--min-amount', '1.00'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--min-amount needs --flexible');
  });
});

describe('state', () => {
  let opId: string;
  const moid = `cli-state-${Date.now()}`;
  beforeAll(async () => {
    const r = await runCli(['payment', 'create', ...CREATE, '--merchant-operation-id', moid, '--json'], { env });
    opId = (JSON.parse(r.stdout) as { operation_id: string }).operation_id;
  });

  it('human, by operation_id', async () => {
    const r = await runCli(['state', opId], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^operation_id +${opId}$`, 'm'));
    expect(r.stdout).toMatch(/^receipt_evidence_status +\w+$/m);
  });

  it('--json by merchant_operation_id is exactly the body', async () => {
    const r = await runCli(['state', '--merchant-operation-id', moid, '--json'], { env });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { operation_id: string };
    expect(body.operation_id).toBe(opId);
    expect(body).toEqual(await api('POST', '/v1/get_operation_state', { merchant_operation_id: moid }));
  });

  it('both identifiers, or neither, is a usage error', async () => {
    expect((await runCli(['state', opId, '--merchant-operation-id', moid], { env })).code).toBe(2);
    expect((await runCli(['state'], { env })).code).toBe(2);
  });

  it('an unknown operation is exit 1 with the server code', async () => {
    const r = await runCli(['state', '00000000-0000-4000-8000-000000000000'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('operation_not_found');
  });
});

describe('balances', () => {
  it('human: a table with amounts and currencies', async () => {
    const r = await runCli(['balances'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^currency +balance +reserved +current_minus$/);
    expect(lines.some((l) => /^RUB +-?[0-9]+\.[0-9]{2} RUB /.test(l))).toBe(true);
  });

  it('--json is exactly the body', async () => {
    const r = await runCli(['balances', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await api('GET', '/v1/balances'));
  });
});

describe('health', () => {
  it('human: a table of probe → status', async () => {
    const r = await runCli(['health'], { env: { PAYGATE_CONFIG: cfg.path, PAYGATE_BASE_URL: live.h.baseUrl } });
    expect(r.code).toBe(0);
    for (const p of ['livez', 'healthz', 'readyz']) expect(r.stdout).toMatch(new RegExp(`^${p} +ok +204$`, 'm'));
  });

  it('--json', async () => {
    const r = await runCli(['health', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      livez: { ok: true, status: 204 },
      healthz: { ok: true, status: 204 },
      readyz: { ok: true, status: 204 },
    });
  });
});

describe('nothing listening', () => {
  it.each([['balances'], ['health'], ['payment', 'create', ...CREATE]])(
    '%s exits 3 with a hint to start the sandbox',
    async (...args) => {
      const port = await deadPort();
      const r = await runCli(args, { env: { ...env, PAYGATE_BASE_URL: `http://127.0.0.1:${port}` } });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('ECONNREFUSED');
      expect(r.stderr).toContain('is the sandbox running? start it with `paygate sandbox start`');
    },
  );
});

describe('keys', () => {
  it('no demo key appeared in full in any output of this file', () => {
    const all = transcript.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const s of live.h.sandbox.demo.shops) expect(all).not.toContain(s.api_key);
  });
});
