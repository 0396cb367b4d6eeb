// HTTPS through the binary: `paygate sandbox start --https` prints the certificate's SHA-256 fingerprint and
// file (--json: `tls`), keeps it beside the store and reuses it; the CLI trusts it with --ca or PAYGATE_CA and, without,
// exits 3 saying to pass one. `--public-url` is the base of every URL the sandbox returns; a bad one is exit 2.
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, vi } from 'vitest';
import { tempDir, useCleanup } from '../helpers/cleanup.js';
import { BIN, runCli, tempConfig } from './run-cli.js';

vi.setConfig({ testTimeout: 90_000 });

const defer = useCleanup();
const KEY_A = 'pg_test_a_7Hq2Lm9XwR4tNc8V';

/** The environment of a child: the test's, without PAYGATE_* (as runCli does), plus `env`. */
function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('PAYGATE_') && k !== 'FORCE_COLOR') out[k] = v;
  return { ...out, NO_COLOR: '1', ...env };
}

/**
 * `paygate sandbox start --port 0 <args>` as a child process, stopped (SIGTERM) after the test: resolves with stdout
 * up to and including the line `until` matches (the --json line, or the banner's last line).
 */
async function startCli(
  args: string[],
  until: RegExp,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(env),
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  defer(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (until.test(line)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  return { child, out: lines.join('\n') };
}

interface StartInfo {
  base_url: string;
  listen_url: string;
  payment_page_url: string;
  storage_url: string;
  tls: {
    fingerprint_sha256: string;
    cert_path: string;
    key_path: string | null;
    names: string[];
    created: string | null;
  } | null;
}

const startJson = async (args: string[]) => JSON.parse((await startCli([...args, '--json'], /^\{/)).out) as StartInfo;

describe('paygate sandbox start --https', () => {
  it('prints the fingerprint of the certificate it keeps beside the store; the CLI needs --ca or PAYGATE_CA to call it', async () => {
    const dir = tempDir(defer);
    const store = join(dir, 'sandbox.json');
    const info = await startJson(['--https', '--store', store]);
    expect(info.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(info.listen_url).toBe(info.base_url);
    expect(info.payment_page_url).toBe(`${info.base_url}/pay`);
    expect(info.storage_url).toBe(`${info.base_url}/storage`);
    expect(info.tls).toMatchObject({
      cert_path: `${store}.cert.pem`,
      key_path: `${store}.key.pem`,
      created: 'first start',
    });
    expect(info.tls!.fingerprint_sha256).toBe(new X509Certificate(readFileSync(`${store}.cert.pem`)).fingerprint256);
    expect(statSync(`${store}.key.pem`).mode & 0o777).toBe(0o600);

    const cfg = tempConfig();
    defer(() => cfg.cleanup());
    const env = { PAYGATE_CONFIG: cfg.path, PAYGATE_BASE_URL: info.base_url, PAYGATE_API_KEY: KEY_A };
    const untrusted = await runCli(['balances', '--json'], { env });
    expect(untrusted.code).toBe(3);
    expect(untrusted.stderr).toContain('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(untrusted.stderr).toContain(
      "hint: the server's TLS certificate is self-signed or from an unknown CA: pass --ca <cert file> or set PAYGATE_CA",
    );
    expect(untrusted.stderr).not.toContain('is the sandbox running?');

    const viaEnv = await runCli(['balances', '--json'], { env: { ...env, PAYGATE_CA: `${store}.cert.pem` } });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(JSON.parse(viaEnv.stdout).balances.length).toBeGreaterThan(0);
    const viaFlag = await runCli(['--ca', `${store}.cert.pem`, 'balances', '--json'], { env });
    expect(viaFlag.code, viaFlag.stderr).toBe(0);

    const theKey = await runCli(['--ca', `${store}.key.pem`, 'balances'], { env });
    expect(theKey.code).toBe(2);
    expect(theKey.stderr).toContain(`the --ca file ${store}.key.pem holds no PEM certificate`);
    expect(theKey.stderr).not.toContain('PRIVATE KEY');
    const missing = await runCli(['balances'], { env: { ...env, PAYGATE_CA: join(dir, 'nope.pem') } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read the PAYGATE_CA file ${join(dir, 'nope.pem')}: ENOENT`);
  });

  it('a second start reuses the certificate: the banner shows the same fingerprint and says it was kept', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    const first = await startCli(['--https', '--store', store, '--json'], /^\{/);
    const fingerprint = (JSON.parse(first.out) as StartInfo).tls!.fingerprint_sha256;
    const stopped = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGTERM');
    await stopped;
    const { out } = await startCli(['--https', '--store', store], /Ctrl\+C stops the sandbox/);
    expect(out).toContain(`TLS             self-signed, SHA-256 ${fingerprint}`);
    expect(out).toContain(`certificate     ${store}.cert.pem  (kept from an earlier start;`);
    expect(out).toMatch(/base URL {8}https:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain(`PAYGATE_CA=${store}.cert.pem`);
    expect(new X509Certificate(readFileSync(`${store}.cert.pem`)).fingerprint256).toBe(fingerprint);
  });
});

describe('paygate sandbox start --public-url', () => {
  it('builds every URL it prints and returns from the public base, and still listens where it was told', async () => {
    const info = await startJson(['--in-memory', '--public-url', 'https://gw.example.test/paygate/']);
    const base = 'https://gw.example.test/paygate';
    expect(info).toMatchObject({
      base_url: base,
      payment_page_url: `${base}/pay`,
      storage_url: `${base}/storage`,
      tls: null,
    });
    expect(info.listen_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${info.listen_url}/v1/payment/link`, {
      method: 'POST',
      headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant_operation_id: 'https-cli-1',
        client_id: 'payer',
        method: 'WT_RUB_C2C',
        amount: '1500.00',
        currency: 'RUB',
      }),
    });
    const link = (await res.json()) as { operation_id: string; payment_url: string };
    expect(res.status, JSON.stringify(link)).toBe(200);
    expect(link.payment_url).toBe(`${base}/pay/${link.operation_id}`);
  });

  it('PAYGATE_PUBLIC_URL works like the flag; without either the base is the listening URL', async () => {
    const plain = await startJson(['--in-memory']);
    expect(plain.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/); // without either: the listening URL, http
    const viaEnv = JSON.parse(
      (await startCli(['--in-memory', '--json'], /^\{/, { PAYGATE_PUBLIC_URL: 'http://proxy.test:8080' })).out,
    ) as StartInfo;
    expect(viaEnv.base_url).toBe('http://proxy.test:8080');
    expect(viaEnv.payment_page_url).toBe('http://proxy.test:8080/pay');
  });

  it('a URL with a query or fragment, another scheme or no scheme is a usage error (exit 2) and nothing starts', async () => {
    for (const [bad, says] of [
      ['https://gw.example.test/?x=1', 'must not have a query or a fragment'],
      ['https://gw.example.test/#a', 'must not have a query or a fragment'],
      ['ftp://gw.example.test', 'must be an http or https URL'],
      ['gw.example.test', 'is not an absolute URL'],
    ] as const) {
      const r = await runCli(['sandbox', 'start', '--port', '0', '--in-memory', '--public-url', bad]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--public-url "${bad}" ${says}`);
      expect(r.stderr).toContain('hint: give the base URL clients reach the sandbox at');
      expect(r.stdout).toBe('');
    }
  });
});
