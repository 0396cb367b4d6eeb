// The PostgreSQL store's schema: numbered migrations kept here, applied in order on start inside one transaction
// under an advisory lock (so two processes starting together do not race). `paygate_schema` records each version
// applied. A database whose schema is newer than this code knows is refused with the versions named.
import type { ClientBase } from 'pg';

/** Advisory-lock class of every lock paygate takes ('payg'); the object ids below tell them apart. */
export const LOCK_CLASS = 0x70617967;
/** Held (session level) by the active process: the lease. */
export const LEASE_LOCK = 1;
/** Held (transaction level) while migrations run. */
export const MIGRATION_LOCK = 2;

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'journal and snapshots, keyed by workspace',
    sql: `
      CREATE TABLE paygate_journal (
        workspace text NOT NULL,
        seq bigint NOT NULL,
        tx text NOT NULL,
        PRIMARY KEY (workspace, seq)
      );
      CREATE TABLE paygate_snapshot (
        workspace text PRIMARY KEY,
        upto_seq bigint NOT NULL,
        collections text NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now()
      );`,
  },
  {
    version: 2,
    description: 'receipt files and secrets, keyed by workspace',
    sql: `
      CREATE TABLE paygate_files (
        workspace text NOT NULL,
        id text NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (workspace, id)
      );
      CREATE TABLE paygate_secrets (
        workspace text PRIMARY KEY,
        url_secret bytea NOT NULL,
        link_secret bytea NOT NULL
      );`,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** The database cannot be used by this version of paygate (its schema is newer, or a migration failed). */
export class StoreSchemaError extends Error {
  readonly code = 'store_schema';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreSchemaError';
  }
}

/**
 * Bring the database's schema to `upTo` (default: the newest): every missing migration, in order, in one transaction.
 * Returns the version found before. Throws StoreSchemaError for a schema newer than this code.
 */
export async function migrate(client: ClientBase, label: string, upTo = SCHEMA_VERSION): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS paygate_schema (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM paygate_schema');
    const found = rows[0]?.v ?? 0;
    if (found > SCHEMA_VERSION) {
      throw new StoreSchemaError(
        `paygate store ${label} has schema version ${found}, newer than this paygate knows (${SCHEMA_VERSION}): a newer paygate wrote it. ` +
          'Upgrade paygate to the version the other sandboxes run, or point --store at another database. Nothing was changed.',
      );
    }
    for (const m of MIGRATIONS) {
      if (m.version <= found || m.version > upTo) continue;
      try {
        await client.query(m.sql);
      } catch (e) {
        throw new StoreSchemaError(
          `paygate store ${label}: migration ${m.version} (${m.description}) failed: ${(e as Error).message}. Nothing was changed.`,
          { cause: e },
        );
      }
      await client.query('INSERT INTO paygate_schema (version, description) VALUES ($1, $2)', [
        m.version,
        m.description,
      ]);
    }
    await client.query('COMMIT');
    return found;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}
