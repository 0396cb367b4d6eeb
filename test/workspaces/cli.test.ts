// `paygate workspace create | list | delete` as a subprocess against a sandbox started in this process.
import { describe, expect, it, vi } from 'vitest';
import { json, ok, useLiveSandbox } from '../cli/live-sandbox.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN, runCli } from '../cli/run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_cli_ws_test';
const live = useLiveSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: ADMIN,
  shop: 'shop_a',
});

describe('paygate workspace', () => {
  it('create --json prints the keys and admin token a CI job needs; they work; list shows it; delete removes it', async () => {
    const created = json<{
      id: string;
      base_url: string;
      admin_token: string;
      keys: Record<string, string>;
      clock: { frozen: boolean };
    }>(
      await runCli(
        [
          'workspace',
          'create',
          '--id',
          'ci-7',
          '--frozen-clock',
          '--start-time',
          '2026-01-01T00:00:00Z',
          '--max-operations',
          '100',
          '--json',
        ],
        { env: live.env },
      ),
    );
    expect(created.id).toBe('ci-7');
    expect(created.clock.frozen).toBe(true);
    expect(created.base_url).toMatch(/\/w\/ci-7$/);
    const inWs = {
      ...live.env,
      PAYGATE_BASE_URL: created.base_url,
      PAYGATE_API_KEY: created.keys.shop_a!,
      PAYGATE_ADMIN_TOKEN: created.admin_token,
    };
    expect(
      json<{ balances: unknown[] }>(await runCli(['balances', '--json'], { env: inWs })).balances.length,
    ).toBeGreaterThan(0);
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

describe('paygate sandbox start keeps the admin token (hashed) across restarts', () => {
  it('a restart prints its last 4 and it stays valid; --add-admin-token adds one; --new-admin-token replaces them', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { exited } = await import('../helpers/sandbox-process.js');
    const dir = mkdtempSync(join(tmpdir(), 'paygate-ws-cli-'));
    const store = join(dir, 'sandbox.json');
    const run = async (extra: string[] = []) => {
      const { child, line } = await startCliInfo(['--store', store, ...extra]);
      return { info: line, stop: async () => (child.kill('SIGTERM'), await exited(child)) };
    };
    try {
      const first = await run();
      const token = first.info.admin_token as string;
      expect(token).toMatch(/^pg_admin_/);
      await first.stop();
      const second = await run();
      expect([second.info.admin_token, second.info.admin_token_last4]).toEqual([null, token.slice(-4)]);
      expect(
        (await fetch(`${second.info.base_url}/sandbox/clock`, { headers: { 'x-admin-token': token } })).status,
      ).toBe(200);
      await second.stop();
      // --add-admin-token: one more, and the kept one still works.
      const added = await run(['--add-admin-token']);
      const extra = added.info.admin_token as string;
      expect(extra).toMatch(/^pg_admin_/);
      expect(extra).not.toBe(token);
      for (const t of [token, extra])
        expect((await fetch(`${added.info.base_url}/sandbox/clock`, { headers: { 'x-admin-token': t } })).status).toBe(
          200,
        );
      await added.stop();
      const third = await run(['--new-admin-token']);
      expect(third.info.admin_token).not.toBe(token);
      for (const t of [token, extra])
        expect((await fetch(`${third.info.base_url}/sandbox/clock`, { headers: { 'x-admin-token': t } })).status).toBe(
          401,
        );
      expect(
        (
          await fetch(`${third.info.base_url}/sandbox/clock`, {
            headers: { 'x-admin-token': third.info.admin_token as string },
          })
        ).status,
      ).toBe(200);
      await third.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** `paygate sandbox start --port 0 --json` as a child process, and its startup line. */
async function startCliInfo(args: string[]): Promise<{ child: ChildProcess; line: Record<string, unknown> }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  return { child, line: JSON.parse(line) as Record<string, unknown> };
}
