// Pipelined group writes (issue 29): a workspace's next group is sent while the one before it is still in flight,
// on another of the process's writer connections ("lanes"), so PostgreSQL starts it the moment the one before has
// committed instead of one round trip through this process's event loop later. Two rules keep that exact:
// - chained: a group sent while its predecessor is in flight names the predecessor's last seq. Its statement first
//   tries to insert that very journal key (ON CONFLICT DO NOTHING): PostgreSQL waits for the predecessor's
//   transaction, then finds the key (committed: the group is written) or inserts it (the predecessor failed: the
//   statement raises, so nothing of it, the probe included, is written). Every group after a failed one fails too.
// - fenced: lane 0 is the session that holds the active lease (its death releases the lease and ends its writes).
//   A group on another lane checks, in its statement, that the lease holder's session still holds the lease, under
//   the shared FENCE lock; a process taking the lease takes FENCE exclusively once (backend.ts), so it waits for
//   every such statement in flight and reads what they wrote, and no later one passes the check.
import type { Client } from 'pg';
import { LEASE_LOCK, LOCK_CLASS } from './schema.js';

/** Advisory lock (class LOCK_CLASS) a lane's write holds shared for its transaction; a new lease holder waits for it. */
export const FENCE_LOCK = 16;

/** One writer connection; `busy`: statements sent on it and not answered yet. */
export interface PgLane {
  readonly client: Client;
  busy: number;
  /** Lane 0 holds the lease itself; the others check it (the lease holder's backend pid). */
  readonly holderPid: number | undefined;
}

export const APPEND = {
  name: 'paygate_journal_append',
  text: 'INSERT INTO paygate_journal (workspace, seq, tx) SELECT $1, s, t FROM unnest($2::bigint[], $3::text[]) AS u(s, t)',
};

// Raised as PostgreSQL's "invalid input syntax for type integer" (22P02), recognised by these words.
const CHAIN_BROKEN = 'paygate: not written, the group before it was not';
const LEASE_LOST = 'paygate: not written, this process no longer holds the lease';

/** $4: the predecessor's last seq (null: none in flight); $5: the lease holder's backend pid. */
const APPEND_CHAINED = {
  name: 'paygate_journal_append_chained',
  text: `WITH link AS (
      INSERT INTO paygate_journal (workspace, seq, tx) SELECT $1, $4::bigint, '' WHERE $4::bigint IS NOT NULL
      ON CONFLICT (workspace, seq) DO NOTHING RETURNING seq),
    ok AS (SELECT NOT EXISTS (SELECT 1 FROM link) AS chained,
      pg_try_advisory_xact_lock_shared(${LOCK_CLASS}, ${FENCE_LOCK}) AND EXISTS (SELECT 1 FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.classid = ${LOCK_CLASS} AND l.objid = ${LEASE_LOCK} AND l.objsubid = 2
          AND l.granted AND l.pid = $5::int AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      ) AS leased)
    INSERT INTO paygate_journal (workspace, seq, tx)
    SELECT $1, s, CASE WHEN NOT ok.chained THEN ('${CHAIN_BROKEN} ' || s)::int::text
      WHEN NOT ok.leased THEN ('${LEASE_LOST} ' || s)::int::text ELSE t END
    FROM unnest($2::bigint[], $3::text[]) AS u(s, t), ok`,
};

/** Why a chained group was refused: its predecessor failed ('chain'), the lease is gone ('lease'), or neither. */
export function pipelineRefusal(e: unknown): 'chain' | 'lease' | undefined {
  const m = (e as { code?: string; message?: string })?.code === '22P02' ? String((e as Error).message) : '';
  return m.includes(CHAIN_BROKEN) ? 'chain' : m.includes(LEASE_LOST) ? 'lease' : undefined;
}

/**
 * The lane for a group, and its statement. `after`: the lane and last seq of the group in flight before it, if any.
 * A group with nothing in flight before it goes on lane 0 as a plain insert when that lane is free.
 */
export function route(
  lanes: readonly PgLane[],
  after: { lane: PgLane; seq: number } | undefined,
  workspace: string,
  seqs: readonly number[],
  bodies: readonly string[],
): { lane: PgLane; query: { name: string; text: string; values: unknown[] } } {
  if (after === undefined && (lanes.length === 1 || lanes[0]!.busy === 0))
    return { lane: lanes[0]!, query: { ...APPEND, values: [workspace, seqs, bodies] } };
  // The least busy lane other than the predecessor's (on the same lane it would wait behind it in this process).
  const others = lanes.length > 1 ? lanes.filter((l) => l !== after?.lane) : lanes;
  const lane = others.reduce((best, l) => (l.busy < best.busy ? l : best));
  const pid = lanes.find((l) => l.holderPid !== undefined)?.holderPid;
  return {
    lane,
    query: { ...APPEND_CHAINED, values: [workspace, seqs, bodies, after?.seq ?? null, pid ?? 0] },
  };
}
