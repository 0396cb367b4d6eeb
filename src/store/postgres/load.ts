// Reading a workspace's state from PostgreSQL: its snapshot row, then every journal row after it, checked for gaps
// and folded (last write wins, first-appearance order). A standby keeps such a state warm while it waits for the
// lease (`base`): it reads the snapshot again only when a compaction replaced it, else only the rows after `base.seq`.
import type { ClientBase } from 'pg';
import type { Change, Collections, Entity } from '../persistence.js';
import { assertChanges, assertCollections } from '../persistence.js';
import { StoreCorruptError } from '../errors.js';

export interface LoadedState {
  /** Seq of the last transaction folded in. */
  seq: number;
  colls: Map<string, Map<string, Entity>>;
  /** Journal rows read after the snapshot (all of them when the snapshot was read). */
  journalRows: number;
}

/** What to do about a damaged row: nothing was changed; the remedies are the database's, not a file's. */
function advice(kind: 'snapshot' | 'journal', workspace: string | undefined): string {
  const ws = workspace === undefined ? '' : ` (workspace '${workspace}')`;
  return kind === 'journal'
    ? `Nothing was changed. Repair that row of paygate_journal${ws} from a backup, or delete it and every later row of the ` +
        `workspace (dropping those transactions: each was made on top of the ones before), or start with --reset to ` +
        `empty the database, or pass another --store.`
    : `Nothing was changed. Restore the row of paygate_snapshot${ws} from a backup, or start with --reset to empty the ` +
        `database, or pass another --store.`;
}

function parse(label: string, text: string, kind: 'snapshot' | 'journal', line: number | undefined): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new StoreCorruptError(`${label} paygate_${kind}`, `not valid JSON (${(e as Error).message})`, {
      kind,
      advice: advice(kind, undefined),
      ...(line !== undefined ? { line } : {}),
    });
  }
}

async function readSnapshot(client: ClientBase, workspace: string, label: string): Promise<LoadedState> {
  const snap = await client.query<{ upto_seq: string; collections: string }>(
    'SELECT upto_seq, collections FROM paygate_snapshot WHERE workspace = $1',
    [workspace],
  );
  const colls = new Map<string, Map<string, Entity>>();
  const row = snap.rows[0];
  if (row) {
    const parsed = parse(label, row.collections, 'snapshot', undefined) as Collections;
    try {
      assertCollections(parsed);
    } catch (e) {
      throw new StoreCorruptError(`${label} paygate_snapshot`, (e as Error).message, {
        kind: 'snapshot',
        advice: advice('snapshot', workspace),
      });
    }
    for (const [c, list] of Object.entries(parsed)) colls.set(c, new Map(list.map((v) => [v.id, v])));
  }
  return { seq: row ? Number(row.upto_seq) : 0, colls, journalRows: 0 };
}

/** The workspace's state: `base` brought up to date when the snapshot has not moved past it, else read afresh. */
export async function readState(
  client: ClientBase,
  workspace: string,
  label: string,
  base?: LoadedState,
): Promise<LoadedState> {
  let state: LoadedState;
  if (base) {
    const head = await client.query<{ upto_seq: string }>(
      'SELECT upto_seq FROM paygate_snapshot WHERE workspace = $1',
      [workspace],
    );
    state = Number(head.rows[0]?.upto_seq ?? 0) <= base.seq ? base : await readSnapshot(client, workspace, label);
  } else state = await readSnapshot(client, workspace, label);
  const journal = await client.query<{ seq: string; tx: string }>(
    'SELECT seq, tx FROM paygate_journal WHERE workspace = $1 AND seq > $2 ORDER BY seq',
    [workspace, state.seq],
  );
  let seq = state.seq;
  for (const row of journal.rows) {
    const n = Number(row.seq);
    if (n !== seq + 1)
      throw new StoreCorruptError(
        `${label} paygate_journal`,
        `transaction ${seq + 1} is missing (the next one is ${n})`,
        { kind: 'journal', line: n, advice: advice('journal', workspace) },
      );
    const changes = parse(label, row.tx, 'journal', n) as Change[];
    try {
      assertChanges(changes);
    } catch (e) {
      throw new StoreCorruptError(`${label} paygate_journal`, `transaction ${n}: ${(e as Error).message}`, {
        kind: 'journal',
        line: n,
        advice: advice('journal', workspace),
      });
    }
    for (const ch of changes) {
      let m = state.colls.get(ch.c);
      if (!m) state.colls.set(ch.c, (m = new Map()));
      m.set(ch.v.id, ch.v);
    }
    seq = n;
  }
  return { seq, colls: state.colls, journalRows: (state === base ? base.journalRows : 0) + journal.rows.length };
}

export function toCollections(state: LoadedState): Collections {
  return Object.fromEntries([...state.colls].map(([c, m]) => [c, [...m.values()]]));
}
