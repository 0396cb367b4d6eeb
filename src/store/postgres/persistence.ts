// PostgresPersistence: one workspace's journal and snapshot in PostgreSQL (tables in schema.ts), written through
// the backend's writer connection, the one session that holds the active lease: if that session dies, its writes
// fail and the lease is released at once (fencing). Every statement is a single statement (atomic on its own), so
// the workspaces sharing the connection never interleave inside one another's transaction.
// Group commit as in the file store: the commits queued while a write is in flight (or in the same tick) go out in
// one multi-row INSERT, one round trip and one WAL flush; a commit resolves once PostgreSQL has committed its row.
// Sequence numbers are given when a group is written, so a refused write leaves no gap; open() reports a gap.
import type { Client } from 'pg';
import type { Change, Collections, Persistence, PersistenceStats } from '../persistence.js';
import { assertChanges, assertCollections } from '../persistence.js';
import { StoreClosedError, StoreFailedError } from '../errors.js';
import { readState, toCollections, type LoadedState } from './load.js';

/** What the persistence needs of its backend (PostgresBackend). */
export interface PgWriterSource {
  readonly label: string;
  /** The writer connection, holding the lease (acquired now if free); rejects when another process holds it. */
  active(): Promise<Client>;
  /** Set once the writer's session is gone: nothing more can be written. */
  readonly lost: Error | undefined;
  claim(workspace: string): void;
  /** The state a standby kept warm for `workspace`, handed over once. */
  takeWarm?(workspace: string): LoadedState | undefined;
  release(workspace: string): Promise<void>;
}

interface Waiter {
  resolve(): void;
  reject(e: unknown): void;
}
type Entry = { kind: 'commit'; body: string; w: Waiter } | { kind: 'sync'; w: Waiter } | { kind: 'compact'; collections: string; w: Waiter };

/** Journal rows at open from which the open folds them into the snapshot. */
const COMPACT_ON_OPEN = 1000;

/** Most transactions in one INSERT. */
const MAX_GROUP = 512;

const APPEND = {
  name: 'paygate_journal_append',
  text: 'INSERT INTO paygate_journal (workspace, seq, tx) SELECT $1, s, t FROM unnest($2::bigint[], $3::text[]) AS u(s, t)',
};
const COMPACT = {
  name: 'paygate_compact',
  text: `WITH gone AS (DELETE FROM paygate_journal WHERE workspace = $1 AND seq <= $2)
    INSERT INTO paygate_snapshot (workspace, upto_seq, collections) VALUES ($1, $2, $3)
    ON CONFLICT (workspace) DO UPDATE SET upto_seq = EXCLUDED.upto_seq, collections = EXCLUDED.collections, written_at = now()`,
};

export class PostgresPersistence implements Persistence {
  #state: 'new' | 'open' | 'closing' | 'closed' = 'new';
  #client: Client | undefined;
  #seq = 0;
  #records = 0;
  #failed: Error | undefined;
  #queue: Entry[] = [];
  #running = false;
  #scheduled = false;
  #stats = { commits: 0, flushes: 0 };

  constructor(
    readonly source: PgWriterSource,
    readonly workspace: string,
  ) {}

  get label(): string {
    return `${this.source.label} (workspace ${this.workspace})`;
  }

  get stats(): PersistenceStats {
    return { ...this.#stats, journalRecords: this.#records };
  }

  get seq(): number {
    return this.#seq;
  }

  get isOpen(): boolean {
    return this.#state === 'open';
  }

  async open(): Promise<Collections> {
    if (this.#state === 'open' || this.#state === 'closing') throw new Error(`PostgresPersistence.open(): ${this.label} is already ${this.#state}`);
    this.source.claim(this.workspace);
    try {
      this.#client = await this.source.active();
      const all = await this.#load(this.#client);
      this.#queue = [];
      this.#failed = undefined;
      this.#stats = { commits: 0, flushes: 0 };
      this.#state = 'open';
      return all;
    } catch (e) {
      await this.source.release(this.workspace);
      throw e;
    }
  }

  /** The snapshot, then every journal row after it (checked for gaps), folded; from the standby's warm copy if any. */
  async #load(client: Client): Promise<Collections> {
    const state = await readState(client, this.workspace, this.label, this.source.takeWarm?.(this.workspace));
    this.#seq = state.seq;
    this.#records = state.journalRows;
    const all = toCollections(state);
    // Fold a long journal into the snapshot, so the next start (a failover) reads few rows; a short one is cheaper
    // to replay than a snapshot is to rewrite, and the open (the takeover) is not held up by it.
    if (this.#records >= COMPACT_ON_OPEN) await this.#writeSnapshot(client, JSON.stringify(all));
    return all;
  }

  commit(changes: readonly Change[]): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new StoreClosedError(this.label, 'commit'));
    if (this.#failed) return Promise.reject(this.#failed);
    let body: string;
    try {
      assertChanges(changes);
      if (changes.length === 0) return this.sync();
      body = JSON.stringify(changes);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#enqueue((w) => ({ kind: 'commit', body, w }));
  }

  sync(): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (!this.#running && this.#queue.length === 0) return Promise.resolve();
    return this.#enqueue((w) => ({ kind: 'sync', w }));
  }

  compact(all: Collections): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new StoreClosedError(this.label, 'compact'));
    return this.#compact(all);
  }

  #compact(all: Collections): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    let collections: string;
    try {
      assertCollections(all);
      collections = JSON.stringify(all);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#enqueue((w) => ({ kind: 'compact', collections, w }));
  }

  async close(all?: Collections): Promise<void> {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    let error: unknown;
    if (all !== undefined && !this.#failed) await this.#compact(all).catch((e: unknown) => (error = e));
    else await this.sync().catch(() => {});
    this.#state = 'closed';
    this.#client = undefined;
    await this.source.release(this.workspace);
    if (error !== undefined && !(error instanceof StoreFailedError)) throw error;
  }

  // ---- the serial writer ----

  #enqueue(make: (w: Waiter) => Entry): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push(make({ resolve, reject }));
      if (!this.#running && !this.#scheduled) {
        // The Store hands over a whole group at once: send it now. Commits made meanwhile join the next INSERT.
        this.#scheduled = true;
        queueMicrotask(() => {
          this.#scheduled = false;
          void this.#drain();
        });
      }
    });
  }

  async #drain(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        if (this.#failed) {
          for (const e of this.#queue.splice(0)) e.w.reject(this.#failed);
          break;
        }
        const head = this.#queue[0]!;
        if (head.kind === 'compact') {
          this.#queue.shift();
          await this.#writeSnapshot(this.#client!, head.collections).then(head.w.resolve, (e: unknown) => head.w.reject(this.#failure(e)));
          continue;
        }
        let n = 0;
        let commits = 0;
        while (n < this.#queue.length && this.#queue[n]!.kind !== 'compact' && commits < MAX_GROUP) if (this.#queue[n++]!.kind === 'commit') commits++;
        await this.#writeBatch(this.#queue.splice(0, n));
      }
    } finally {
      this.#running = false;
    }
  }

  /** One multi-row INSERT (one statement: all rows or none), numbered from the last seq written. */
  async #writeBatch(batch: Entry[]): Promise<void> {
    const seqs: number[] = [];
    const bodies: string[] = [];
    for (const e of batch) {
      if (e.kind !== 'commit') continue;
      seqs.push(this.#seq + seqs.length + 1);
      bodies.push(e.body);
    }
    if (seqs.length > 0) {
      try {
        await this.#client!.query({ ...APPEND, values: [this.workspace, seqs, bodies] });
      } catch (e) {
        const err = this.#failure(e);
        for (const x of batch) x.w.reject(err);
        return;
      }
      this.#seq += seqs.length;
      this.#records += seqs.length;
      this.#stats.flushes++;
      this.#stats.commits += seqs.length;
    }
    for (const x of batch) x.w.resolve();
  }

  async #writeSnapshot(client: Client, collections: string): Promise<void> {
    await client.query({ ...COMPACT, values: [this.workspace, this.#seq, collections] });
    this.#records = 0;
  }

  /**
   * A write error as its commits see it. Lost session, or a row with our seq already there (another writer: the
   * lease was lost): nothing more may be written, every later commit gets the same StoreFailedError.
   */
  #failure(e: unknown): unknown {
    const code = (e as { code?: string })?.code;
    if (this.source.lost || code === '23505' || code === undefined) this.#failed ??= new StoreFailedError(this.label, this.source.lost ?? e);
    return this.#failed ?? e;
  }
}
