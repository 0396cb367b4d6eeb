// `--help` of every command (with an Example), `--version`, and usage errors from commander (exit 2).
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, tempConfig } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const COMMANDS = [
  [],
  ['payment'],
  ['payment', 'create'],
  ['payment', 'link'],
  ['payment', 'confirm'],
  ['payment', 'cancel'],
  ['payout'],
  ['payout', 'create'],
  ['availability'],
  ['recommend'],
  ['state'],
  ['balances'],
  ['health'],
  ['openapi'],
  ['config'],
  ['config', 'set'],
  ['config', 'get'],
  ['config', 'list'],
  ['config', 'use'],
  ['sandbox'],
  ['sandbox', 'start'],
  ['sandbox', 'time'],
  ['sandbox', 'time', 'advance'],
  ['sandbox', 'pay'],
  ['sandbox', 'settle'],
  ['sandbox', 'review'],
  ['sandbox', 'operations'],
  ['sandbox', 'evidence'],
  ['sandbox', 'keys'],
  ['sandbox', 'keys', 'list'],
  ['sandbox', 'keys', 'issue'],
  ['sandbox', 'keys', 'revoke'],
  ['sandbox', 'webhooks'],
  ['sandbox', 'webhooks', 'add'],
  ['sandbox', 'webhooks', 'list'],
  ['sandbox', 'webhooks', 'rotate-secret'],
  ['sandbox', 'webhooks', 'remove'],
  ['sandbox', 'webhooks', 'deliveries'],
  ['sandbox', 'webhooks', 'redeliver'],
  ['sandbox', 'pool'],
  ['sandbox', 'pool', 'layout'],
  ['sandbox', 'pool', 'show'],
  ['sandbox', 'pool', 'settings'],
  ['sandbox', 'links'],
  ['sandbox', 'links', 'show'],
  ['sandbox', 'links', 'confirm'],
  ['sandbox', 'reset'],
  ['webhooks'],
  ['webhooks', 'listen'],
  ['trigger'],
  ['proxy'],
  ['operation'],
  ['operation', 'history'],
  ['completion'],
  ['globals'],
];

const cfg = tempConfig();
const env = { PAYGATE_CONFIG: cfg.path };
afterAll(() => cfg.cleanup());

describe('paygate --help', () => {
  it.concurrent.each(COMMANDS.map((c) => [c.join(' ') || '(root)', c] as const))(
    '%s --help has an Example',
    async (_, cmd) => {
      const r = await runCli([...cmd, '--help'], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Example');
      expect(r.stdout).toMatch(/^Usage: paygate/);
    },
  );

  it('lists the flags named after the request fields: the destination ones on payout create only', async () => {
    const payout = await runCli(['payout', 'create', '--help'], { env });
    for (const flag of [
      '--method',
      '--amount',
      '--currency',
      '--client-id',
      '--client-ip',
      '--merchant-operation-id',
      '--number',
      '--name',
      '--bankname',
      '--json',
    ]) {
      expect(payout.stdout).toContain(flag);
    }
    const payment = await runCli(['payment', 'create', '--help'], { env });
    for (const flag of [
      '--method',
      '--amount',
      '--currency',
      '--client-id',
      '--client-ip',
      '--merchant-operation-id',
      '--json',
    ]) {
      expect(payment.stdout).toContain(flag);
    }
    for (const flag of ['--number', '--name', '--bankname']) expect(payment.stdout).not.toContain(flag);
  });

  it('marks the required options', async () => {
    const create = await runCli(['payout', 'create', '--help'], { env });
    for (const flag of ['--method', '--amount', '--currency', '--client-id', '--number']) {
      expect(create.stdout, flag).toMatch(
        new RegExp(`^  ${flag} <[^>]+> +[^\\n]*(\\n {20,}[^\\n]*)*\\(required\\)`, 'm'),
      );
    }
    expect(create.stdout).toMatch(
      /--bankname <code> +destination bank code, e\.g\. sber \(required for\s+WT_RUB_PHONE\)/,
    );
    expect(create.stdout).not.toMatch(/--client-ip <ip> +[^\n]*required/);
    const confirm = await runCli(['payment', 'confirm', '--help'], { env });
    expect(confirm.stdout).toMatch(/--receipt <file> +path of the receipt PDF \(required\)/);
    expect(confirm.stdout).toContain('--merchant-operation-id <id>');
  });

  it('collapses the global options into one line; `paygate help globals` lists them in full', async () => {
    for (const cmd of [['payment', 'create'], ['sandbox', 'time'], ['sandbox']]) {
      const r = await runCli([...cmd, '--help'], { env });
      expect(r.stdout, cmd.join(' ')).toMatch(
        /^Global options: --base-url, --api-key, --admin-token, --profile, --ca,\s+--no-color \(see\s+`paygate help globals`\)$/m,
      );
      expect(r.stdout).not.toContain('Global Options:');
      expect(r.stdout).not.toContain('PAYGATE_PROFILE');
    }
    const globals = await runCli(['help', 'globals'], { env });
    expect(globals.code).toBe(0);
    for (const s of [
      '--base-url <url>',
      'PAYGATE_BASE_URL',
      '--api-key <key>',
      'PAYGATE_API_KEY',
      '--admin-token <token>',
      '--profile <name>',
      'PAYGATE_PROFILE',
      '--no-color',
      'NO_COLOR',
    ]) {
      expect(globals.stdout).toContain(s);
    }
    const root = await runCli(['--help'], { env });
    expect(root.stdout).toContain('--no-color');
    expect(root.stdout).not.toContain('Global options:');
    expect(root.stdout).not.toMatch(/^ +globals /m);
  });

  it('documents the sandbox options and their env variables', async () => {
    const r = await runCli(['sandbox', 'start', '--help'], { env });
    for (const s of [
      '--port',
      'PAYGATE_PORT',
      '--host',
      '--store',
      'PAYGATE_STORE',
      '--fixtures',
      'PAYGATE_FIXTURES',
      '--in-memory',
      '--reset',
      '--frozen-clock',
      '--json',
    ]) {
      expect(r.stdout).toContain(s);
    }
  });

  it('sandbox pool layout documents both forms and the shop key it needs', async () => {
    const r = await runCli(['sandbox', 'pool', 'layout', '--help'], { env });
    for (const s of [
      '--method',
      '--amounts',
      '--count',
      '--min',
      '--max',
      '--step',
      '--seed',
      '--json',
      'not_pool_route',
      'paygate sandbox pool layout --method WT_RUB_C2C',
    ]) {
      expect(r.stdout).toContain(s);
    }
  });

  it('documents the global --admin-token and where the token comes from', async () => {
    for (const cmd of [
      ['sandbox', 'time'],
      ['sandbox', 'pool', 'show'],
      ['sandbox', 'pool', 'settings'],
    ]) {
      const r = await runCli([...cmd, '--help'], { env });
      for (const s of ['--admin-token', 'PAYGATE_ADMIN_TOKEN', 'admin-token', 'paygate sandbox start'])
        expect(r.stdout, cmd.join(' ')).toContain(s);
    }
  });
});

describe('paygate --version', () => {
  it('prints the package.json version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const r = await runCli(['--version'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });
});

describe('usage errors exit 2', () => {
  it('unknown command', async () => {
    const r = await runCli(['bogus'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'bogus'");
  });

  it('unknown option, with a suggestion', async () => {
    const r = await runCli(['balances', '--api-kye', 'x'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--api-key');
  });

  it('a group command without its subcommand', async () => {
    const r = await runCli(['payment'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: paygate payment');
  });

  it('an invalid --port', async () => {
    const r = await runCli(['sandbox', 'start', '--port', '70000'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('0 to 65535');
  });

  it('an invalid --limit', async () => {
    const r = await runCli(['recommend', '--limit', '11'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('1 to 10');
  });
});
