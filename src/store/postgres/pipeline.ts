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
  text: `INSERT INTO paygate_journal (workspace, seq, tx) SELECT $1, s, t FROM unnest($2::bigint[], $3::text[]) AS u(s, t)
    WHERE EXISTS (SELECT 1 FROM paygate_journal WHERE workspace = $1 AND seq = $4::bigint)`,
};

/** The group before this one was not written, so this one was not either (nothing of it is in the database). */
export class ChainBrokenError extends Error {
  constructor(readonly seq: number) {
    super(`the group before seq ${seq} was not written, so neither was this one`);
    this.name = 'ChainBrokenError';
  }
}

/** The statement for a group; `after`: the last seq of the group in flight before it, if any. */
export function appendQuery(
  workspace: string,
  seqs: readonly number[],
  bodies: readonly string[],
  after: number | undefined,
): { name: string; text: string; values: unknown[] } {
  return after === undefined
    ? { ...APPEND, values: [workspace, seqs, bodies] }
    : { ...APPEND_CHAINED, values: [workspace, seqs, bodies, after] };
}
