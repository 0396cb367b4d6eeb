// The sandbox's credentials and reset end to end: the CLI as a subprocess against a sandbox started in this process on a
// frozen clock. Keys (issue, list, revoke), the admin token (flag, env, profile; missing → exit 2; wrong → exit 1) and
// that it is never printed, and reset. The operation controls: sandbox-controls.test.ts.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { json, ok, useLiveSandbox } from '../../live-sandbox.js';
import { runCli, transcript } from '../../run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_cli_test';

const live = useLiveSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: ADMIN,
  shop: 'shop_a',
});
const api = live.api;
let key: string;
/** Shop A's key and the admin token from the environment. */
let env: Record<string, string>;
/** Shop A's key only: admin commands need --admin-token or a profile. */
let keyOnly: Record<string, string>;

beforeAll(() => {
  key = live.h.keyOf('shop_a');
  env = live.env;
  const { PAYGATE_ADMIN_TOKEN: _admin, ...rest } = env;
  keyOnly = rest;
});

const PAYMENT = ['--method', 'WT_RUB_C2C', '--amount', '1500.00', '--currency', 'RUB'];

async function createPayment(clientId: string, moid?: string): Promise<string> {
  const r = await runCli(
    [
      'payment',
      'create',
      ...PAYMENT,
      '--client-id',
      clientId,
      ...(moid ? ['--merchant-operation-id', moid] : []),
      '--json',
    ],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { operation_id: string }).operation_id;
}

describe('sandbox keys', () => {
  it('issue prints the key once, labelled; it works for balances; revoke makes it fail with "invalid api key"', async () => {
    const issued = await runCli(['sandbox', 'keys', 'issue', '--shop', 'shop_b', '--label', 'cli test'], { env });
    const out = ok(issued);
    expect(out).toContain('shown once');
    const apiKey = out.match(/^api_key +(\S+) +\(shown once\)$/m)?.[1];
    expect(apiKey).toMatch(/^pg_test_/);
    const keyId = out.match(/^id +(key_\S+)$/m)?.[1];
    expect(keyId).toBeDefined();

    const balances = await runCli(['balances', '--json'], { env: { ...env, PAYGATE_API_KEY: apiKey! } });
    expect(json<{ balances: { currency: string }[] }>(balances).balances.map((b) => b.currency)).toEqual(['RUB']);

    const list = ok(await runCli(['sandbox', 'keys', 'list', '--shop', 'shop_b'], { env }));
    expect(list).toMatch(new RegExp(`^${keyId} +shop_b +\\*{4}${apiKey!.slice(-4)} +active +cli test `, 'm'));
    expect(list).not.toContain(apiKey);

    const revoked = ok(await runCli(['sandbox', 'keys', 'revoke', keyId!], { env }));
    expect(revoked).toMatch(/^status +revoked$/m);
    const after = await runCli(['balances'], { env: { ...env, PAYGATE_API_KEY: apiKey! } });
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('invalid api key');
    expect(after.stderr).not.toContain(apiKey);
  });

  it('--json: issue holds api_key; list is exactly the body, never a plaintext key', async () => {
    const issued = json<{ id: string; api_key: string; shop_id: string }>(
      await runCli(['sandbox', 'keys', 'issue', '--shop', 'shop_a', '--json'], { env }),
    );
    expect(issued).toMatchObject({ shop_id: 'shop_a', revoked: false });
    expect(issued.api_key).toMatch(/^pg_test_/);
    const list = json(await runCli(['sandbox', 'keys', 'list', '--json'], { env }));
    expect(list).toEqual(await api('GET', '/sandbox/keys', 'admin'));
    expect(JSON.stringify(list)).not.toContain(issued.api_key);
    const rev = json(await runCli(['sandbox', 'keys', 'revoke', issued.id, '--json'], { env }));
    expect(rev).toMatchObject({ id: issued.id, revoked: true });
  });

  it('issue without --shop (no TTY) is a usage error; an unknown shop or key is exit 1', async () => {
    const noShop = await runCli(['sandbox', 'keys', 'issue'], { env, timeout: 10_000 });
    expect(noShop.timedOut).toBe(false);
    expect(noShop.code).toBe(2);
    expect(noShop.stderr).toContain('--shop');
    expect((await runCli(['sandbox', 'keys', 'issue', '--shop', 'shop_zz'], { env })).stderr).toContain(
      'shop_not_found',
    );
    const noKey = await runCli(['sandbox', 'keys', 'revoke', 'key_nope'], { env });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('key_not_found');
  });
});

describe('the admin token', () => {
  it('missing: exit 2, saying how to pass it and where it comes from', async () => {
    for (const args of [
      ['sandbox', 'time'],
      ['sandbox', 'time', 'advance', '1s'],
      ['sandbox', 'evidence'],
      ['sandbox', 'keys', 'list'],
      ['sandbox', 'reset', '--yes'],
    ]) {
      const r = await runCli(args, { env: keyOnly });
      expect(r.code, args.join(' ')).toBe(2);
      for (const s of [
        '--admin-token',
        'PAYGATE_ADMIN_TOKEN',
        'paygate config set admin-token',
        'paygate sandbox start',
      ])
        expect(r.stderr).toContain(s);
    }
  });

  it('--admin-token flag and the profile key admin-token (shown masked by config)', async () => {
    ok(await runCli(['sandbox', 'time', '--admin-token', ADMIN], { env: keyOnly }));
    const set = await runCli(['config', 'set', 'admin-token', ADMIN], { env: keyOnly });
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('****test');
    expect((await runCli(['config', 'get', 'admin-token'], { env: keyOnly })).stdout.trim()).toBe('****test');
    expect(JSON.parse((await runCli(['config', 'list', '--json'], { env: keyOnly })).stdout)).toMatchObject({
      profiles: { default: { 'admin-token': '****test' } },
    });
    expect(ok(await runCli(['config', 'list'], { env: keyOnly }))).toContain('****test');
    ok(await runCli(['sandbox', 'time'], { env: keyOnly }));
  });

  it('a wrong token: exit 1, invalid_admin_token, the hint, the token masked', async () => {
    const wrong = 'pg_admin_wrong_token_0000';
    const r = await runCli(['sandbox', 'keys', 'list', '--admin-token', wrong], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('invalid_admin_token');
    expect(r.stderr).toContain('--admin-token');
    expect(r.stderr).toContain('****0000');
    expect(r.stdout + r.stderr).not.toContain(wrong);
  });
});

// Last: forgets everything above.
describe('sandbox reset', () => {
  it('without --yes and without a TTY: exit 2, nothing reset; with --yes an earlier operation is gone (404)', async () => {
    const id = await createPayment('before-reset');
    const refused = await runCli(['sandbox', 'reset'], { env, timeout: 10_000 });
    expect(refused.timedOut).toBe(false);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    ok(await runCli(['state', id], { env }));

    const done = ok(await runCli(['sandbox', 'reset', '--yes'], { env }));
    expect(done).toContain('sandbox reset');
    const gone = await runCli(['state', id], { env });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('operation_not_found');
    expect(gone.stderr).toContain('HTTP 404');
  });

  it('--yes --json is exactly the body', async () => {
    const body = json<{ reset: boolean; now: string }>(await runCli(['sandbox', 'reset', '--yes', '--json'], { env }));
    expect(body).toEqual({ reset: true, now: expect.stringMatching(/Z$/) });
    expect(json<{ total: number }>(await runCli(['sandbox', 'operations', '--json'], { env })).total).toBe(0);
  });
});

describe('secrets', () => {
  it('the admin token never appeared in full in any output (it is only ever input)', () => {
    const all = transcript.join('\n');
    expect(transcript.length).toBeGreaterThan(50);
    expect(all).not.toContain(ADMIN);
    expect(all).not.toContain(key);
  });
});
