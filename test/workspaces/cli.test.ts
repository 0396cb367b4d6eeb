// `paygate workspace create | list | delete` as a subprocess against a sandbox started in this process.
import { describe, expect, it, vi } from 'vitest';
import { json, ok, useLiveSandbox } from '../cli/live-sandbox.js';
import { runCli } from '../cli/run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_cli_ws_test';
const live = useLiveSandbox({ frozenClock: true, startTime: '2026-01-01T00:00:00Z', adminToken: ADMIN, shop: 'shop_a' });

describe('paygate workspace', () => {
  it('create --json prints the keys and admin token a CI job needs; they work; list shows it; delete removes it', async () => {
    const created = json<{ id: string; base_url: string; admin_token: string; keys: Record<string, string>; clock: { frozen: boolean } }>(
      await runCli(['workspace', 'create', '--id', 'ci-7', '--frozen-clock', '--start-time', '2026-01-01T00:00:00Z', '--max-operations', '100', '--json'], { env: live.env }),
    );
    expect(created.id).toBe('ci-7');
    expect(created.clock.frozen).toBe(true);
    expect(created.base_url).toMatch(/\/w\/ci-7$/);
    const inWs = { ...live.env, PAYGATE_BASE_URL: created.base_url, PAYGATE_API_KEY: created.keys.shop_a!, PAYGATE_ADMIN_TOKEN: created.admin_token };
    expect(json<{ balances: unknown[] }>(await runCli(['balances', '--json'], { env: inWs })).balances.length).toBeGreaterThan(0);
    expect(ok(await runCli(['sandbox', 'time', 'advance', '1h'], { env: inWs }))).toContain('2026-01-01T01:00:00');

    const list = ok(await runCli(['workspace', 'list'], { env: live.env }));
    expect(list).toMatch(/ci-7 .*\/w\/ci-7 +frozen 2026-01-01T01:00:00\.000Z +0\/100/);
    expect(list).not.toContain(created.admin_token);

    expect(ok(await runCli(['workspace', 'delete', 'ci-7'], { env: live.env }))).toContain('workspace ci-7 deleted');
    const again = await runCli(['workspace', 'delete', 'ci-7', '--json'], { env: live.env });
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error.code).toBe('workspace_not_found');
  });

  it("a workspace's admin token cannot create one: exit 1 with the code and what to use", async () => {
    const created = json<{ admin_token: string }>(await runCli(['workspace', 'create', '--json'], { env: live.env }));
    const r = await runCli(['workspace', 'create'], { env: { ...live.env, PAYGATE_ADMIN_TOKEN: created.admin_token } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('workspace_forbidden');
    expect(r.stderr).toContain("server's admin token");
  });

  it('--help has examples; a bad --max-operations is a usage error (exit 2)', async () => {
    expect(ok(await runCli(['workspace', 'create', '--help']))).toContain('Examples:');
    expect((await runCli(['workspace', 'create', '--max-operations', '0'], { env: live.env })).code).toBe(2);
  });
});
