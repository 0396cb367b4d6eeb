// Pipelined group writes (issue 29): the writer connection runs in pg's pipeline mode, so a workspace's next group
// is sent while the one before it is in flight, and PostgreSQL starts it the moment the one before has committed
// (and its WAL flush is done) instead of one round trip through this process's event loop later. Each group is
// still its own statement and transaction (its own Sync), on the one session that holds the lease.
// Chained: a group sent while its predecessor is in flight inserts only if the predecessor's last row is there.
// The session runs them in order, so that row is visible exactly when the predecessor committed: a group after a
// failed one writes nothing and fails (rowCount 0), and so does every group after it.

export const APPEND = {
  name: 'paygate_journal_append',
  text: 'INSERT INTO paygate_journal (workspace, seq, tx) SELECT $1, s, t FROM unnest($2::bigint[], $3::text[]) AS u(s, t)',
};

/** $4: the last seq of the group in flight before this one. */
const APPEND_CHAINED = {
  name: 'paygate_journal_append_chained',
  text: `${APPEND.text} WHERE EXISTS (SELECT 1 FROM paygate_journal WHERE workspace = $1 AND seq = $4::bigint)`,
};

/** In a cluster (src/cluster/): a statement is written only while the lease row holds this writer's epoch ($4, $5). */
export const LEASED = 'SELECT 1 FROM paygate_lease WHERE workspace = $1 AND owner = $4 AND epoch = $5 FOR SHARE';
const APPEND_FENCED = {
  name: 'paygate_journal_append_fenced',
  text: `WITH l AS (${LEASED}) INSERT INTO paygate_journal (workspace, seq, tx, epoch, writer)
    SELECT $1, s, t, $5, $4 FROM unnest($2::bigint[], $3::text[]) AS u(s, t) WHERE EXISTS (SELECT 1 FROM l)`,
};
/** Fenced and chained: $6, the last seq of the group in flight before this one. */
const APPEND_FENCED_CHAINED = {
  name: 'paygate_journal_append_fenced_chained',
  text: `${APPEND_FENCED.text} AND EXISTS (SELECT 1 FROM paygate_journal WHERE workspace = $1 AND seq = $6::bigint)`,
};

/** The group before this one was not written, so this one was not either (nothing of it is in the database). */
export class ChainBrokenError extends Error {
  constructor(readonly seq: number) {
    super(`the group before seq ${seq} was not written, so neither was this one`);
    this.name = 'ChainBrokenError';
  }
}

/**
 * The statement for a group; `after`: the last seq of the group in flight before it, if any; `fence`: the lease it is
 * written under, in a cluster. Each writes all its rows or none: fewer rows than given means nothing was written.
 */
export function appendQuery(
  workspace: string,
  seqs: readonly number[],
  bodies: readonly string[],
  after: number | undefined,
  fence: { writer: string; epoch: number } | undefined,
): { name: string; text: string; values: unknown[] } {
  const values: unknown[] = [workspace, seqs, bodies];
  if (fence) values.push(fence.writer, fence.epoch);
  if (after !== undefined) values.push(after);
  const statement = fence
    ? after === undefined
      ? APPEND_FENCED
      : APPEND_FENCED_CHAINED
    : after === undefined
      ? APPEND
      : APPEND_CHAINED;
  return { ...statement, values };
}
