// `paygate scenario` as a subprocess: run writes JUnit with one testcase per scenario and exits 0; a changed expected
// status exits 1 with a failure naming the step; a malformed file exits 2 with file:line:column; an unreachable
// --base-url exits 3; the same scenarios pass against `paygate sandbox start` in another process; list, validate and
// new; and `scenario --help` loads no command module.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, deadPort, ROOT, runCli, tempConfig } from '../../run-cli.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

const cfg = tempConfig();
const env = { PAYGATE_CONFIG: cfg.path };
afterAll(() => cfg.cleanup());

function countFiles(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? countFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? 1 : 0),
    0,
  );
}

describe('paygate scenario run', () => {
  it('runs the bundled library in process, exit 0, JUnit with one testcase per scenario', async () => {
    const xml = join(cfg.dir, 'report.xml');
    const r = await runCli(
      ['scenario', 'run', 'scenarios/', '--reporter', 'terminal', '--reporter', 'junit', '--output', xml],
      { env, timeout: 60_000 },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const total = countFiles(join(ROOT, 'scenarios'));
    expect(r.stdout).toContain(`scenarios: ${total} passed, 0 failed, 0 skipped`);
    expect(r.stdout).toMatch(/time \d+\.\d+ s · in-process · seed \d+/);
    const report = readFileSync(xml, 'utf8');
    expect(report.match(/<testcase /g)).toHaveLength(total);
    expect(report).toMatch(new RegExp(`<testsuites tests="${total}" failures="0"`));
  });

  it('a changed expected status exits 1, and the JUnit failure names the step', async () => {
    const dir = join(cfg.dir, 'mutated', 'payouts');
    mkdirSync(dir, { recursive: true });
    const text = readFileSync(join(ROOT, 'scenarios/payouts/payout-fails.yaml'), 'utf8').replace(
      'expect: { status: 409, code: invalid_state }',
      'expect: { status: 200 }',
    );
    writeFileSync(join(dir, 'payout-fails.yaml'), text.replaceAll('../../fixtures/', `${ROOT}fixtures/`));
    const xml = join(cfg.dir, 'mutated.xml');
    const r = await runCli(['scenario', 'run', dir, '--reporter', 'junit', '--output', xml, '--reporter', 'json'], {
      env,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('1 of 1 scenario failed');
    const report = readFileSync(xml, 'utf8');
    expect(report).toMatch(
      /<failure message="step 5 operations.settle \([^)]*payout-fails.yaml:\d+\): status" type="expectation">/,
    );
    expect(report).toContain('- status: 200');
    expect(report).toContain('+ status: 409');
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; status?: string });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', failed: 1 });
  });

  it('a malformed file exits 2 naming file:line:column; nothing runs', async () => {
    const bad = join(cfg.dir, 'bad.yaml');
    writeFileSync(bad, 'name: bad\nsteps:\n  - call: payment.create\n    expect:\n      status: two hundred\n');
    const r = await runCli(['scenario', 'run', bad], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:5:15: steps\[0\]\.expect\.status: /);
    expect(r.stdout).toBe('');
  });

  it('a malformed file with --reporter junit still writes the JUnit file, the file as a failed testcase, and exits 2', async () => {
    const bad = join(cfg.dir, 'bad-junit.yaml');
    writeFileSync(bad, 'name: bad\nsteps:\n  - call: payment.create\n    expect:\n      status: two hundred\n');
    const xml = join(cfg.dir, 'invalid', 'report.xml');
    const r = await runCli(['scenario', 'run', bad, '--reporter', 'terminal', '--reporter', 'junit', '--output', xml], {
      env,
    });
    expect(r.code).toBe(2);
    const report = readFileSync(xml, 'utf8');
    expect(report).toMatch(/<testsuites tests="1" failures="1"/);
    expect(report).toMatch(
      /<failure message="[^"]*bad-junit\.yaml:5:15: steps\[0\]\.expect\.status: [^"]*" type="invalid">/,
    );
  });

  it('a folder with a saved `sandbox start --json` runs its scenarios and says which file it skipped', async () => {
    const dir = join(cfg.dir, 'mixed');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'balances.yaml'), 'name: balances\nsteps:\n  - call: balances.list\n');
    writeFileSync(join(dir, 'sandbox.json'), '{"base_url":"http://127.0.0.1:4080","admin_token":"pg_admin_x"}\n');
    const r = await runCli(['scenario', 'run', dir, '--reporter', 'json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^skipped 1 file that is not a scenario \(no top-level steps:\): \S*mixed\/sandbox\.json$/m,
    );
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
      type: string;
      passed: number;
      skippedFiles: string[];
    };
    expect(summary).toMatchObject({
      type: 'summary',
      passed: 1,
      skippedFiles: [expect.stringMatching(/mixed\/sandbox\.json$/)],
    });
    const list = await runCli(['scenario', 'list', dir, '--json'], { env });
    expect(JSON.parse(list.stdout)).toMatchObject({
      scenarios: [{ name: 'balances' }],
      skipped_files: [expect.stringMatching(/sandbox\.json$/)],
    });
  });

  it('in a project without scenarios/: the error points at the bundled library, and --bundled runs it', async () => {
    const project = join(cfg.dir, 'consumer');
    mkdirSync(project, { recursive: true });
    const missing = await runCli(['scenario', 'run'], { env, cwd: project });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or directory: scenarios');
    expect(missing.stderr).toContain('the scenario library that comes with paygate is in ');
    expect(missing.stderr).toContain('`paygate scenario run --bundled`');
    const bundled = await runCli(['scenario', 'run', '--bundled', '--grep', 'payouts/payout-settles'], {
      env,
      cwd: project,
    });
    expect(bundled.code, bundled.stdout + bundled.stderr).toBe(0);
    expect(bundled.stdout).toContain('scenarios: 1 passed, 0 failed, 0 skipped');
    expect((await runCli(['scenario', 'list', '--bundled', 'scenarios/'], { env })).code).toBe(2);
  });

  it('the failure diff is labelled; coloured (expected green, actual red) only when colour is on', async () => {
    const file = join(cfg.dir, 'colour', 'wrong-status.yaml');
    mkdirSync(join(cfg.dir, 'colour'), { recursive: true });
    writeFileSync(file, 'name: wrong status\nsteps:\n  - call: balances.list\n    expect: { status: 418 }\n');
    const piped = await runCli(['scenario', 'run', file], { env });
    expect(piped.code).toBe(1);
    expect(piped.stdout).toContain('- expected  + actual\n');
    expect(piped.stdout).toContain('- status: 418\n');
    expect(piped.stdout).not.toContain('\x1b[');
    const forced = await runCli(['scenario', 'run', file], { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\x1b[32m- expected\x1b[39m  \x1b[31m+ actual\x1b[39m');
    expect(forced.stdout).toContain('\x1b[32m- status: 418\x1b[39m');
    expect(forced.stdout).toContain('\x1b[31m+ status: 200\x1b[39m');
  });

  it('an unreachable --base-url exits 3', async () => {
    const port = await deadPort();
    const r = await runCli(['--base-url', `http://127.0.0.1:${port}`, 'scenario', 'run', 'scenarios/payments'], {
      env,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot reach http://127.0.0.1:${port}`);
  });

  it('--reporter json --output <file>: the JSON Lines go to the file (its directory made), the terminal report to stdout', async () => {
    const file = join(cfg.dir, 'json-out', 'report.jsonl');
    const r = await runCli(
      [
        'scenario',
        'run',
        'scenarios/payments/card-payment-paid.yaml',
        '--reporter',
        'terminal',
        '--reporter',
        'json',
        '--output',
        file,
      ],
      { env },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('scenarios: 1 passed, 0 failed, 0 skipped');
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', passed: 1, failed: 0 });
    expect(lines.some((l) => l.type === 'scenario')).toBe(true);
  });

  it('--reporter with an unknown name, --output without junit, no match for --grep: exit 2', async () => {
    expect((await runCli(['scenario', 'run', '--reporter', 'html'], { env })).code).toBe(2);
    expect((await runCli(['scenario', 'run', '--output', 'x.xml'], { env })).code).toBe(2);
    const r = await runCli(['scenario', 'run', '--grep', 'no scenario has this name'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no scenario matches --grep');
  });
});

describe('paygate scenario run --base-url against paygate sandbox start in another process', () => {
  let child: ChildProcess | undefined;
  let baseUrl = '';
  const ADMIN = 'pg_admin_scenario_cli_test';
  beforeAll(async () => {
    child = spawn(
      process.execPath,
      [BIN, 'sandbox', 'start', '--port', '0', '--in-memory', '--frozen-clock', '--json'],
      {
        cwd: ROOT,
        env: { ...process.env, PAYGATE_ADMIN_TOKEN: ADMIN, PAYGATE_CONFIG: cfg.path },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    baseUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { base_url: string }).base_url);
      });
      child!.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
    });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('the same scenarios pass, each on a reset sandbox, webhooks through a receiver on 127.0.0.1', async () => {
    const paths = [
      'scenarios/payments',
      'scenarios/webhooks/every-event-type.yaml',
      'scenarios/ledger',
      'scenarios/state-machine/payment-pending--expire.yaml',
    ];
    const r = await runCli(['--base-url', baseUrl, '--admin-token', ADMIN, 'scenario', 'run', ...paths], {
      env,
      timeout: 80_000,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scenarios: \d+ passed, 0 failed, 0 skipped/);
    expect(r.stdout).toContain(`against ${baseUrl} (concurrency 1`);
  });

  it('without an admin token: a warning on stderr at the start, and wait_for fails at once saying why', async () => {
    const r = await runCli(['--base-url', baseUrl, 'scenario', 'run', 'scenarios/payouts/payout-settles.yaml'], {
      env,
    });
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^warning: no admin token was given \(pass --admin-token or set PAYGATE_ADMIN_TOKEN[^\n]*: the sandbox is not reset before each scenario/,
    );
    expect(r.stdout).toContain('wait_for could not read or move the sandbox clock: no admin token was given');
  });
});

describe('paygate scenario list, validate, new', () => {
  it('list --json prints each scenario with its steps, as one JSON document', async () => {
    const r = await runCli(['scenario', 'list', 'scenarios/payouts', '--json'], { env });
    expect(r.code).toBe(0);
    const rows = (JSON.parse(r.stdout) as { scenarios: { file: string; steps: number }[] }).scenarios;
    expect(rows.map((x) => x.file)).toEqual([
      'scenarios/payouts/payout-auto-conversion.yaml',
      'scenarios/payouts/payout-fails.yaml',
      'scenarios/payouts/payout-settles.yaml',
    ]);
    expect(rows.every((x) => x.steps > 1)).toBe(true);
  });

  it('validate passes the library and names every problem of a bad file, exit 2', async () => {
    const ok = await runCli(['scenario', 'validate'], { env });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(/\d+ scenario files valid/);
    const bad = join(cfg.dir, 'two-problems.yaml');
    writeFileSync(
      bad,
      'name: x\nsteps:\n  - call: payment.craete\n  - call: balances.list\n    expect: { webhook: [] }\n',
    );
    const r = await runCli(['scenario', 'validate', bad, '--json'], { env });
    expect(r.code).toBe(2);
    const body = JSON.parse(r.stdout) as { valid: boolean; problems: { line: number; column: number; path: string }[] };
    expect(body.valid).toBe(false);
    expect(body.problems.map((p) => [p.line, p.column, p.path])).toEqual([
      [3, 11, 'steps[0].call'],
      [5, 15, 'steps[1].expect.webhook'],
    ]);
  });

  it('new writes a commented starter that validates and passes; it does not overwrite', async () => {
    const file = join(cfg.dir, 'new', 'my-first.yaml');
    const r = await runCli(['scenario', 'new', 'my first scenario', '--output', file], { env });
    expect(r.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/^# yaml-language-server: \$schema=/);
    expect((await runCli(['scenario', 'run', file], { env })).code).toBe(0);
    const again = await runCli(['scenario', 'new', 'my first scenario', '--output', file], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--force');
  });
});

describe('lazy loading', () => {
  const HOOK = fileURLToPath(new URL('../../load-log-hook.mjs', import.meta.url));
  it('scenario run --help loads no command module, no scenario runner, no emulator', async () => {
    const log = join(cfg.dir, 'scenario-help.log');
    const r = await runCli(['scenario', 'run', '--help'], {
      nodeArgs: ['--import', HOOK],
      env: { ...env, PAYGATE_TEST_LOAD_LOG: log },
    });
    expect(r.code).toBe(0);
    const modules = readFileSync(log, 'utf8').trim().split('\n');
    expect(
      modules.filter((m) =>
        /\/dist\/(cli\/commands|scenarios|emulator|client)\/|node_modules\/(yaml|zod|junit-report-builder|ora)\//.test(
          m,
        ),
      ),
    ).toEqual([]);
  });
});
