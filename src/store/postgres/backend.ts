// PostgresBackend: every workspace of a sandbox in one PostgreSQL database (tables keyed by workspace, schema.ts).
// One writer connection holds the active lease, a session-level advisory lock: only the process holding it writes
// journals and snapshots (postgres/persistence.ts). Other processes on the same database are standbys: they poll
// for the lease (waitForLease) and, once it is theirs, load the state from the database and serve. When the
// writer's session dies the lock is released with it and the backend reports itself lost (onLost): its owner must
// stop serving. Receipt files (bytea) and secrets go through a small pool, so any process can read them. The writer
// runs in pg's pipeline mode: a workspace's next group is sent while one is in flight (pipeline.ts).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import { WORKSPACE_ID, DEFAULT_WORKSPACE, type StoreBackend, type WorkspaceStorage } from '../backend.js';
import { StoreError } from '../errors.js';
import type { FileStore } from '../files.js';
import type { SandboxSecrets } from '../secrets.js';
import { readState, type LoadedState } from './load.js';
import { PostgresPersistence, type PgWriterSource } from './persistence.js';
import { LEASE_LOCK, LOCK_CLASS, migrate } from './schema.js';
import { writerSettings } from './session.js';

/** True for a `postgres://` or `postgresql://` store. */
export function isPostgresUrl(store: string | undefined): store is string {
  return store !== undefined && /^postgres(ql)?:\/\//i.test(store);
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

export interface PostgresBackendOptions {
  url: string;
  /** Real milliseconds between two tries for the lease while standing by. Default 250. */
  pollMs?: number;
  /**
   * Wait for PostgreSQL's WAL flush before acknowledging (synchronous_commit on): an acknowledged change survives a
   * crash of the sandbox process, a failover, and a crash of the database server or its machine. Default true (one
   * flush per group commit, not per create). false (`--no-fsync`): synchronous_commit off, acknowledged before the
   * flush; a crash of the PostgreSQL server may lose its last fraction of a second (up to 3 × wal_writer_delay).
   */
  fsync?: boolean;
  /**
   * Send a workspace's next group while the one before it is in flight, chained to it (pipeline.ts). Default true
   * (PAYGATE_PG_PIPELINE=0: false, one group at a time: for comparison).
   */
  pipeline?: boolean;
  /**
   * Writer connections in a cluster (every write fenced in its own statement, src/cluster/), each workspace's writes
   * on one of them, so PostgreSQL flushes several workspaces' commits at once. Default 4 (PAYGATE_PG_WRITERS). Outside
   * a cluster one: the lease holder's session is the fence.
   */
  writers?: number;
}

const SAFE_FILE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export class PostgresBackend implements StoreBackend, PgWriterSource {
  readonly label: string;
  #writer: pg.Client | undefined;
  #connecting: Promise<pg.Client> | undefined;
  /** The other writer connections of a cluster process, by index (writerFor). */
  #lanes = new Map<number, Promise<pg.Client | undefined>>();
  #pool: pg.Pool | undefined;
  #leased = false;
  /** Keep the lease when no workspace is open (a standby that waited for it: the CLI). */
  #pinned = false;
  #closing = false;
  #lost: Error | undefined;
  #onLost: ((e: Error) => void)[] = [];
  readonly #open = new Set<string>();
  /** Workspaces' state kept warm while standing by (waitForLease with `warm`). */
  readonly #warm = new Map<string, LoadedState>();

  readonly pipelined: boolean;

  constructor(readonly opts: PostgresBackendOptions) {
    this.label = redactUrl(opts.url);
    this.pipelined = opts.pipeline ?? process.env.PAYGATE_PG_PIPELINE !== '0';
  }

  get lost(): Error | undefined {
    return this.#lost;
  }

  /** True while this process holds the active lease. */
  get leased(): boolean {
    return this.#leased && !this.#lost;
  }

  /** Called once if the writer's session is lost after connecting (the lease with it). */
  onLost(fn: (e: Error) => void): void {
    this.#onLost.push(fn);
  }

  /** Connect the writer and bring the schema up to date. Idempotent. */
  connect(): Promise<pg.Client> {
    this.#connecting ??= (async () => {
      const client = this.#client('');
      try {
        await client.connect();
        await migrate(client, this.label);
        await writerSettings(client, this.opts.fsync !== false);
      } catch (e) {
        this.#closing = true;
        await client.end().catch(() => {});
        this.#connecting = undefined;
        this.#closing = false;
        throw e;
      }
      this.#writer = client;
      return client;
    })();
    return this.#connecting;
  }

  /** A writer connection (pipelined when the backend pipelines); its loss is the backend's (onLost). */
  #client(name: string): pg.Client {
    const client = new pg.Client({
      connectionString: this.opts.url,
      application_name: `paygate ${name}pid ${process.pid} on ${hostname()}`.slice(0, 63),
      keepAlive: true,
      keepAliveInitialDelayMillis: 1000,
      pipeline: this.pipelined,
    });
    const fail = (e: Error) => {
      if (this.#closing || this.#lost) return;
      this.#lost = new StoreError(
        'store_failed',
        `paygate store ${this.label}: the database session was lost (${e.message}); this process no longer holds the active lease and stops serving.`,
        { cause: e },
      );
      for (const fn of this.#onLost.splice(0)) fn(this.#lost);
    };
    client.on('error', fail);
    client.on('end', () => fail(new Error('connection closed')));
    return client;
  }

  /**
   * The connection `workspace`'s writes go on: in a cluster (a backend whose writes are fenced in their own
   * statement: `fence`) one of `writers`, chosen by workspace; otherwise the writer, the lease holder's session.
   */
  async writerFor(workspace: string): Promise<pg.Client> {
    const main = await this.connect();
    const fenced = typeof (this as Partial<PgWriterSource>).fence === 'function';
    const n = fenced ? (this.opts.writers ?? (Number(process.env.PAYGATE_PG_WRITERS) || 4)) : 1;
    let i = 0;
    for (const ch of workspace) i = (i * 31 + ch.charCodeAt(0)) >>> 0;
    i %= n;
    if (i === 0) return main;
    let lane = this.#lanes.get(i);
    if (!lane) {
      const client = this.#client(`writer ${i} `);
      lane = client
        .connect()
        .then(() => writerSettings(client, this.opts.fsync !== false))
        .then(
          () => client,
          async () => {
            this.#lanes.delete(i); // tried again by the next workspace opened on it; meanwhile the writer serves
            await client.end().catch(() => {});
            return undefined;
          },
        );
      this.#lanes.set(i, lane);
    }
    return (await lane) ?? main;
  }

  /** Take the lease if it is free. */
  async tryAcquire(): Promise<boolean> {
    const client = await this.connect();
    if (this.#lost) throw this.#lost;
    if (this.#leased) return true;
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [
      LOCK_CLASS,
      LEASE_LOCK,
    ]);
    this.#leased = rows[0]?.ok === true;
    return this.#leased;
  }

  /**
   * Wait (polling every pollMs) until this process holds the lease; `signal` aborts the wait. `warm`: workspaces whose
   * state is read meanwhile and kept up to date (every `warmMs`), so taking over replays only the last rows.
   */
  async waitForLease(signal?: AbortSignal, warm: readonly string[] = [], warmMs = 1000): Promise<void> {
    this.#pinned = true;
    let warmed = 0;
    while (!(await this.tryAcquire())) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      if (warm.length > 0 && Date.now() - warmed >= warmMs) {
        for (const ws of warm) await this.#keepWarm(ws);
        warmed = Date.now();
      }
      await new Promise((r) => setTimeout(r, this.opts.pollMs ?? 250));
    }
  }

  /** Bring the warm copy of `ws` up to date, in one consistent read; on any trouble forget it (open reads afresh). */
  async #keepWarm(ws: string): Promise<void> {
    const client = await this.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      this.#warm.set(ws, await readState(client, ws, this.label, this.#warm.get(ws)));
      await client.query('COMMIT');
    } catch {
      this.#warm.delete(ws);
      await client.query('ROLLBACK').catch(() => {});
    }
  }

  /** Seq up to which the warm copy of `workspace` is read (undefined: none). */
  warmedUpTo(workspace: string): number | undefined {
    return this.#warm.get(workspace)?.seq;
  }

  takeWarm(workspace: string): LoadedState | undefined {
    const w = this.#warm.get(workspace);
    this.#warm.delete(workspace);
    return w;
  }

  /** Who holds the lease (its application name, pid in the database, since when), or undefined. */
  async holder(): Promise<string | undefined> {
    const client = await this.connect();
    const { rows } = await client.query<{ app: string; since: Date }>(
      `SELECT a.application_name AS app, a.backend_start AS since FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [LOCK_CLASS >>> 0, LEASE_LOCK],
    );
    return rows[0]
      ? `${rows[0].app || 'an unnamed client'} (connected since ${rows[0].since.toISOString()})`
      : undefined;
  }

  async active(): Promise<pg.Client> {
    if (!(await this.tryAcquire())) {
      const who = (await this.holder().catch(() => undefined)) ?? 'another process';
      throw new StoreError(
        'store_locked',
        `paygate store ${this.label} is in use: ${who} holds its active lease. Stop that sandbox, or start this one with \`paygate sandbox start\` to stand by and take over when it stops.`,
      );
    }
    return this.#writer!;
  }

  claim(workspace: string): void {
    if (this.#open.has(workspace))
      throw new StoreError(
        'store_locked',
        `paygate store ${this.label}: workspace ${workspace} is already open in this process. Close it first.`,
      );
    this.#open.add(workspace);
  }

  /** Forget an open workspace; after the last one the lease is given up (a standby takes over), the session kept. */
  async release(workspace: string): Promise<void> {
    if (!this.#open.delete(workspace) || this.#open.size > 0 || !this.#leased || this.#lost || this.#pinned) return;
    this.#leased = false;
    await this.#writer?.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, LEASE_LOCK]).catch(() => {});
  }

  #files(): pg.Pool {
    if (!this.#pool) {
      this.#pool = new pg.Pool({
        connectionString: this.opts.url,
        max: 4,
        application_name: `paygate files pid ${process.pid}`.slice(0, 63),
      });
      this.#pool.on('error', () => {}); // an idle connection that died: the next query opens another
    }
    return this.#pool;
  }

  workspace(id: string): WorkspaceStorage {
    if (!WORKSPACE_ID.test(id)) throw new TypeError(`workspace id ${JSON.stringify(id)} must match ${WORKSPACE_ID}`);
    return {
      persistence: new PostgresPersistence(this, id),
      files: new PgFileStore(() => this.#files(), id),
      secrets: (legacy) => this.#secrets(id, legacy),
      certBase: undefined,
    };
  }

  async #secrets(workspace: string, legacyLinkKey?: string): Promise<SandboxSecrets> {
    const link = legacyLinkKey ? Buffer.from(legacyLinkKey, 'base64') : randomBytes(32);
    const { rows } = await this.#files().query<{ url_secret: Buffer; link_secret: Buffer }>({
      name: 'paygate_secrets',
      text: `WITH made AS (INSERT INTO paygate_secrets (workspace, url_secret, link_secret) VALUES ($1, $2, $3) ON CONFLICT (workspace) DO NOTHING RETURNING url_secret, link_secret)
        SELECT url_secret, link_secret FROM made UNION ALL SELECT url_secret, link_secret FROM paygate_secrets WHERE workspace = $1`,
      values: [workspace, randomBytes(32), link],
    });
    return { url: rows[0]!.url_secret, link: rows[0]!.link_secret };
  }

  async drop(id: string): Promise<void> {
    if (id === DEFAULT_WORKSPACE)
      throw new TypeError('the default workspace cannot be dropped; reset the store instead');
    if (this.#open.has(id))
      throw new StoreError(
        'store_locked',
        `paygate store ${this.label}: workspace ${id} is open; close it before dropping it.`,
      );
    await this.#withLease((client) =>
      client.query(
        `WITH j AS (DELETE FROM paygate_journal WHERE workspace = $1), s AS (DELETE FROM paygate_snapshot WHERE workspace = $1),
          f AS (DELETE FROM paygate_files WHERE workspace = $1) DELETE FROM paygate_secrets WHERE workspace = $1`,
        [id],
      ),
    );
  }

  /** Run `fn` holding the lease; given up afterwards unless a workspace is open. */
  async #withLease(fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
    const client = await this.active();
    try {
      await fn(client);
    } finally {
      if (this.#open.size === 0 && !this.#lost && !this.#pinned) {
        this.#leased = false;
        await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, LEASE_LOCK]).catch(() => {});
      }
    }
  }

  async reset(): Promise<void> {
    await this.#withLease((client) =>
      client.query('TRUNCATE paygate_journal, paygate_snapshot, paygate_files, paygate_secrets'),
    );
  }

  async close(): Promise<void> {
    this.#closing = true;
    const writer = this.#writer;
    const lanes = [...this.#lanes.values()];
    this.#writer = undefined;
    this.#connecting = undefined;
    this.#lanes.clear();
    this.#leased = false;
    for (const lane of lanes) await (await lane)?.end().catch(() => {});
    await this.#pool?.end().catch(() => {});
    this.#pool = undefined;
    // Ending the session releases the lease: a standby takes over at its next poll.
    await writer?.end().catch(() => {});
  }
}

/** Receipt files in paygate_files, one row per file. */
class PgFileStore implements FileStore {
  constructor(
    readonly pool: () => pg.Pool,
    readonly workspace: string,
  ) {}

  async put(id: string, bytes: Uint8Array): Promise<void> {
    if (!SAFE_FILE_ID.test(id)) throw new Error(`invalid file id ${id}`);
    await this.pool().query({
      name: 'paygate_file_put',
      text: 'INSERT INTO paygate_files (workspace, id, bytes) VALUES ($1, $2, $3) ON CONFLICT (workspace, id) DO UPDATE SET bytes = EXCLUDED.bytes',
      values: [this.workspace, id, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
    });
  }

  async get(id: string): Promise<Uint8Array | undefined> {
    if (!SAFE_FILE_ID.test(id)) return undefined;
    const { rows } = await this.pool().query<{ bytes: Buffer }>({
      name: 'paygate_file_get',
      text: 'SELECT bytes FROM paygate_files WHERE workspace = $1 AND id = $2',
      values: [this.workspace, id],
    });
    return rows[0] ? new Uint8Array(rows[0].bytes) : undefined;
  }

  async remove(id: string): Promise<void> {
    if (SAFE_FILE_ID.test(id))
      await this.pool().query({
        name: 'paygate_file_remove',
        text: 'DELETE FROM paygate_files WHERE workspace = $1 AND id = $2',
        values: [this.workspace, id],
      });
  }
}
