// The cluster's tables (design A of docs/scale-out.md): one row per process (its internal address and heartbeat) and
// one lease per workspace with its fencing epoch. Created on the first `sandbox start --cluster` (IF NOT EXISTS,
// under the migration lock): a store never started in cluster mode has none of them, and the single-active mode
// does not read them. The journal's rows get the epoch and writer they were written under (null outside a cluster),
// so a history can be checked for two writers in one epoch.
import type { ClientBase } from 'pg';
import { LOCK_CLASS, MIGRATION_LOCK } from '../store/postgres/schema.js';

const SQL = `
  CREATE TABLE IF NOT EXISTS paygate_cluster_node (
    id text PRIMARY KEY,
    address text NOT NULL,
    pid integer NOT NULL,
    host text NOT NULL,
    ttl_ms integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    seen_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS paygate_lease (
    workspace text PRIMARY KEY,
    owner text,
    epoch bigint NOT NULL,
    expires_at timestamptz NOT NULL,
    acquired_at timestamptz NOT NULL DEFAULT now(),
    renewed_at timestamptz NOT NULL DEFAULT now(),
    wanted_by text
  );
  ALTER TABLE paygate_journal ADD COLUMN IF NOT EXISTS epoch bigint, ADD COLUMN IF NOT EXISTS writer text;`;

/** Create the cluster's tables when missing (idempotent; serialised with migrations). */
export async function ensureClusterSchema(client: ClientBase): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, MIGRATION_LOCK]);
    await client.query(SQL);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}
