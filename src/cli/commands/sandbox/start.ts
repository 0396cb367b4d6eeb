// `paygate sandbox start`: create the sandbox from fixtures and a store, listen, print where it is, and run until
// SIGINT/SIGTERM, then flush and compact the store. Every start-up failure becomes a SandboxStartError (exit 5).
import { randomBytes } from 'node:crypto';
import type { Sandbox } from '../../../emulator/index.js';
import type { SandboxStartOptions } from './define.js';
import { dashboardUrl } from '../../../emulator/dashboard/url.js';
import { releaseMemoryAfterBursts } from '../../../emulator/memory-release.js';
import { publicUrlProblem } from '../../../emulator/public-url.js';
import { SandboxStartError, UsageError } from '../../errors.js';
import type { Output } from '../../output.js';
import { recover, type Reopen } from './recover.js';
import { acquireLease, isDatabaseStore, type Leased } from './standby.js';

export const DEFAULT_PORT = 4080;
export const DEFAULT_STORE = '.paygate/sandbox.json';

function parsePort(value: string | number | undefined): number {
  const text = String(value ?? process.env.PAYGATE_PORT ?? DEFAULT_PORT);
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535)
    throw new SandboxStartError(`invalid port ${text}`, 'use a number from 0 to 65535 (0 picks a free port)');
  return n;
}

/**
 * A yes/no environment variable (PAYGATE_HTTPS, PAYGATE_FROZEN_CLOCK): 1/true/yes/on or 0/false/no/off (any case; empty or unset: no).
 * Anything else is a usage error rather than a guess, so `PAYGATE_HTTPS=0` never turns TLS on.
 */
export function envFlag(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  throw new UsageError(
    `${name}="${env[name]}" is not a yes/no value`,
    `set ${name}=1 (or true, yes, on) to turn it on; ${name}=0 (or false, no, off) or unset leaves it off`,
  );
}

/** A start-up failure as the user can act on it: which port, or which file and what the system said. */
export function explain(e: unknown, port: number, host: string): SandboxStartError {
  const err = e as NodeJS.ErrnoException & { code?: string };
  if (
    err?.syscall !== undefined &&
    err.syscall !== 'listen' &&
    err.path !== undefined &&
    /^E[A-Z]+$/.test(err.code ?? '')
  ) {
    return new SandboxStartError(
      `cannot use the store at ${err.path}: ${err.code} (${err.syscall})`,
      err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS'
        ? 'make that folder writable, or pass --store <a writable path> or --in-memory'
        : 'pass --store <another path> or --in-memory',
      { cause: e },
    );
  }
  if (err?.code === 'EADDRINUSE') {
    return new SandboxStartError(
      `port ${port} on ${host} is already in use`,
      'stop what is listening there, or pass --port <other> (--port 0 picks a free one)',
    );
  }
  if (err?.code === 'EACCES')
    return new SandboxStartError(`not allowed to listen on ${host}:${port}`, 'pick a port above 1024');
  if (err?.code === 'port_unavailable') {
    return new SandboxStartError(
      err.message,
      'stop what is listening there, or pass --port <other> (above 1024; --port 0 picks a free one)',
    );
  }
  if (
    err?.code === 'store_locked' ||
    err?.code === 'store_schema' ||
    err?.code === 'tls_invalid' ||
    err?.code === 'store_corrupt' ||
    err?.code === 'store_failed' ||
    err?.code === 'fixture_invalid'
  ) {
    return new SandboxStartError(err.message, undefined, { cause: e });
  }
  return new SandboxStartError(`the sandbox could not start: ${err?.message ?? String(e)}`, undefined, { cause: e });
}

interface Started {
  sandbox: Sandbox;
  url: string;
  /** The interface it listens on (flag, else PAYGATE_HOST, else 127.0.0.1). */
  host: string;
  /** What to show as the store (a database URL without its password). */
  store: string | undefined;
  /** On a database store: the lease this process holds. */
  leased: Leased | undefined;
  /** A new sandbox on the same options (after the database came back), the admin token kept. */
  reopen: Reopen;
}

/** On a database store: the active lease, standing by until it is ours (undefined: stopped while waiting). */
async function leaseOf(
  store: string | undefined,
  port: number,
  host: string,
  output: Output,
  flags: { reset: boolean; fsync: boolean | undefined },
): Promise<Leased | undefined | 'none'> {
  if (!isDatabaseStore(store)) return 'none';
  try {
    return await acquireLease(store, port, host, output, flags);
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('store_')) throw explain(e, port, host);
    const shown = store.replace(/:\/\/([^:@/]*):[^@/]*@/, '://$1:***@');
    throw new SandboxStartError(
      `cannot use the PostgreSQL store ${shown}: ${(e as Error).message}`,
      'check the URL (postgres://user[:password]@host[:port]/database), that the server runs, and that this user may connect and create tables',
      { cause: e },
    );
  }
}

/** The running sandbox, listening; every failure explained as a SandboxStartError. Undefined: stopped while standing by. */
async function started(opts: SandboxStartOptions, output: Output): Promise<Started | undefined> {
  const port = parsePort(opts.port);
  const host = opts.host ?? process.env.PAYGATE_HOST ?? '127.0.0.1';
  const https = opts.https || envFlag('PAYGATE_HTTPS');
  const frozenClock = (opts.frozenClock ?? false) || envFlag('PAYGATE_FROZEN_CLOCK');
  const store = opts.inMemory ? undefined : (opts.store ?? process.env.PAYGATE_STORE ?? DEFAULT_STORE);
  const fixtures = opts.fixtures ?? process.env.PAYGATE_FIXTURES;
  const publicUrl = opts.publicUrl ?? process.env.PAYGATE_PUBLIC_URL;
  const problem = publicUrl === undefined ? undefined : publicUrlProblem(publicUrl);
  if (problem)
    throw new UsageError(
      `--public-url "${publicUrl}" ${problem}`,
      'give the base URL clients reach the sandbox at, e.g. https://paygate.example.test or http://proxy:8080/paygate',
    );
  if (opts.addAdminToken && (opts.newAdminToken || process.env.PAYGATE_ADMIN_TOKEN)) {
    throw new UsageError(
      `--add-admin-token adds one more token; ${opts.newAdminToken ? '--new-admin-token replaces them all' : 'PAYGATE_ADMIN_TOKEN chooses the one token'}: use one of them`,
    );
  }
  // Loaded before the lease, so a standby that takes over only loads the state.
  const { createSandbox } = await import('../../../emulator/index.js');
  const lease = await leaseOf(store, port, host, output, { reset: opts.reset ?? false, fsync: opts.fsync });
  if (lease === undefined) return undefined;
  const leased = lease === 'none' ? undefined : lease;
  let sandbox: Sandbox;
  const reopen: Reopen = (backend, adminToken) =>
    createSandbox({
      ...(fixtures ? { fixtures } : {}),
      ...(backend ? { backend } : store ? { store } : {}),
      reset: adminToken === undefined && (opts.reset ?? false),
      frozenClock,
      ...(opts.fsync !== undefined ? { fsync: opts.fsync } : {}),
      ...(opts.webhookUrl ? { webhookUrl: opts.webhookUrl } : {}),
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      https,
      ...(opts.limits ? { limits: opts.limits } : {}),
      ...(opts.maxWorkspaces !== undefined ? { maxWorkspaces: opts.maxWorkspaces } : {}),
      ...(adminToken !== undefined
        ? adminToken === null
          ? {}
          : { adminToken }
        : process.env.PAYGATE_ADMIN_TOKEN
          ? { adminToken: process.env.PAYGATE_ADMIN_TOKEN }
          : opts.newAdminToken
            ? { adminToken: `pg_admin_${randomBytes(12).toString('hex')}` }
            : {}),
      ...(opts.addAdminToken && adminToken === undefined ? { addAdminToken: true } : {}),
    });
  try {
    sandbox = await reopen(leased?.backend, undefined);
  } catch (e) {
    await leased?.handOver();
    await leased?.backend.close();
    throw explain(e, port, host);
  }
  try {
    await leased?.handOver();
    return {
      sandbox,
      url: (await sandbox.listen({ port: leased?.port ?? port, host })).url,
      host,
      store: leased ? leased.backend.label : store,
      leased,
      reopen,
    };
  } catch (e) {
    await sandbox.close();
    await leased?.backend.close();
    throw explain(e, port, host);
  }
}

/** What `--json` prints: where the sandbox is and the demo keys. */
function startupInfo(sandbox: Sandbox, url: string, store: string | undefined, webhookUrl: string | undefined) {
  const tls = sandbox.tls;
  return {
    /** What clients use: the --public-url base when given, else where it listens. */
    base_url: sandbox.urls.base,
    listen_url: url,
    payment_page_url: sandbox.urls.paymentPage,
    /** The dashboard (src/emulator/dashboard/): sign in with the admin token or a shop's key. */
    dashboard_url: dashboardUrl(sandbox.urls.base),
    storage_url: sandbox.urls.storage,
    store: store ?? null,
    clock: { frozen: sandbox.clock.frozen, now: new Date(sandbox.clock.now()).toISOString() },
    shops: sandbox.demo.shops,
    revoked_api_key: sandbox.demo.revoked_api_key,
    /** null when kept from an earlier start (only its hash is stored): it stays valid; admin_token_last4 names it. */
    admin_token: sandbox.adminToken ?? null,
    admin_token_last4: sandbox.adminTokenLast4,
    webhook_url: webhookUrl ?? null,
    webhook_secret: sandbox.webhookSecret ?? null,
    tls: tls
      ? {
          fingerprint_sha256: tls.fingerprint,
          cert_path: tls.certPath,
          key_path: tls.keyPath ?? null,
          names: tls.names,
          valid_to: tls.validTo,
          created: tls.created ?? null,
        }
      : null,
  };
}

/** The banner's TLS lines: the fingerprint to compare, the file to trust, whether it is new. */
function tlsLines(tls: Sandbox['tls'], out: typeof import('../../colors.js').out): string[] {
  if (!tls) return [];
  const made = tls.created ? `new: ${tls.created}` : 'kept from an earlier start';
  return [
    `  TLS             self-signed, SHA-256 ${out.yellow(tls.fingerprint)}`,
    `  certificate     ${tls.certPath}  ${out.dim(`(${made}; valid to ${tls.validTo.slice(0, 10)}; trust it with --ca or PAYGATE_CA)`)}`,
  ];
}

/** The human startup banner. */
async function readyLines(
  sandbox: Sandbox,
  info: ReturnType<typeof startupInfo>,
  webhookUrl: string | undefined,
): Promise<string[]> {
  const { out } = await import('../../colors.js');
  const url = info.base_url;
  return [
    out.bold.green('paygate sandbox is ready'),
    `  base URL        ${out.cyan(url)}${url !== info.listen_url ? `  ${out.dim(`(listening on ${info.listen_url})`)}` : ''}`,
    ...tlsLines(sandbox.tls, out),
    `  dashboard       ${out.cyan(info.dashboard_url)}  ${out.dim('(sign in with the admin token or a shop key)')}`,
    `  payment pages   ${sandbox.urls.paymentPage}/<operation_id>`,
    `  receipt files   ${sandbox.urls.storage}`,
    `  store           ${info.store ?? 'in memory (nothing is kept)'}`,
    `  clock           ${sandbox.clock.frozen ? `frozen at ${info.clock.now}` : 'follows real time'}`,
    '',
    out.bold('  demo shops'),
    ...sandbox.demo.shops.map((s) => {
      const flags = [
        s.hosted_page ? 'hosted page' : 'no hosted page',
        s.flexible_links ? 'flexible links' : null,
        s.pool_only ? 'pool only' : null,
      ]
        .filter(Boolean)
        .join(', ');
      return `  ${s.id.padEnd(10)} ${s.name.padEnd(28)} key ${out.yellow(s.api_key)}  ${out.dim(flags)}`;
    }),
    ...(sandbox.demo.revoked_api_key
      ? [`  ${'revoked'.padEnd(10)} ${''.padEnd(28)} key ${out.dim(sandbox.demo.revoked_api_key)}`]
      : []),
    '',
    sandbox.adminToken !== undefined
      ? `  admin token     ${out.yellow(sandbox.adminToken)}  ${out.dim('(X-Admin-Token for clock, keys, evidence, pool, reset and workspace controls)')}`
      : `  admin token     kept from an earlier start, …${sandbox.adminTokenLast4}  ${out.dim('(still valid; lost it? start with --add-admin-token for one more, valid beside it; --new-admin-token replaces it)')}`,
    ...(webhookUrl
      ? [`  webhooks        ${webhookUrl} for every shop, secret ${out.yellow(sandbox.webhookSecret ?? '')}`]
      : []),
    '',
    out.dim(
      `  try: PAYGATE_BASE_URL=${url}${sandbox.tls ? ` PAYGATE_CA=${sandbox.tls.certPath}` : ''} PAYGATE_API_KEY=${sandbox.demo.shops[0]?.api_key ?? '<key>'} paygate balances`,
    ),
    out.dim('  Ctrl+C stops the sandbox and compacts the store.'),
  ];
}

/**
 * Resolves (undefined) once SIGINT or SIGTERM has closed the sandbox (flushing and compacting its store, giving up the
 * lease). Resolves with the error when the database session holding the lease is lost: the sandbox is left open,
 * its writes failing (503 store_unavailable), for `recover` (recover.ts) to replace.
 */
function closedOnSignal(sandbox: Sandbox, output: Output, leased: Leased | undefined): Promise<Error | undefined> {
  return new Promise<Error | undefined>((resolve) => {
    let stopping = false;
    const stop = (lost?: Error) => {
      if (stopping) return;
      stopping = true;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (lost) return resolve(lost);
      const done = () => resolve(undefined);
      void sandbox
        .close()
        .catch((e: unknown) => output.note(`paygate: error while stopping: ${(e as Error).message}`))
        .then(() => leased?.backend.close())
        .then(done, done);
    };
    const onSignal = () => stop();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    leased?.backend.onLost((e) => stop(e));
  });
}

export async function runSandboxStart(opts: SandboxStartOptions, output: Output): Promise<void> {
  // This process serves the sandbox (alone or as one of a cluster): give memory back after bursts of closed
  // connections (docs/limits.md).
  releaseMemoryAfterBursts((line) => output.note(`paygate: ${line}`));
  if (opts.cluster) return (await import('../cluster/start.js')).runClusterStart(opts, opts.cluster, output);
  const running = await started(opts, output);
  if (!running) return;
  const { url, host, store, reopen } = running;
  let { sandbox, leased } = running;
  const info = startupInfo(sandbox, url, store, opts.webhookUrl);
  const lines = opts.json ? JSON.stringify(info) : (await readyLines(sandbox, info, opts.webhookUrl)).join('\n');
  const adminToken = sandbox.adminToken ?? null;
  // The handlers are in place before the ready line: a SIGTERM sent the moment it appears (docker stop, a test
  // harness) still compacts the store and exits 0, rather than killing the process.
  let closed = closedOnSignal(sandbox, output, leased);
  output.print(lines);
  for (;;) {
    const lost = await closed;
    if (!lost || !leased) return;
    // The database went away: keep answering (writes 503 store_unavailable) until it is back, then serve again.
    const next = await recover({ sandbox, leased, url, host, fsync: opts.fsync, lost }, output, (b) =>
      reopen(b, adminToken),
    ).catch((e: unknown) => {
      throw explain(e, leased!.port, host);
    });
    if (!next) return;
    ({ sandbox, leased } = next);
    closed = closedOnSignal(sandbox, output, leased);
  }
}
