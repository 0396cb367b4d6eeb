// Everything a container sets for `sandbox start` can come from the environment. PAYGATE_HOST (the image
// listens on 0.0.0.0) and PAYGATE_HTTPS were flags only; a yes/no variable that is neither is a usage error, so
// PAYGATE_HTTPS=0 never turns TLS on.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { envFlag } from '../../../../src/cli/commands/sandbox/start.js';
import { BIN, runCli } from '../../run-cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** `sandbox start --json --port 0` with this environment: its --json line, then SIGTERM and its exit code. */
async function startWithEnv(env: Record<string, string>): Promise<{ info: Record<string, any>; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-env-'));
  dirs.push(dir);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--json'], {
    env: { ...clean, NO_COLOR: '1', PAYGATE_STORE: join(dir, 'sandbox.json'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const line = await Promise.race([
    new Promise<string>((r) => createInterface({ input: child.stdout! }).once('line', r)),
    exit.then((code) => Promise.reject(new Error(`sandbox exited with ${code}: ${stderr}`))),
  ]);
  child.kill('SIGTERM');
  return { info: JSON.parse(line), code: await exit };
}

describe('sandbox start from the environment', () => {
  it('PAYGATE_HOST chooses the interface and PAYGATE_HTTPS=1 turns TLS on (the certificate beside PAYGATE_STORE)', async () => {
    const { info, code } = await startWithEnv({ PAYGATE_HOST: '127.0.0.2', PAYGATE_HTTPS: '1' });
    expect(info.listen_url).toMatch(/^https:\/\/127\.0\.0\.2:\d+$/);
    expect(info.tls.cert_path).toBe(`${info.store}.cert.pem`);
    expect(info.clock.frozen).toBe(false);
    expect(code).toBe(0);
  }, 30_000);

  it('PAYGATE_HTTPS=0 leaves TLS off; PAYGATE_FROZEN_CLOCK=1 freezes the clock (a CI service container takes no arguments)', async () => {
    const { info, code } = await startWithEnv({ PAYGATE_HTTPS: '0', PAYGATE_FROZEN_CLOCK: '1' });
    expect(info.clock.frozen).toBe(true);
    expect(info.listen_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.tls).toBeNull();
    expect(code).toBe(0);
  }, 30_000);

  it('a PAYGATE_HTTPS that is not yes/no is a usage error (exit 2) saying what is accepted', async () => {
    const r = await runCli(['sandbox', 'start', '--port', '0', '--in-memory'], { env: { PAYGATE_HTTPS: 'maybe' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PAYGATE_HTTPS="maybe" is not a yes/no value');
    expect(r.stderr).toContain('PAYGATE_HTTPS=1');
  });

  it('envFlag reads the usual spellings', () => {
    for (const v of ['1', 'true', 'YES', 'on']) expect(envFlag('X', { X: v })).toBe(true);
    for (const v of [undefined, '', '0', 'False', 'no', 'off'])
      expect(envFlag('X', v === undefined ? {} : { X: v })).toBe(false);
  });

  it('--help names the variables', async () => {
    const r = await runCli(['sandbox', 'start', '--help']);
    expect(r.stdout).toContain('PAYGATE_HOST, PAYGATE_STORE');
    expect(r.stdout).toContain('PAYGATE_HTTPS=1');
  });
});
