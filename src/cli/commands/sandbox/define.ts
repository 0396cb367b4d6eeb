// `paygate sandbox` and `paygate sandbox start`: flags, help and typed options (run: run.ts); the
// controls under `sandbox` are defined in define/sandbox-*.ts and added here.
import { Option, type Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { action, example, flag, num, parseIntIn, parsePort, str, type Parsed } from '../shared.js';
import type { ServerLimitOptions } from '../../../emulator/server-limits.js';
import { defineSandboxEvidence } from './evidence/define.js';
import { defineSandboxFaults } from './faults/define.js';
import { defineSandboxKeys } from './keys/define.js';
import { defineSandboxLinks } from './links/define.js';
import { defineSandboxOperations } from './operations/define.js';
import { defineSandboxPool } from './pool/define.js';
import { defineSandboxReset } from './reset/define.js';
import { defineSandboxTime } from './time/define.js';
import { defineSandboxWebhooks } from './webhooks/define.js';

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
  /**
   * Acknowledge a write once durable (--fsync / --no-fsync). Undefined: the store's default, off for a store file
   * (survives a process crash), on for PostgreSQL (the WAL flush: survives a crash of the database server).
   */
  fsync?: boolean;
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
  /** What one client may hold of the server (docs/limits.md); each number absent: its default. */
  limits: ServerLimitOptions;
  /** Print the startup information as JSON instead of human text. Default false. */
  json: boolean;
  /** Workspaces the server holds besides the default one. Default 64. */
  maxWorkspaces?: number;
  /** Cluster mode (src/cluster/): every process on the PostgreSQL store is active and owns some workspaces. */
  cluster?: ClusterStartFlags;
}

/** `--cluster` and its settings, as given (durations as text: read when the command runs). */
export interface ClusterStartFlags {
  /** Where the other processes reach this one (env PAYGATE_CLUSTER_ADDRESS). Default: its listening URL. */
  address?: string;
  /** How long a lease lasts without renewal. Default 1.5s. */
  leaseTtl?: string;
  /** Unload a workspace after this long without a request. Default: never. */
  idleUnload?: string;
  /** Workspaces one process holds at most. Default 64. */
  hotSet?: number;
}

const seconds = (v: unknown) => (typeof v === 'number' ? v * 1000 : undefined);

/** The limit flags of `sandbox start`, as SandboxOptions.limits. */
function limitOptions(opts: Parsed['opts']): ServerLimitOptions {
  return {
    connections: {
      maxConnections: num(opts.maxConnections),
      headersTimeoutMs: seconds(opts.headersTimeout),
      requestTimeoutMs: seconds(opts.requestTimeout),
      keepAliveTimeoutMs: seconds(opts.keepAliveTimeout),
      uploadDeadlineMs: seconds(opts.uploadDeadline),
    },
    streams: { total: num(opts.maxStreams), perCredential: num(opts.maxStreamsPerCredential) },
  };
}

const SECONDS = parseIntIn(1, 86_400, 'a whole number of seconds from 1 to 86400');

/** The bundled fixture file, `fixtures/default.json` at the package root (three levels up from src/cli/define). */
export function bundledFixtures(): string {
  return fileURLToPath(new URL('../../../../fixtures/default.json', import.meta.url));
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
    ...(typeof opts.fsync === 'boolean' ? { fsync: opts.fsync } : {}),
    ...(webhookUrl !== undefined ? { webhookUrl } : {}),
    https: flag(opts.https),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(flag(opts.newAdminToken) ? { newAdminToken: true } : {}),
    ...(flag(opts.addAdminToken) ? { addAdminToken: true } : {}),
    limits: limitOptions(opts),
    json: flag(opts.json),
    ...(num(opts.maxWorkspaces) !== undefined ? { maxWorkspaces: num(opts.maxWorkspaces) } : {}),
    ...(flag(opts.cluster) ? { cluster: clusterFlags(opts) } : {}),
  };
}

function clusterFlags(opts: Parsed['opts']): ClusterStartFlags {
  const address = str(opts.clusterAddress);
  const leaseTtl = str(opts.leaseTtl);
  const idleUnload = str(opts.idleUnload);
  const hotSet = num(opts.hotSet);
  return {
    ...(address !== undefined ? { address } : {}),
    ...(leaseTtl !== undefined ? { leaseTtl } : {}),
    ...(idleUnload !== undefined ? { idleUnload } : {}),
    ...(hotSet !== undefined ? { hotSet } : {}),
  };
}

/**
 * The subcommands and help text of the `sandbox` group (created, with its description, by program.ts): `start`,
 * then the controls in help order.
 */
export function defineSandbox(sandboxCmd: Command): void {
  sandboxCmd.addHelpText(
    'after',
    `
Actions on one shop's operations (pay, settle, review, operations, webhooks, pool layout, links) take that shop's API
key; the clock, evidence, keys, pool show / settings, faults and reset take the admin token (--admin-token,
PAYGATE_ADMIN_TOKEN or the profile key admin-token), which \`paygate sandbox start\` prints (set PAYGATE_ADMIN_TOKEN
when starting it to fix it).
${example(`
  $ paygate sandbox start
  $ paygate sandbox start --port 0 --in-memory --frozen-clock --json
  $ paygate sandbox pay 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox time advance 10s --admin-token pg_admin_xxxxxxxxxxxx`)}`,
  );
  defineStart(sandboxCmd);
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

/** `sandbox start`: where it listens and stores, its clock, TLS and admin token, its connection limits. */
function defineStart(sandboxCmd: Command): void {
  const start = sandboxCmd.command('start').description('start the sandbox HTTP server (Ctrl+C stops it)');
  withClusterFlags(withLimitFlags(withServerFlags(start)))
    .option('--json', 'print the startup information (URL, demo keys) as JSON')
    .addHelpText(
      'after',
      `
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
  $ paygate sandbox start --max-connections 512 --headers-timeout 5 --max-streams 64
  $ PAYGATE_STORE=/tmp/pg.json paygate sandbox start --reset --json
  $ docker run --rm -p 4080:4080 -e PAYGATE_ADMIN_TOKEN=pg_admin_local -v paygate-data:/data paygate
  $ paygate sandbox start --store postgres://paygate@db.internal/paygate --host 0.0.0.0   # run two: one stands by
  $ paygate sandbox start --store postgres://paygate@db.internal/paygate --no-fsync       # faster; a database crash may lose the last writes
  $ PAYGATE_ADMIN_TOKEN=pg_admin_team paygate sandbox start --cluster --store postgres://paygate@db.internal/paygate --idle-unload 10m`)}`,
    )
    .action(action(sandboxStartOptions, async () => (await import('./run.js')).sandboxStart));
}

/** `sandbox start --cluster` and its settings (src/cluster/, docs/scale-out.md). */
function withClusterFlags(cmd: Command): Command {
  return cmd
    .option(
      '--cluster',
      'with --store postgres://…: every process is active and owns a share of the workspaces (a lease per workspace); any process answers any request (docs/scale-out.md). Needs PAYGATE_ADMIN_TOKEN, the same on every process',
    )
    .addOption(
      new Option(
        '--cluster-address <url>',
        'with --cluster: where the other processes reach this one (default: the URL it listens at)',
      ).env('PAYGATE_CLUSTER_ADDRESS'),
    )
    .addOption(
      new Option(
        '--max-workspaces <n>',
        'workspaces this server holds besides the default one (default 64); with --cluster, see --hot-set',
      ).argParser(parseIntIn(1, 100_000, 'an integer from 1 to 100000')),
    )
    .option('--lease-ttl <duration>', 'with --cluster: how long a workspace lease lasts unrenewed (default 1.5s)')
    .option(
      '--idle-unload <duration>',
      'with --cluster: unload a workspace (and give up its lease) after this long without a request (default: never)',
    )
    .addOption(
      new Option('--hot-set <n>', 'with --cluster: workspaces this process holds at most (default 64)').argParser(
        parseIntIn(1, 100_000, 'an integer from 1 to 100000'),
      ),
    );
}

/** `sandbox start`'s listening, store, clock, webhook, TLS and admin-token flags. */
function withServerFlags(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--port <n>', 'port to listen on; 0 picks a free one')
        .env('PAYGATE_PORT')
        .default(4080)
        .argParser(parsePort),
    )
    .addOption(
      new Option('--host <host>', 'interface to listen on (0.0.0.0: every interface, as in the container image)')
        .env('PAYGATE_HOST')
        .default('127.0.0.1'),
    )
    .addOption(
      new Option(
        '--store <path>',
        'state file (persists between runs), or a PostgreSQL database postgres://user@host/db (several processes: one serves, the others stand by)',
      )
        .env('PAYGATE_STORE')
        .default('.paygate/sandbox.json'),
    )
    .addOption(
      new Option(
        '--fixtures <path>',
        'world fixture file: shops, keys, providers, routes (default: the bundled fixtures/default.json)',
      ).env('PAYGATE_FIXTURES'),
    )
    .option('--in-memory', 'keep state in memory only (nothing written, --store ignored)')
    .option('--reset', 'delete the stored state before starting')
    .option('--frozen-clock', 'stand the sandbox clock still until advanced (env: PAYGATE_FROZEN_CLOCK=1)')
    .option(
      '--fsync',
      'acknowledge a write once it is on disk: a store file fdatasyncs every group write (survives power loss, not only a crash of the process); PostgreSQL waits for the WAL flush (its default)',
    )
    .option(
      '--no-fsync',
      "PostgreSQL: acknowledge before the WAL flush (synchronous_commit off): faster, but a crash of the database server may lose the last acknowledged writes (the file store's default: no fdatasync)",
    )
    .option('--webhook-url <url>', 'register this webhook URL for every shop (its whsec_ secret is printed)')
    .option(
      '--https',
      'serve the API, pages and receipt files over TLS with a self-signed certificate, made on the first start and kept beside the store (<store>.cert.pem); prints its SHA-256 fingerprint (env: PAYGATE_HTTPS=1)',
    )
    .addOption(
      new Option(
        '--public-url <url>',
        'build every URL the sandbox returns (payment_url, receipt_url, links) from this base, e.g. behind a proxy',
      ).env('PAYGATE_PUBLIC_URL'),
    )
    .option(
      '--new-admin-token',
      'print a new admin token; the one an earlier start printed (kept hashed in the store) stops working (env PAYGATE_ADMIN_TOKEN: choose it)',
    )
    .option(
      '--add-admin-token',
      'print one more admin token, valid beside the one an earlier start printed (which keeps working)',
    );
}

/** `sandbox start`'s connection and stream limits. */
function withLimitFlags(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        '--max-connections <n>',
        'connections open at once; one more is answered 503 and closed (default 4096)',
      ).argParser(parseIntIn(1, 1_000_000, 'an integer from 1 to 1000000')),
    )
    .addOption(
      new Option(
        '--headers-timeout <s>',
        'seconds a request may take to send its headers; then 408 (default 10)',
      ).argParser(SECONDS),
    )
    .addOption(
      new Option(
        '--request-timeout <s>',
        'seconds a request may take to arrive whole, body included; then 408 — not the answer: event streams live on (default 30)',
      ).argParser(SECONDS),
    )
    .addOption(
      new Option('--keep-alive-timeout <s>', 'seconds an idle keep-alive connection is kept (default 65)').argParser(
        SECONDS,
      ),
    )
    .addOption(
      new Option(
        '--upload-deadline <s>',
        'seconds a receipt upload may take to arrive; then 408 upload_timeout, its queue place freed (default 20)',
      ).argParser(SECONDS),
    )
    .addOption(
      new Option(
        '--max-streams <n>',
        'event streams open at once; one more is 503 streams_full (default 512)',
      ).argParser(parseIntIn(1, 1_000_000, 'an integer from 1 to 1000000')),
    )
    .addOption(
      new Option(
        '--max-streams-per-credential <n>',
        'event streams one key, admin token or payment page may have open; one more is 429 streams_busy (default 16)',
      ).argParser(parseIntIn(1, 1_000_000, 'an integer from 1 to 1000000')),
    );
}
