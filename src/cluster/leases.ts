// The lease table (schema.ts): who owns which workspace, under which epoch, until when — in PostgreSQL time, so the
// processes' clocks do not matter. A lease is taken only when free (never taken, released, or expired), and each
// taking raises the workspace's epoch: the fencing token every journal write of the workspace checks in its own
// statement (postgres/persistence.ts, `fence`). Renewals and the process's heartbeat go out as one statement.
import pg from 'pg';

export interface NodeInfo {
  id: string;
  address: string;
  pid: number;
  host: string;
  started_at: string;
  seen_at: string;
  alive: boolean;
}

export interface LeaseInfo {
  workspace: string;
  owner: string | null;
  epoch: number;
  /** Real milliseconds since the lease was taken by its owner, and until it expires (negative: expired). */
  age_ms: number;
  expires_in_ms: number;
  wanted_by: string | null;
}

/** The owner of a workspace as another process sees it. */
export interface Owner {
  id: string;
  address: string;
}

export type Acquired = { epoch: number } | { owner: Owner | undefined };

export class LeaseTable {
  readonly #pool: pg.Pool;

  constructor(
    url: string,
    readonly me: string,
    readonly ttlMs: number,
  ) {
    this.#pool = new pg.Pool({
      connectionString: url,
      max: 4,
      application_name: `paygate lease pid ${process.pid}`.slice(0, 63),
      // A query the database does not answer (a partition) fails rather than hangs: the renewal deadline counts.
      query_timeout: Math.max(200, Math.floor(ttlMs / 2)),
      connectionTimeoutMillis: Math.max(200, ttlMs),
      keepAlive: true,
    });
    this.#pool.on('error', () => {}); // an idle connection that died: the next query opens another
  }

  query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.#pool.query<R>(text, values);
  }

  async register(address: string, host: string): Promise<void> {
    await this.query(
      `INSERT INTO paygate_cluster_node (id, address, pid, host, ttl_ms) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET address = EXCLUDED.address, seen_at = now()`,
      [this.me, address, process.pid, host, this.ttlMs],
    );
  }

  /**
   * Heartbeat and renew every lease held (workspace → epoch) in one statement. Returns the workspaces still held,
   * each with the process that asked for it (balance), if any; a workspace missing from it was lost.
   */
  async renew(held: ReadonlyMap<string, number>): Promise<Map<string, string | null>> {
    const { rows } = await this.query<{ workspace: string; wanted_by: string | null }>(
      `WITH n AS (UPDATE paygate_cluster_node SET seen_at = now() WHERE id = $1)
       UPDATE paygate_lease l SET expires_at = now() + $4 * interval '1 millisecond', renewed_at = now()
         FROM unnest($2::text[], $3::bigint[]) AS h(w, e)
        WHERE l.workspace = h.w AND l.epoch = h.e AND l.owner = $1
       RETURNING l.workspace, l.wanted_by`,
      [this.me, [...held.keys()], [...held.values()], this.ttlMs],
    );
    return new Map(rows.map((r) => [r.workspace, r.wanted_by]));
  }

  /**
   * Take the lease of `workspace` if it is free: never taken, expired, or released (and not handed to another live
   * process) — or named this process's, though it no longer serves it (dropped): a new epoch either way. Returns the new epoch, or the owner (undefined when it is free but promised to another process).
   */
  async acquire(workspace: string): Promise<Acquired> {
    const { rows } = await this.query<{ epoch: string }>(
      `INSERT INTO paygate_lease AS l (workspace, owner, epoch, expires_at) VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
       ON CONFLICT (workspace) DO UPDATE SET owner = $2, epoch = l.epoch + 1, expires_at = EXCLUDED.expires_at,
         acquired_at = now(), renewed_at = now(), wanted_by = NULL
        WHERE l.expires_at < now() OR l.owner = $2 OR (l.owner IS NULL AND (l.wanted_by IS NULL OR l.wanted_by = $2
          OR NOT EXISTS (SELECT 1 FROM paygate_cluster_node n WHERE n.id = l.wanted_by AND n.seen_at > now() - n.ttl_ms * interval '1 millisecond')))
       RETURNING epoch`,
      [workspace, this.me, this.ttlMs],
    );
    if (rows[0]) return { epoch: Number(rows[0].epoch) };
    return { owner: await this.owner(workspace) };
  }

  /** The live owner of `workspace` (or the live process it is being handed to), else undefined. */
  async owner(workspace: string): Promise<Owner | undefined> {
    const { rows } = await this.query<Owner>(
      `SELECT n.id, n.address FROM paygate_lease l JOIN paygate_cluster_node n ON n.id = coalesce(l.owner, l.wanted_by)
        WHERE l.workspace = $1 AND (l.owner IS NULL OR l.expires_at >= now())
          AND n.seen_at > now() - n.ttl_ms * interval '1 millisecond'`,
      [workspace],
    );
    return rows[0];
  }

  /** Give the lease up (after the workspace's last write), to `to` when it asked for it. */
  async release(workspace: string, epoch: number, to: string | null = null): Promise<void> {
    await this.query(
      `UPDATE paygate_lease SET owner = NULL, wanted_by = $4, expires_at = now() + $5 * interval '1 millisecond'
        WHERE workspace = $1 AND owner = $2 AND epoch = $3`,
      [workspace, this.me, epoch, to, to ? this.ttlMs : 0],
    );
  }

  /** End `owner`'s lease of `workspace` now (its address refuses connections: it is gone). */
  async expire(workspace: string, owner: string): Promise<void> {
    await this.query('UPDATE paygate_lease SET expires_at = now() WHERE workspace = $1 AND owner = $2', [
      workspace,
      owner,
    ]);
  }

  /** Ask the owner of `workspace` to hand it over (balance). */
  async want(workspace: string): Promise<void> {
    await this.query('UPDATE paygate_lease SET wanted_by = $2 WHERE workspace = $1 AND owner IS NOT NULL', [
      workspace,
      this.me,
    ]);
  }

  /** Workspaces to take now: those whose owner let the lease expire, and those handed to this process. */
  async orphans(limit: number): Promise<string[]> {
    const { rows } = await this.query<{ workspace: string }>(
      `SELECT workspace FROM paygate_lease
        WHERE (owner IS NOT NULL AND expires_at < now()) OR (owner IS NULL AND wanted_by = $1)
        ORDER BY expires_at LIMIT $2`,
      [this.me, limit],
    );
    return rows.map((r) => r.workspace);
  }

  async nodes(): Promise<NodeInfo[]> {
    const { rows } = await this.query<NodeInfo & { started_at: Date; seen_at: Date }>(
      `SELECT id, address, pid, host, started_at, seen_at, seen_at > now() - ttl_ms * interval '1 millisecond' AS alive
         FROM paygate_cluster_node ORDER BY started_at`,
      [],
    );
    return rows.map((r) => ({ ...r, started_at: r.started_at.toISOString(), seen_at: r.seen_at.toISOString() }));
  }

  async leases(): Promise<LeaseInfo[]> {
    const { rows } = await this.query<{
      workspace: string;
      owner: string | null;
      epoch: string;
      age: number;
      left: number;
      wanted_by: string | null;
    }>(
      `SELECT workspace, owner, epoch, wanted_by, (extract(epoch FROM now() - acquired_at) * 1000)::float8 AS age,
              (extract(epoch FROM expires_at - now()) * 1000)::float8 AS left
         FROM paygate_lease ORDER BY workspace`,
      [],
    );
    return rows.map((r) => ({
      workspace: r.workspace,
      owner: r.owner,
      epoch: Number(r.epoch),
      age_ms: Math.round(r.age),
      expires_in_ms: Math.round(r.left),
      wanted_by: r.wanted_by,
    }));
  }

  /** Leave the cluster: every lease held released, the process's row removed. */
  async leave(held: ReadonlyMap<string, number>): Promise<void> {
    for (const [ws, epoch] of held) await this.release(ws, epoch).catch(() => {});
    await this.query('DELETE FROM paygate_cluster_node WHERE id = $1', [this.me]).catch(() => {});
  }

  async close(): Promise<void> {
    await this.#pool.end().catch(() => {});
  }
}
