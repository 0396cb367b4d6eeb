// `paygate sandbox` and `paygate sandbox start`: flags, help and typed options (run: commands/sandbox.ts); the
// controls under `sandbox` are defined in define/sandbox-*.ts and added here.
import { Option, type Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { action, example, flag, num, parsePort, str, type Parsed } from './shared.js';
import { defineSandboxEvidence } from './sandbox-evidence.js';
import { defineSandboxFaults } from './sandbox-faults.js';
import { defineSandboxKeys } from './sandbox-keys.js';
import { defineSandboxLinks } from './sandbox-links.js';
import { defineSandboxOperations } from './sandbox-operations.js';
import { defineSandboxPool } from './sandbox-pool.js';
import { defineSandboxReset } from './sandbox-reset.js';
import { defineSandboxTime } from './sandbox-time.js';
import { defineSandboxWebhooks } from './sandbox-webhooks.js';

export interface SandboxStartOptions {
  /** Port to listen on; 0 picks a free one. Default 4080 (env PAYGATE_PORT). */
  port: number;
  /** Interface to listen on. Default 127.0.0.1 (env PAYGATE_HOST). */
  host: string;
  /** State file, or a PostgreSQL URL (postgres://user@host/db). Default `.paygate/sandbox.json` (env PAYGATE_STORE). Ignored when `inMemory`. */
  store: string;
  /** Absolute path of the world fixture file. Default: the bundled `fixtures/default.json` (env PAYGATE_FIXTURES). */
  fixtures: string;
  /** Keep state in memory only. Default false. */
  inMemory: boolean;
  /** Delete the stored state before starting. Default false. */
  reset: boolean;
  /** Stand the sandbox clock still until advanced. Default false (env PAYGATE_FROZEN_CLOCK=1). */
  frozenClock: boolean;
  /** fdatasync each group write (power-loss durability). Default false: writes survive a process crash. */
  fsync: boolean;
  /** A webhook URL registered for every shop. Default none. */
  webhookUrl?: string;
  /** Serve over TLS with the self-signed certificate kept beside the store (generated on first start). Default false (env PAYGATE_HTTPS=1). */
  https: boolean;
  /** Base of every URL the sandbox returns, for a sandbox behind a proxy (env PAYGATE_PUBLIC_URL). Default: the listening URL. */
  publicUrl?: string;
  /** Replace the admin token a store kept from an earlier start with a new one (printed). Default false: keep it. */
  newAdminToken?: boolean;
  /** Print one more admin token, valid beside the one a store kept (which stays valid). Default false. */
  addAdminToken?: boolean;
  /** Print the startup information as JSON instead of human text. Default false. */
  json: boolean;
}

/** The bundled fixture file, `fixtures/default.json` at the package root (three levels up from src/cli/define). */
export function bundledFixtures(): string {
  return fileURLToPath(new URL('../../../fixtures/default.json', import.meta.url));
}

/** Commander's values as SandboxStartOptions, with the defaults commander cannot know. */
export function sandboxStartOptions({ opts }: Parsed): SandboxStartOptions {
  const webhookUrl = str(opts.webhookUrl);
  const publicUrl = str(opts.publicUrl);
  return {
    port: num(opts.port) ?? 4080,
    host: str(opts.host) ?? '127.0.0.1',
    store: str(opts.store) ?? '.paygate/sandbox.json',
    fixtures: str(opts.fixtures) ?? bundledFixtures(),
    inMemory: flag(opts.inMemory),
    reset: flag(opts.reset),
    frozenClock: flag(opts.frozenClock),
    fsync: flag(opts.fsync),
    ...(webhookUrl !== undefined ? { webhookUrl } : {}),
    https: flag(opts.https),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(flag(opts.newAdminToken) ? { newAdminToken: true } : {}),
    ...(flag(opts.addAdminToken) ? { addAdminToken: true } : {}),
    json: flag(opts.json),
  };
}

/**
 * The subcommands and help text of the `sandbox` group (created, with its description, by program.ts): `start`,
 * then the controls in help order.
 */
export function defineSandbox(sandboxCmd: Command): void {
  sandboxCmd.addHelpText('after', `
Actions on one shop's operations (pay, settle, review, operations, webhooks, pool layout, links) take that shop's API
key; the clock, evidence, keys, pool show / settings, faults and reset take the admin token (--admin-token,
PAYGATE_ADMIN_TOKEN or the profile key admin-token), which \`paygate sandbox start\` prints (set PAYGATE_ADMIN_TOKEN
when starting it to fix it).
${example(`
  $ paygate sandbox start
  $ paygate sandbox start --port 0 --in-memory --frozen-clock --json
  $ paygate sandbox pay 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox time advance 10s --admin-token pg_admin_xxxxxxxxxxxx`)}`);
  sandboxCmd
    .command('start')
    .description('start the sandbox HTTP server (Ctrl+C stops it)')
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').env('PAYGATE_PORT').default(4080).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on (0.0.0.0: every interface, as in the container image)').env('PAYGATE_HOST').default('127.0.0.1'))
    .addOption(new Option('--store <path>', 'state file (persists between runs), or a PostgreSQL database postgres://user@host/db (several processes: one serves, the others stand by)').env('PAYGATE_STORE').default('.paygate/sandbox.json'))
    .addOption(
      new Option('--fixtures <path>', 'world fixture file: shops, keys, providers, routes (default: the bundled fixtures/default.json)').env(
        'PAYGATE_FIXTURES',
      ),
    )
    .option('--in-memory', 'keep state in memory only (nothing written, --store ignored)')
    .option('--reset', 'delete the stored state before starting')
    .option('--frozen-clock', 'stand the sandbox clock still until advanced (env: PAYGATE_FROZEN_CLOCK=1)')
    .option('--fsync', 'fdatasync every group write, so acknowledged changes survive power loss too (default: survive a crash of the process)')
    .option('--webhook-url <url>', 'register this webhook URL for every shop (its whsec_ secret is printed)')
    .option(
      '--https',
      'serve the API, pages and receipt files over TLS with a self-signed certificate, made on the first start and kept beside the store (<store>.cert.pem); prints its SHA-256 fingerprint (env: PAYGATE_HTTPS=1)',
    )
    .addOption(
      new Option('--public-url <url>', 'build every URL the sandbox returns (payment_url, receipt_url, links) from this base, e.g. behind a proxy').env(
        'PAYGATE_PUBLIC_URL',
      ),
    )
    .option('--new-admin-token', 'print a new admin token; the one an earlier start printed (kept hashed in the store) stops working (env PAYGATE_ADMIN_TOKEN: choose it)')
    .option('--add-admin-token', 'print one more admin token, valid beside the one an earlier start printed (which keeps working)')
    .option('--json', 'print the startup information (URL, demo keys) as JSON')
    .addHelpText('after', `
The admin token is kept (hashed) in the store: a restart keeps the one printed first valid and prints its last 4.
Lost it? --add-admin-token prints one more without invalidating anyone's; --new-admin-token replaces them all.
Set PAYGATE_ADMIN_TOKEN to choose the admin token. Every setting a container needs can come from the environment
(a flag wins over its variable): PAYGATE_PORT, PAYGATE_HOST, PAYGATE_STORE (a file or postgres://…),
PAYGATE_FIXTURES, PAYGATE_PUBLIC_URL, PAYGATE_HTTPS=1, PAYGATE_FROZEN_CLOCK=1, PAYGATE_ADMIN_TOKEN; the image sets PAYGATE_HOST=0.0.0.0
and PAYGATE_STORE=/data/sandbox.json.
Without --https or an https --public-url, receipt_url and payment_url are http:// links (the spec's receipt_url is
an HTTPS URL). Clients trust the self-signed certificate with --ca <file> or PAYGATE_CA=<file> (the CLI),
new Paygate({ ca }) (the client), or NODE_EXTRA_CA_CERTS=<file> (any Node program).
${example(`
  $ paygate sandbox start
  $ paygate sandbox start --port 0 --in-memory --frozen-clock
  $ paygate sandbox start --https                  # then: paygate --ca .paygate/sandbox.json.cert.pem balances
  $ paygate sandbox start --public-url https://paygate.example.test
  $ PAYGATE_STORE=/tmp/pg.json paygate sandbox start --reset --json
  $ docker run --rm -p 4080:4080 -e PAYGATE_ADMIN_TOKEN=pg_admin_local -v paygate-data:/data paygate
  $ paygate sandbox start --store postgres://paygate@db.internal/paygate --host 0.0.0.0   # run two: one stands by`)}`)
    .action(action(sandboxStartOptions, async () => (await import('../commands/sandbox.js')).sandboxStart));
  defineSandboxTime(sandboxCmd);
  defineSandboxOperations(sandboxCmd);
  defineSandboxEvidence(sandboxCmd);
  defineSandboxKeys(sandboxCmd);
  defineSandboxWebhooks(sandboxCmd);
  defineSandboxPool(sandboxCmd);
  defineSandboxLinks(sandboxCmd);
  defineSandboxFaults(sandboxCmd);
  defineSandboxReset(sandboxCmd);
}
