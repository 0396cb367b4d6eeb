// PostgresPersistence: one workspace's journal and snapshot in PostgreSQL (tables in schema.ts), written through
// the backend's writer connection, the one session that holds the active lease: if that session dies, its writes
// fail and the lease is released at once (fencing). Every statement is a single statement (atomic on its own), so
// the workspaces sharing the connection never interleave inside one another's transaction.
// A group (from the Store's group writer, or the base's for commit(): persistence-base.ts) goes out in one
// multi-row INSERT, one round trip and one WAL flush; it resolves once PostgreSQL has committed its rows. The
// Store's groups are pipelined (pipelineDepth 2 when the writer connection is in pipeline mode): the next group is
// sent, chained to the one in flight (pipeline.ts: written only if the one before it was).
// Sequence numbers are given when a group is sent; after a refused write (and every group chained to it) they start
// again after the last group written, so a refused write leaves no gap; open() reports a gap.
import type { Client } from 'pg';
import type { Change, Collections, Loaded, PersistenceStats } from '../persistence.js';
import { assertCollections } from '../persistence.js';
import { PersistenceBase } from '../persistence-base.js';
import { collectionsSource, isSource, type LoadTarget, type SnapshotSource } from '../snapshot.js';
import { StoreClosedError, StoreFailedError } from '../errors.js';
import { serializeChanges } from '../journal.js';
import { readState, toCollections, type LoadedState } from './load.js';
import { appendQuery, ChainBrokenError, LEASED } from './pipeline.js';

/** What the persistence needs of its backend (PostgresBackend). */
export interface PgWriterSource {
  readonly label: string;
  /** The writer connection, holding the lease (acquired now if free); rejects when another process holds it. */
  active(): Promise<Client>;
  /** Set once the writer's session is gone: nothing more can be written. */
  readonly lost: Error | undefined;
  claim(workspace: string): void;
  /** The writer connection runs in pipeline mode: a group may be sent while another is in flight (pipeline.ts). */
  readonly pipelined?: boolean;
  /** The connection this workspace's writes go on once it is open (default: the one active() gave). */
  writerFor?(workspace: string): Promise<Client>;
  /** The state a standby kept warm for `workspace`, handed over once. */
  takeWarm?(workspace: string): LoadedState | undefined;
  release(workspace: string): Promise<void>;
  /**
   * In a cluster (src/cluster/): the lease this process holds on `workspace` — its id and the lease's epoch. Every
   * write then checks, in its own statement, that the lease row still names this writer and epoch (and locks it
   * against a takeover until it commits): a process that lost the lease writes nothing. Undefined: not fenced.
   */
  fence?(workspace: string): { writer: string; epoch: number } | undefined;
  /** Told when a fenced write found the lease gone (nothing was written). */
  fenced?(workspace: string): void;
}

/** Journal rows at open from which the open folds them into the snapshot. */
const COMPACT_ON_OPEN = 1000;

/** Compaction in a cluster: written only while the lease row holds this writer's epoch ($4, $5; pipeline.ts). */
const COMPACT_FENCED = {
  name: 'paygate_compact_fenced',
  text: `WITH l AS (${LEASED}), gone AS (DELETE FROM paygate_journal WHERE workspace = $1 AND seq <= $2 AND EXISTS (SELECT 1 FROM l))
    INSERT INTO paygate_snapshot (workspace, upto_seq, collections) SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM l)
    ON CONFLICT (workspace) DO UPDATE SET upto_seq = EXCLUDED.upto_seq, collections = EXCLUDED.collections, written_at = now()`,
};
const COMPACT = {
  name: 'paygate_compact',
  text: `WITH gone AS (DELETE FROM paygate_journal WHERE workspace = $1 AND seq <= $2)
    INSERT INTO paygate_snapshot (workspace, upto_seq, collections) VALUES ($1, $2, $3)
    ON CONFLICT (workspace) DO UPDATE SET upto_seq = EXCLUDED.upto_seq, collections = EXCLUDED.collections, written_at = now()`,
};

export class PostgresPersistence extends PersistenceBase {
  #state: 'new' | 'open' | 'closing' | 'closed' = 'new';
  #client: Client | undefined;
  /** Last seq written (committed), and last seq given to a group sent. */
  #seq = 0;
  #next = 0;
  /** Groups sent and not answered; whether the last one sent was written, once it answered. */
  #flying = 0;
  #tail: Promise<boolean> = Promise.resolve(true);
  /** A group failed while others were in flight: seqs start again after #seq once they are all answered. */
  #rewind = false;
  #records = 0;
  #failed: Error | undefined;
  #stats = { commits: 0, flushes: 0 };

  constructor(
    readonly source: PgWriterSource,
    readonly workspace: string,
  ) {
    super();
  }

  get label(): string {
    return `${this.source.label} (workspace ${this.workspace})`;
  }

  get stats(): PersistenceStats {
    return { ...this.#stats, journalRecords: this.#records };
  }

  get seq(): number {
    return this.#seq;
  }

  /** Two groups in flight (one running, the next waiting in the database) when the writer pipelines. */
  get pipelineDepth(): number {
    return this.source.pipelined ? 2 : 1;
  }

  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** Nothing to compact in the background: a long journal is folded in when it is opened. */
  get shouldCompact(): boolean {
    return false;
  }

  async load(target: LoadTarget): Promise<Loaded> {
    for (const [c, list] of Object.entries(await this.#open())) for (const v of list) target.put(c, v.id, v);
    return { compact: false };
  }

  async #open(): Promise<Collections> {
    if (this.#state === 'open' || this.#state === 'closing')
      throw new Error(`PostgresPersistence.open(): ${this.label} is already ${this.#state}`);
    this.source.claim(this.workspace);
    try {
      this.#client = await this.source.active();
      const all = await this.#load(this.#client);
      if (this.source.writerFor) this.#client = await this.source.writerFor(this.workspace);
      this.#next = this.#seq;
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

  /** JSON.stringify of the changes, built from each entity's own text, which PackedMap reuses when it cools. */
  protected encode(changes: readonly Change[]): string {
    return serializeChanges(changes);
  }

  protected refusal(op: 'commit' | 'compact' | 'sync'): unknown {
    if (op === 'sync' || this.#state === 'open' || (op === 'compact' && this.#state === 'closing')) return this.#failed;
    return new StoreClosedError(this.label, op);
  }

  async writeSnapshot(source: SnapshotSource): Promise<void> {
    let collections: string;
    try {
      const refused = this.refusal('compact');
      if (refused) throw refused;
      collections = collectionsText(source);
    } finally {
      source.release();
    }
    await this.#writeSnapshot(this.#client!, collections).catch((e: unknown) => {
      throw this.#failure(e);
    });
  }

  /** PostgreSQL writes its snapshot in one statement: at once. */
  async beginSnapshot(source: SnapshotSource): Promise<{ written: Promise<void> }> {
    await this.writeSnapshot(source);
    return { written: Promise.resolve() };
  }

  async close(all?: Collections | SnapshotSource): Promise<void> {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    let error: unknown;
    await this.settled();
    if (all !== undefined && !this.#failed) {
      await Promise.resolve()
        .then(() => this.writeSnapshot(isSource(all) ?? sourceOf(all as Collections)))
        .catch((e: unknown) => (error = e));
    } else {
      isSource(all)?.release();
    }
    this.#state = 'closed';
    this.#client = undefined;
    await this.source.release(this.workspace);
    if (error !== undefined && !(error instanceof StoreFailedError)) throw error;
  }

  /**
   * One multi-row INSERT (one statement: all rows or none), numbered after the last seq sent. Called again while a
   * group is in flight (the Store pipelines): that group is chained to the one before it (pipeline.ts).
   */
  protected async append(bodies: readonly string[]): Promise<void> {
    if (this.#failed) throw this.#failed;
    if (bodies.length === 0) throw new Error('PostgresPersistence: a group is never empty');
    const first = this.#next + 1;
    const last = this.#next + bodies.length;
    const fence = this.source.fence?.(this.workspace);
    const before = this.#flying > 0 ? this.#tail : undefined;
    const query = appendQuery(this.workspace, first, bodies, before !== undefined, fence);
    let written!: (ok: boolean) => void;
    this.#tail = new Promise<boolean>((r) => (written = r));
    this.#next = last;
    this.#flying++;
    try {
      const { rowCount } = await this.#client!.query(query);
      if (rowCount !== bodies.length) {
        // Nothing was written: the group before it was not (chained), or else the lease is gone (fenced).
        if (!fence || (before && !(await before))) throw new ChainBrokenError(first);
        throw this.#fenced(fence.epoch);
      }
      this.#seq = last;
      this.#records += bodies.length;
      this.#stats.flushes++;
      this.#stats.commits += bodies.length;
      written(true);
    } catch (e) {
      written(false);
      this.#rewind = true;
      throw e instanceof ChainBrokenError ? e : this.#failure(e);
    } finally {
      if (--this.#flying === 0 && this.#rewind) {
        this.#rewind = false;
        this.#next = this.#seq;
      }
    }
  }

  async #writeSnapshot(client: Client, collections: string): Promise<void> {
    const fence = this.source.fence?.(this.workspace);
    if (!fence) await client.query({ ...COMPACT, values: [this.workspace, this.#seq, collections] });
    else {
      const values = [this.workspace, this.#seq, collections, fence.writer, fence.epoch];
      if ((await client.query({ ...COMPACT_FENCED, values })).rowCount !== 1) throw this.#fenced(fence.epoch);
    }
    this.#records = 0;
  }

  /** The lease was taken by another process: this one may never write the workspace again. */
  #fenced(epoch: number): Error {
    this.source.fenced?.(this.workspace);
    return (this.#failed ??= new StoreFailedError(
      this.label,
      new Error(`the workspace's lease (epoch ${epoch}) was taken over by another process; nothing was written`),
    ));
  }

  /**
   * A write error as its commits see it. Lost session, or a row with our seq already there (another writer: the
   * lease was lost): nothing more may be written, every later commit gets the same StoreFailedError.
   */
  #failure(e: unknown): unknown {
    const code = (e as { code?: string })?.code;
    if (this.source.lost || code === '23505' || code === undefined)
      this.#failed ??= new StoreFailedError(this.label, this.source.lost ?? e);
    return this.#failed ?? e;
  }
}

function sourceOf(all: Collections): SnapshotSource {
  assertCollections(all);
  return collectionsSource(all);
}

/** A snapshot source as the snapshot row's `collections` text: `{ "<collection>": [entity, …], … }`. */
function collectionsText(source: SnapshotSource): string {
  const lists = new Map<string, string[]>();
  for (const [c, , json] of source.entries()) {
    let list = lists.get(c);
    if (!list) lists.set(c, (list = []));
    list.push(json);
  }
  return `{${[...lists].map(([c, list]) => `${JSON.stringify(c)}:[${list.join(',')}]`).join(',')}}`;
}
