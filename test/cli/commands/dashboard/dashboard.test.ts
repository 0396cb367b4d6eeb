// `sandbox start` tells where the dashboard is (banner and --json), and `paygate dashboard` opens it — or prints
// its URL where no browser can be opened (no display, or stdout not a terminal), and prints it as JSON with --json.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { opener } from '../../../../src/cli/commands/dashboard/run.js';
import { BIN, runCli } from '../../run-cli.js';

/** `sandbox start --in-memory --port 0` with `args`: its stdout lines up to the one `until` matches, then SIGTERM. */
async function startLines(args: string[], until: RegExp): Promise<string[]> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYGATE_')));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--in-memory', '--port', '0', ...args], {
    env: { ...clean, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<void>((r) => child.once('exit', () => r()));
  const lines: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (l) => {
        lines.push(l);
        if (until.test(l)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
  return lines;
}

describe('the dashboard from the CLI', () => {
  it('sandbox start prints dashboard_url in --json and a dashboard line in the banner; it answers there', async () => {
    const [line] = await startLines(['--json'], /^\{/);
    const info = JSON.parse(line!);
    expect(info.dashboard_url).toBe(`${info.base_url}/dashboard`);
    const banner = await startLines([], /^\s+dashboard\s/);
    expect(banner.find((l) => /^\s+dashboard\s/.test(l))).toMatch(
      /^\s+dashboard\s+http:\/\/127\.0\.0\.1:\d+\/dashboard\s/,
    );
  });

  it('paygate dashboard prints the URL when stdout is no terminal, and JSON with --json', async () => {
    const base = 'http://127.0.0.1:4999/w/ws_ci';
    const plain = await runCli(['dashboard', '--base-url', base]);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim()).toBe(`${base}/dashboard`);
    const json = await runCli(['dashboard', '--base-url', `${base}/`, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ dashboard_url: `${base}/dashboard`, opened: false });
    const help = await runCli(['dashboard', '--help']);
    expect(help.stdout).toContain('$ paygate dashboard');
  });

  it('a browser is opened only on a terminal with a display', () => {
    expect(opener('linux', {}, true)).toBeUndefined();
    expect(opener('linux', { DISPLAY: ':0' }, false)).toBeUndefined();
    expect(opener('linux', { DISPLAY: ':0' }, true)).toEqual({ command: 'xdg-open', args: [] });
    expect(opener('linux', { WAYLAND_DISPLAY: 'wayland-0' }, true)?.command).toBe('xdg-open');
    expect(opener('darwin', {}, true)?.command).toBe('open');
    expect(opener('darwin', {}, false)).toBeUndefined();
  });
});
