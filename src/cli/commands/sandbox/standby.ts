// `paygate sandbox start --store postgres://…`: high availability on one database. The process that gets the active
// lease (an advisory lock, src/store/postgres/backend.ts) serves; the others stand by: they listen already, answer
// /livez and /healthz as healthy and /readyz (and every other request) 503 `standby`, so a load balancer that checks
// /readyz sends traffic to the active one only, and take over within a poll (250 ms) of its session ending.
import { createServer, type Server } from 'node:http';
import type { PostgresBackend } from '../../../store/postgres/backend.js';
import type { Output } from '../../output.js';

/** True for a store that names a PostgreSQL database. */
export const isDatabaseStore = (store: string | undefined): store is string =>
  store !== undefined && /^postgres(ql)?:\/\//i.test(store);

const SERVICE_UNAVAILABLE = 503;
const NO_CONTENT = 204;

/** The standby's answers: healthy (it runs), not ready (not active). */
function standbyServer(label: string): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/livez' || path === '/healthz') {
      res.writeHead(NO_CONTENT).end();
      return;
    }
    const body = JSON.stringify({
      code: 'standby',
      message: `this sandbox is a standby: another process holds the active lease of ${label}; it takes over when that one stops. Send requests to the active sandbox (the one whose /readyz answers 204).`,
    });
    res
      .writeHead(SERVICE_UNAVAILABLE, {
        'content-type': 'application/json;charset=UTF-8',
        'retry-after': '1',
        'cache-control': 'no-store',
      })
      .end(body);
  });
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

export interface Leased {
  backend: PostgresBackend;
  /** The port to serve on: the standby's own when it stood by (so --port 0 keeps its port). */
  port: number;
  /** Stop the standby's server (once the sandbox is loaded, just before it listens on the same port). */
  handOver(): Promise<void>;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Connect to the database (migrating its schema) and get the active lease, standing by until then. Resolves
 * undefined when SIGINT/SIGTERM stopped the wait (nothing left open).
 */
export async function acquireLease(
  url: string,
  port: number,
  host: string,
  output: Output,
  flags: { reset: boolean; fsync: boolean | undefined },
): Promise<Leased | undefined> {
  const { PostgresBackend } = await import('../../../store/postgres/backend.js');
  const { StoreError } = await import('../../../store/errors.js');
  let backend = new PostgresBackend({ url, ...(flags.fsync !== undefined ? { fsync: flags.fsync } : {}) });
  try {
    if (await backend.tryAcquire()) {
      await backend.waitForLease(); // already ours: marks it kept while no workspace is open
      return { backend, port, handOver: async () => {} };
    }
    // A standby with --reset would wipe the active one's data the moment it takes over.
    if (flags.reset)
      throw new StoreError(
        'store_locked',
        `paygate store ${backend.label} is in use: ${(await backend.holder()) ?? 'another process'} holds its active lease, and --reset would delete its data. Stop that sandbox first, or start without --reset to stand by.`,
      );
  } catch (e) {
    await backend.close();
    throw e;
  }
  const server = standbyServer(backend.label);
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('stopped'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const actual = await listen(server, port, host);
    const holder = (await backend.holder().catch(() => undefined)) ?? 'another process';
    output.note(
      `paygate sandbox is standing by on http://${host.includes(':') ? `[${host}]` : host}:${actual}: ${holder} holds the active lease of ${backend.label}. /readyz answers 503 until this process takes over.`,
    );
    for (;;) {
      try {
        // Keep the default workspace's state warm meanwhile: taking over then replays only the latest rows.
        await backend.waitForLease(abort.signal, ['default']);
        break;
      } catch (e) {
        if (abort.signal.aborted || (e as { code?: string }).code === 'store_schema') throw e;
        // The standby's own session dropped or the database is away (restarting?): reconnect and go on waiting.
        output.note(`paygate standby: ${(e as Error).message.split(';')[0]}; reconnecting in 1 s`);
        await backend.close();
        await new Promise((r) => setTimeout(r, 1000));
        backend = new PostgresBackend({ url, ...(flags.fsync !== undefined ? { fsync: flags.fsync } : {}) });
      }
    }
    output.note(`paygate sandbox took over the active lease of ${backend.label}; loading the state`);
    return { backend, port: actual, handOver: () => closeServer(server) };
  } catch (e) {
    await closeServer(server);
    await backend.close();
    if (abort.signal.aborted) return undefined;
    throw e;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
