// `paygate proxy` through the binary (issue 27 §1): the --json line, violations printed live as NDJSON and written
// to --report and --junit on SIGTERM, the exit codes (0 clean, 1 a violation, 2 a malformed --upstream, 3 the
// upstream unreachable), the caller's key in no output and no file, and an HTTPS upstream trusted with --ca.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, vi } from 'vitest';
import { startSandbox } from '../../../../src/testing/index.js';
import { tempDir, useCleanup } from '../../../helpers/cleanup.js';
import { BIN, runCli } from '../../run-cli.js';

vi.setConfig({ testTimeout: 90_000 });
const defer = useCleanup();

interface Running {
  child: ChildProcess;
  info: { base_url: string; upstream: string; admin_token: string; dashboard_url: string };
  lines: string[];
  stderr: () => string;
  /** SIGTERM, then the exit code once it has exited. */
  stop: () => Promise<number | null>;
}

function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('PAYGATE_') && k !== 'FORCE_COLOR') out[k] = v;
  return { ...out, NO_COLOR: '1', ...env };
}

/** `paygate proxy --port 0 --json <args>`, until its first line. */
async function startProxy(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'proxy', '--port', '0', '--json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(env),
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines: string[] = [];
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (lines.length === 1) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    info: JSON.parse(first) as Running['info'],
    lines,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('paygate proxy', () => {
  it('a malformed --upstream is a usage error (exit 2); so is none', async () => {
    for (const args of [['--upstream', 'not a url'], ['--upstream', 'ftp://x.example'], []]) {
      const r = await runCli(['proxy', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--upstream/);
    }
  });

  it('--public-url (behind a TLS terminator): the dashboard follows its path, its cookie is Secure; a bad one exits 2', async () => {
    const bad = await runCli(['proxy', '--upstream', 'http://127.0.0.1:9', '--public-url', 'ftp://x.example']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--public-url/);
    const p = await startProxy(['--upstream', 'http://127.0.0.1:9', '--public-url', 'https://proxy.example.test/gw']);
    expect(p.info.dashboard_url).toBe('https://proxy.example.test/gw/dashboard');
    const signIn = await fetch(`${p.info.base_url}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://proxy.example.test' },
      body: new URLSearchParams({ credential: p.info.admin_token }).toString(),
    });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/gw/dashboard/operations');
    expect(signIn.headers.get('set-cookie')).toMatch(
      /^paygate_proxy_dashboard=[\w-]+; Path=\/gw\/dashboard; HttpOnly; SameSite=Strict; Secure$/,
    );
    expect(await p.stop()).toBe(0);
  });

  it('prints one --json line, exits 0 with no violation, and the key is in no output and no file', async () => {
    const dir = tempDir(defer);
    const sb = await startSandbox();
    defer(() => sb.close());
    const files = ['report.json', 'junit.xml', 'rec.yaml'].map((f) => join(dir, f));
    const p = await startProxy([
      '--upstream',
      sb.baseUrl,
      '--report',
      files[0]!,
      '--junit',
      files[1]!,
      '--record',
      files[2]!,
    ]);
    expect(Object.keys(p.info).sort()).toEqual(['admin_token', 'base_url', 'dashboard_url', 'upstream']);
    expect(p.info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The dashboard of the proxied traffic (issue 28): there, and `paygate dashboard` pointed at the proxy finds it.
    expect(p.info.dashboard_url).toBe(`${p.info.base_url}/dashboard`);
    const signIn = await fetch(p.info.dashboard_url, { redirect: 'manual' });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/dashboard/sign-in');
    const opened = await runCli(['dashboard', '--base-url', p.info.base_url, '--json']);
    expect(JSON.parse(opened.stdout)).toEqual({ dashboard_url: p.info.dashboard_url, opened: false });
    expect(p.info.upstream).toBe(sb.baseUrl);
    const key = sb.keys.shop_a!;
    const res = await fetch(`${p.info.base_url}/v1/payment`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant_operation_id: 'cli-1',
        client_id: 'a',
        method: 'WT_RUB_C2C',
        amount: '1500.00',
        currency: 'RUB',
      }),
    });
    expect(res.status).toBe(200);
    const views = await fetch(`${p.info.base_url}/proxy/exchanges`, {
      headers: { 'x-admin-token': p.info.admin_token },
    });
    expect(await views.text()).not.toContain(key);
    expect(await p.stop()).toBe(0);
    const report = JSON.parse(readFileSync(files[0]!, 'utf8')) as { exchanges: number; violations: unknown[] };
    expect(report).toMatchObject({ exchanges: 1, violations: [] });
    expect(readFileSync(files[1]!, 'utf8')).toContain('<testsuite');
    expect(readFileSync(files[2]!, 'utf8')).toContain('call: payment.create');
    for (const text of [p.lines.join('\n'), p.stderr(), ...files.map((f) => readFileSync(f, 'utf8'))])
      expect(text).not.toContain(key);
    expect(JSON.parse(p.lines.at(-1)!)).toMatchObject({ type: 'summary', exchanges: 1, violations: 0 });
  });

  it('prints each violation live (NDJSON), writes them to --report and --junit, and exits 1', async () => {
    const dir = tempDir(defer);
    // The sandbox drifts on purpose (a drift fault): balances answered with a status the contract does not declare.
    const sb = await startSandbox();
    defer(() => sb.close());
    const added = await fetch(`${sb.baseUrl}/sandbox/faults`, {
      method: 'POST',
      headers: { 'x-admin-token': sb.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: 'balances.list', drift: 'extra_status', status: 418 }),
    });
    expect(added.status).toBe(201);
    const upstream = sb.baseUrl;
    const report = join(dir, 'r.json');
    const junit = join(dir, 'j.xml');
    const p = await startProxy(['--upstream', upstream, '--report', report, '--junit', junit]);
    const key = sb.keys.shop_a!;
    const res = await fetch(`${p.info.base_url}/v1/balances`, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(418);
    await expect.poll(() => p.lines.length).toBeGreaterThan(1);
    const live = JSON.parse(p.lines[1]!) as Record<string, unknown>;
    expect(live).toMatchObject({
      type: 'violation',
      rule: 'response.undeclared_status',
      endpoint: 'balances.list',
      exchange: 1,
    });
    expect(String(live.expected)).toMatch(/^expected /);
    expect(String(live.got)).toMatch(/^got /);
    expect(await p.stop()).toBe(1);
    const written = JSON.parse(readFileSync(report, 'utf8')) as { violations: { rule: string; exchange: number }[] };
    expect(written.violations[0]).toMatchObject({ rule: 'response.undeclared_status', exchange: 1 });
    expect(readFileSync(junit, 'utf8')).toMatch(/<failure message="[^"]*" type="response.undeclared_status"/);
    expect(p.lines.join('\n') + p.stderr()).not.toContain(key);
  });

  it('answers 502 when the upstream cannot be reached, reports it, and exits 3', async () => {
    const port = await closedPort();
    const p = await startProxy(['--upstream', `http://127.0.0.1:${port}`]);
    const res = await fetch(`${p.info.base_url}/v1/balances`, {
      headers: { 'x-api-key': 'pg_test_a_7Hq2Lm9XwR4tNc8V' },
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: 'upstream_unreachable' });
    await expect.poll(() => p.lines.length).toBeGreaterThan(1);
    expect(JSON.parse(p.lines[1]!)).toMatchObject({ type: 'upstream_failure', method: 'GET', path: '/v1/balances' });
    expect(await p.stop()).toBe(3);
  });

  it('records a flow that `paygate scenario run <file> --base-url <fresh sandbox> --admin-token` replays, exit 0', async () => {
    const dir = tempDir(defer);
    const sb = await startSandbox();
    defer(() => sb.close());
    const file = join(dir, 'flow.yaml');
    const p = await startProxy(['--upstream', sb.baseUrl, '--record', file]);
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${p.info.base_url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': sb.keys.shop_a!, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { operation_id: string; status: string };
    };
    const pay = await call('/v1/payment', {
      merchant_operation_id: 'o-1',
      client_id: 'zoe',
      method: 'WT_RUB_C2C',
      amount: '900.00',
      currency: 'RUB',
    });
    await sb.pay(pay.operation_id, '850.00');
    expect((await call('/v1/get_operation_state', { operation_id: pay.operation_id })).status).toBe('completed');
    const out = await call('/v1/payout', {
      merchant_operation_id: 'o-2',
      client_id: 'zoe',
      method: 'WT_RUB_C2C',
      amount: '500.00',
      currency: 'RUB',
      number: '4111111111111111',
    });
    await sb.settle(out.operation_id, 'failed');
    expect((await call('/v1/get_operation_state', { merchant_operation_id: 'o-2' })).status).toBe('rejected');
    expect(await p.stop()).toBe(0);
    const fresh = await startSandbox();
    defer(() => fresh.close());
    const r = await runCli(['scenario', 'run', file, '--base-url', fresh.baseUrl, '--admin-token', fresh.adminToken]);
    expect(r.stdout).toContain('scenarios: 1 passed, 0 failed, 0 skipped');
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('amount: "850.00"');
  });

  it('forwards to an HTTPS upstream it trusts with --ca (and refuses it without: 502)', async () => {
    const sb = await startSandbox({ https: true });
    defer(() => sb.close());
    const dir = tempDir(defer);
    const ca = join(dir, 'ca.pem');
    (await import('node:fs')).writeFileSync(ca, sb.ca!);
    const trusted = await startProxy(['--upstream', sb.baseUrl, '--ca', ca]);
    const ok = await fetch(`${trusted.info.base_url}/v1/balances`, { headers: { 'x-api-key': sb.keys.shop_a! } });
    expect(ok.status).toBe(200);
    expect(await trusted.stop()).toBe(0);
    const untrusted = await startProxy(['--upstream', sb.baseUrl]);
    const bad = await fetch(`${untrusted.info.base_url}/v1/balances`, { headers: { 'x-api-key': sb.keys.shop_a! } });
    expect(bad.status).toBe(502);
    expect(((await bad.json()) as { message: string }).message).toMatch(/CERT|certificate|self.signed/i);
    expect(await untrusted.stop()).toBe(3);
  });
});
