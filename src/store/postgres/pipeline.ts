// Pipelined group writes (issue 29): the writer connection runs in pg's pipeline mode, so a workspace's next group
// is sent while the one before it is in flight, and PostgreSQL starts it the moment the one before has committed
// (and its WAL flush is done) instead of one round trip through this process's event loop later. Each group is
// still its own statement and transaction (its own Sync), on the one session that holds the lease.
// Chained: a group sent while its predecessor is in flight inserts only if the predecessor's last row is there.
// The session runs them in order, so that row is visible exactly when the predecessor committed: a group after a
// failed one writes nothing and fails (rowCount 0), and so does every group after it.

// A group's transactions go as one text parameter, one per line (a transaction's body is JSON.stringify's output,
// which never holds a raw newline), split by the server: no array literal to escape on this side (every quote of
// every body) and to parse on the server's. $2 is the first transaction's seq, the next ones follow.
const ROWS = `FROM unnest(string_to_array($3::text, E'\\n')) WITH ORDINALITY AS u(t, o)`;

export const APPEND = {
  name: 'paygate_journal_append',
  text: `INSERT INTO paygate_journal (workspace, seq, tx) SELECT $1, $2::bigint + o - 1, t ${ROWS}`,
};

/** Chained: written only if the last row of the group before it (seq $2 - 1) is there. */
const AFTER = 'EXISTS (SELECT 1 FROM paygate_journal WHERE workspace = $1 AND seq = $2::bigint - 1)';
const APPEND_CHAINED = { name: 'paygate_journal_append_chained', text: `${APPEND.text} WHERE ${AFTER}` };

/** In a cluster (src/cluster/): a statement is written only while the lease row holds this writer's epoch ($4, $5). */
export const LEASED = 'SELECT 1 FROM paygate_lease WHERE workspace = $1 AND owner = $4 AND epoch = $5 FOR SHARE';
const APPEND_FENCED = {
  name: 'paygate_journal_append_fenced',
  text: `WITH l AS (${LEASED}) INSERT INTO paygate_journal (workspace, seq, tx, epoch, writer)
    SELECT $1, $2::bigint + o - 1, t, $5, $4 ${ROWS} WHERE EXISTS (SELECT 1 FROM l)`,
};
/** Fenced and chained. */
const APPEND_FENCED_CHAINED = {
  name: 'paygate_journal_append_fenced_chained',
  text: `${APPEND_FENCED.text} AND ${AFTER}`,
};

/** The group before this one was not written, so this one was not either (nothing of it is in the database). */
export class ChainBrokenError extends Error {
  constructor(readonly seq: number) {
    super(`the group before seq ${seq} was not written, so neither was this one`);
    this.name = 'ChainBrokenError';
  }
}

/**
 * The statement for a group of transactions numbered from `first`; `chained`: sent while the group before it (ending
 * at `first - 1`) is in flight; `fence`: the lease it is written under, in a cluster. Each writes all its rows or
 * none: fewer rows than given means nothing was written.
 */
export function appendQuery(
  workspace: string,
  first: number,
  bodies: readonly string[],
  chained: boolean,
  fence: { writer: string; epoch: number } | undefined,
): { name: string; text: string; values: unknown[] } {
  for (const body of bodies)
    if (body.includes('\n')) throw new Error('PostgresPersistence: a transaction body holds a raw newline');
  const values: unknown[] = [workspace, first, bodies.length === 1 ? bodies[0] : bodies.join('\n')];
  if (fence) values.push(fence.writer, fence.epoch);
  const statement = fence ? (chained ? APPEND_FENCED_CHAINED : APPEND_FENCED) : chained ? APPEND_CHAINED : APPEND;
  return { ...statement, values };
}
