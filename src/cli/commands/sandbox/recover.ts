// `paygate sandbox start --store postgres://…` when the database goes away (restart, crash, network): the writer's
// session is lost, and with it the active lease. The sandbox keeps listening meanwhile: what was in flight and
// every new write answers 503 store_unavailable (its store refuses every write; reads answer from memory), never a
// connection reset. Every second it tries the database again: once it is back and the lease is free, a new sandbox
// is loaded from the database (the state as committed: nothing acknowledged is lost) and takes the port over; if
// another process took the lease meanwhile, this one stands by (standby.ts) as a standby started fresh would.
import type { Sandbox } from '../../../emulator/index.js';
import { storeUnavailable } from '../../../emulator/runtime/errors.js';
import type { PostgresBackend } from '../../../store/postgres/backend.js';
import type { Output } from '../../output.js';
import { acquireLease, type Leased } from './standby.js';

/** A sandbox on `backend`, on the options it was started with (the admin token kept). */
export type Reopen = (backend: PostgresBackend | undefined, adminToken?: string | null) => Promise<Sandbox>;

export interface Lost {
  sandbox: Sandbox;
  leased: Leased;
  /** The URL it listens at: its port is kept. */
  url: string;
  host: string;
  fsync: boolean | undefined;
  lost: Error;
}

/** Real milliseconds between two tries of the database while it is away. */
const RETRY_MS = 1000;

async function closeOld(old: Lost, output: Output): Promise<void> {
  await old.sandbox
    .close()
    .catch((e: unknown) =>
      output.note(`paygate: error while closing the sandbox whose database went away: ${(e as Error).message}`),
    );
  await old.leased.backend.close();
}

/**
 * Serve 503 store_unavailable (the old sandbox, left open) until the database is back, then the sandbox that
 * replaces it, listening on the same port. Undefined: SIGINT/SIGTERM stopped it meanwhile (everything closed).
 */
export async function recover(
  old: Lost,
  output: Output,
  reopen: (backend: PostgresBackend) => Promise<Sandbox>,
): Promise<{ sandbox: Sandbox; leased: Leased } | undefined> {
  const { PostgresBackend } = await import('../../../store/postgres/backend.js');
  const dbUrl = old.leased.backend.opts.url;
  const listening = new URL(old.url);
  const port = Number(listening.port || (listening.protocol === 'https:' ? 443 : 80));
  output.note(
    `${old.lost.message.split(';')[0]}; writes answer 503 store_unavailable until the database is back (trying every ${RETRY_MS / 1000} s)`,
  );
  // Its timers stop; a create waiting on the provider (`+slow`) answers 503 now rather than wait for a timer that
  // can no longer write its outcome.
  old.sandbox.service.stop(storeUnavailable(old.lost));
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('stopped'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let backend: PostgresBackend | undefined;
  try {
    backend = await untilBack(PostgresBackend, dbUrl, old.fsync, abort.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (abort.signal.aborted) {
    await backend?.close();
    await closeOld(old, output);
    return undefined;
  }
  const next = await replacement(old, output, reopen, backend, port);
  if (!next) return undefined;
  const { sandbox, leased } = next;
  try {
    await sandbox.listen({ port, host: old.host });
  } catch (e) {
    await sandbox.close();
    await leased.backend.close();
    throw e;
  }
  return { sandbox, leased };
}

/**
 * Try the database every RETRY_MS until it answers: the backend holding the lease when it is ours again, undefined
 * when another process holds it (or `signal` aborted the wait).
 */
async function untilBack(
  Backend: typeof PostgresBackend,
  dbUrl: string,
  fsync: boolean | undefined,
  signal: AbortSignal,
): Promise<PostgresBackend | undefined> {
  for (;;) {
    // Wait first: a standby (polling every 250 ms) takes over from a session that was lost while the database runs.
    await new Promise<void>((r) => {
      const t = setTimeout(r, RETRY_MS);
      signal.addEventListener('abort', () => (clearTimeout(t), r()), { once: true });
    });
    if (signal.aborted) return undefined;
    const b = new Backend({ url: dbUrl, ...(fsync !== undefined ? { fsync } : {}) });
    try {
      if (await b.tryAcquire()) {
        await b.waitForLease(); // ours already: kept while no workspace is open
        return b;
      }
      await b.close();
      return undefined; // back, but another process holds the lease
    } catch {
      await b.close();
    }
  }
}

/**
 * The sandbox that replaces the old one (closed here): loaded on `backend` when the lease is ours again, else once
 * this process has waited for the lease as a standby does. Undefined: it was stopped while standing by.
 */
async function replacement(
  old: Lost,
  output: Output,
  reopen: (backend: PostgresBackend) => Promise<Sandbox>,
  backend: PostgresBackend | undefined,
  port: number,
): Promise<{ sandbox: Sandbox; leased: Leased } | undefined> {
  let leased: Leased | undefined;
  let sandbox: Sandbox;
  const dbUrl = old.leased.backend.opts.url;
  if (backend) {
    // Loaded before the old one lets go of the port: no request meets a closed port.
    leased = { backend, port, handOver: async () => {} };
    try {
      sandbox = await reopen(backend);
    } catch (e) {
      await backend.close();
      await closeOld(old, output);
      throw e;
    }
    await closeOld(old, output);
    output.note(
      `paygate: the database is back; this process holds the active lease of ${backend.label} again and serves the state it committed`,
    );
  } else {
    await closeOld(old, output);
    leased = await acquireLease(dbUrl, port, old.host, output, { reset: false, fsync: old.fsync });
    if (!leased) return undefined;
    try {
      sandbox = await reopen(leased.backend);
      await leased.handOver();
    } catch (e) {
      await leased.handOver();
      await leased.backend.close();
      throw e;
    }
  }
  return { sandbox, leased };
}
