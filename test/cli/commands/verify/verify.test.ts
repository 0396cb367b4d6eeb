// `paygate verify` as a subprocess against a sandbox listening on 127.0.0.1:0: exit 0 with every rule passed in the
// JUnit file; --json is one document; a drift (a fault) exits 1 naming its rule; an unreachable gateway exits 3;
// bad flags exit 2 before anything is sent; the keys never reach the output; an HTTPS gateway with --ca.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { VERIFIABLE_RULES as RULES } from '../../../../src/verify/index.js';
import { startSandbox } from '../../../../src/emulator/index.js';
import { useCleanup } from '../../../helpers/cleanup.js';
import { KEY_A, KEY_B } from '../../../helpers/harness.js';
import { json, useLiveSandbox, usage } from '../../live-sandbox.js';
import { deadPort, runCli } from '../../run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const live = useLiveSandbox({ shop: 'shop_a', adminToken: 'verify-admin-token' });
const args = () => ['verify', '--base-url', live.h.baseUrl, '--api-key', KEY_A, '--second-key', KEY_B];
const env = () => ({ PAYGATE_CONFIG: live.cfg.path });

describe('paygate verify', () => {
  it('passes against the sandbox: exit 0, the JUnit file lists every rule as passed, no key in the output', async () => {
    const xml = join(live.cfg.dir, 'reports', 'verify.xml');
    const r = await runCli([...args(), '--junit', xml], { env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`${RULES.length} rules passed, 0 failed, 0 skipped`);
    const report = readFileSync(xml, 'utf8');
    expect(report.match(/<testcase /g)).toHaveLength(RULES.length);
    expect(report).toMatch(new RegExp(`<testsuites tests="${RULES.length}" failures="0"`));
    for (const rule of RULES) expect(report).toContain(`name="${rule.id} (${rule.section})`);
    for (const out of [r.stdout, r.stderr, report]) {
      expect(out).not.toContain(KEY_A);
      expect(out).not.toContain(KEY_B);
    }
  });

  it('--json prints one document: passed, a result per rule, what it created and cancelled, the caps', async () => {
    const doc = json<{
      passed: boolean;
      rules: { id: string; result: string }[];
      created: { cancel_outcome: string | null }[];
      caps: { max_creates: number; creates: number };
    }>(await runCli([...args(), '--json'], { env: env() }));
    expect(doc.passed).toBe(true);
    expect(doc.rules.map((x) => x.id)).toEqual(RULES.map((x) => x.id));
    expect(doc.created.length).toBeGreaterThan(0);
    expect(doc.caps.creates).toBeLessThanOrEqual(doc.caps.max_creates);
  });

  it('a drifting gateway exits 1 and names the rule (--json: still one document)', async () => {
    await live.api('POST', '/sandbox/faults', 'admin', { endpoint: 'balances.list', status: 503, shop_id: 'shop_b' });
    try {
      const r = await runCli(args(), { env: env() });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/✗ response\.valid_request_answered/);
      expect(r.stdout).toContain('balances.list');
      expect(r.stdout).toContain('got 503');
      expect(r.stderr, r.stdout).toContain('1 rule failed');
      const j = await runCli([...args(), '--json'], { env: env() });
      expect(j.code, j.stdout + j.stderr).toBe(1);
      const doc = JSON.parse(j.stdout) as { passed: boolean; violations: { rule: string; got: string }[] };
      expect(doc.passed).toBe(false);
      expect(doc.violations, j.stdout).toEqual([
        expect.objectContaining({ rule: 'response.valid_request_answered', got: expect.stringMatching(/^got 503/) }),
      ]);
    } finally {
      await live.api('DELETE', '/sandbox/faults', 'admin');
    }
  });

  it('an answer that drifts (a field removed) exits 1 naming response.missing_field', async () => {
    const fault = { endpoint: 'payment.create', drift: 'remove_field', field: 'settlement_amount', shop_id: 'shop_a' };
    await live.api('POST', '/sandbox/faults', 'admin', fault);
    try {
      const r = await runCli(args(), { env: env() });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/✗ response\.missing_field/);
      expect(r.stdout).toContain('settlement_amount');
    } finally {
      await live.api('DELETE', '/sandbox/faults', 'admin');
    }
  });

  it('exits 3 when the gateway cannot be reached', async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const r = await runCli(['verify', '--base-url', url, '--api-key', KEY_A], { env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toContain(`cannot reach ${url}`);
  });

  it('exits 2 on bad flags, before anything is sent', async () => {
    const served = live.h.served();
    usage(await runCli([...args(), '--amount', '1.005'], { env: env() }), '--amount 1.005');
    usage(await runCli([...args(), '--max-amount', '50.00'], { env: env() }), 'above --max-amount');
    usage(await runCli([...args(), '--second-key', KEY_A], { env: env() }), '--second-key is the same key');
    usage(await runCli(['verify', '--base-url', live.h.baseUrl], { env: env() }), 'no API key');
    expect(live.h.served()).toBe(served);
  });

  it('--help has an example, the caps and the exit codes', async () => {
    const r = await runCli(['verify', '--help'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Example');
    expect(r.stdout).toContain('--max-creates');
    expect(r.stdout).toContain('3 the gateway cannot be reached');
  });
});

describe('paygate verify over https', () => {
  const defer = useCleanup();

  it('trusts the certificate given with --ca; without it, exits 3 naming the certificate', async () => {
    const running = await startSandbox({ https: true, log: () => {}, adminToken: 'adm' });
    defer(() => running.close());
    const base = ['verify', '--base-url', running.baseUrl, '--api-key', KEY_A];
    const ok = await runCli([...base, '--ca', running.sandbox.tls!.certPath], { env: env() });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    const untrusted = await runCli(base, { env: env() });
    expect(untrusted.code, untrusted.stdout + untrusted.stderr).toBe(3);
    expect(untrusted.stderr).toMatch(/CERT/);
    expect(untrusted.stderr).toContain('--ca');
  });
});
