// The throwaway cluster for a test file: started once before its tests, stopped (by pid) after them. Where
// PostgreSQL is not installed, the suites given by `pgDescribe` skip with a loud message.
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { LEASE_LOCK, LOCK_CLASS } from '../../src/store/postgres/schema.js';
import { postgresMissing, startCluster, type Cluster } from './cluster.mjs';

export const missing = postgresMissing();
if (missing) process.stderr.write(`\n!!! SKIPPING the PostgreSQL tests: ${missing}\n\n`);

/** describe, or describe.skip when PostgreSQL is missing. */
export const pgDescribe = missing ? describe.skip : describe;

/** Start a cluster for this file (only when PostgreSQL is there); `get()` inside tests. */
export function useCluster(): { get(): Cluster } {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    if (!missing) cluster = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 30_000);
  return {
    get() {
      if (!cluster) throw new Error('the PostgreSQL cluster is not running');
      return cluster;
    },
  };
}

/**
 * End the sessions of paygate writers on `url`'s database, as a dead process or a lost network would; `standby`:
 * only those that do not hold the active lease. Waits (up to 5 s) until each has exited, so its locks (the lease)
 * are released when this returns: a new owner opening at once never finds the dead one still holding the lease.
 */
export async function killWriterSessions(url: string, only?: 'standby'): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const notHolder =
      only === 'standby'
        ? "AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.objid = 1 AND l.granted)"
        : '';
    const { rows } = await c.query<{ ok: boolean }>(
      `SELECT pg_terminate_backend(a.pid, 5000) AS ok FROM pg_stat_activity a WHERE a.application_name LIKE 'paygate pid %' AND a.datname = current_database() ${notHolder}`,
    );
    return rows.length;
  } finally {
    await c.end();
  }
}

/** End the session that holds the active lease (the active sandbox's writer), as a network cut would; waits for it to exit. */
export async function killLeaseHolder(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(
      "SELECT pg_terminate_backend(l.pid, 5000) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      [LOCK_CLASS, LEASE_LOCK],
    );
    return rows.length;
  } finally {
    await c.end();
  }
}

/** Waits (up to 20 s) until no paygate session is left on the database: a terminated backend may still hold its
 * locks for a moment after its client saw the connection end, longer on a loaded machine. */
export async function writerSessionsGone(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (let i = 0; i < 400; i++) {
      const { rows } = await c.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name LIKE 'paygate pid %' AND datname = current_database()",
      );
      if (Number(rows[0]!.n) === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('paygate sessions still on the database 20 s after they were terminated');
  } finally {
    await c.end();
  }
}
