// The Store: in-memory state plus a backend (GroupPersistence), with one rule: nothing acknowledged is lost, nothing
// unwritten is shown. A transaction is applied in memory at once (so the next command plans on top of it) and written
// in the next group write of the one group writer (group-writer.ts); one group is in flight at a time, or a few when the
// backend pipelines them (PostgreSQL: settled in order all the same). When a write fails, its group and every transaction
// queued behind it (planned on top of it) are taken back in memory, newest first, and their commits reject: the
// state is exactly as if those requests had never come. Reads that must show only written data ask for the
// durable version of an entity (`durable()`) or the durable balance of an account (`durableTotal()`).
import type { Decimal } from 'decimal.js';
import { AccountTotals, type Posting } from '../domain/ledger.js';
import { GroupWriter } from './group-writer.js';
import type { Change, Entity, GroupPersistence } from './persistence.js';
import type { SnapshotSource } from './snapshot.js';
import { stateTarget } from './state-load.js';
import { SandboxState, type StoreChange } from './state.js';
import { captureState } from './state-capture.js';
import { StoreUnavailableError } from './errors.js';
import { groupChannel, type GroupTrace } from './write-trace.js';

/** What a failed write rejects with: the store's own error (a full queue is one already). */
const unavailable = (e: unknown): StoreUnavailableError =>
  e instanceof StoreUnavailableError ? e : new StoreUnavailableError(e);

interface Tx {
  seq: number;
  upserts: Change[];
  undo: () => void;
  onWritten: (() => void) | undefined;
  /** performance.now() at commit, only while the write trace has a subscriber (write-trace.ts); else 0. */
  at: number;
  /** What a failed write rejects with (the commit's caller may wrap the error, without a promise layer of its own). */
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** What a key was before its first unwritten change, and how many unwritten transactions touch it. */
interface Shadow {
  durable: Entity | undefined;
  pending: number;
}

/** Most transactions in one group write: one write never serializes more at once (a pool layout queues thousands),
 * so no single write holds the event loop for long; the rest goes in the next write. */
const MAX_GROUP = 256;
/** Most transactions applied in memory and waiting for their write; beyond it a commit is refused at once, changing
 * nothing (GroupWriterFullError, a StoreUnavailableError: 503 store_unavailable). */
export const MAX_QUEUED = 100_000;

export class Store {
  readonly state = new SandboxState();
  private opened = false;
  /** Applied in memory, waiting for the next group write; a failed group takes back every one queued behind it. */
  private readonly writer: GroupWriter<Tx> = new GroupWriter<Tx>({
    maxGroup: MAX_GROUP,
    maxQueued: MAX_QUEUED,
    cascade: true,
    depth: () => this.persistence.pipelineDepth ?? 1,
    write: (group) => (groupChannel.hasSubscribers ? this.traceWrite(group) : this.writeGroup(group)),
    settle: (group, error) => this.settle(group, error),
  });
  /** Sequence number of the last transaction committed and of the last one settled (in memory only: an invariant
   * check, they settle in commit order; the backend numbers what it writes itself, so a failed group leaves no gap). */
  private lastSeq = 0;
  private settledSeq = 0;
  /** Collection → id → shadow: no key string is built per change (a create touches two or three entities). */
  private readonly shadows = new Map<string, Map<string, Shadow>>();
  /** Postings applied but not yet written: subtracted from totals for durable balance reads. */
  private readonly unwritten = new AccountTotals();

  /** The background compaction running, if any (see maybeCompact). */
  private compaction: Promise<void> | undefined;
  /** Why the last background compaction failed (its journal is kept: nothing is lost). */
  lastCompactionError: unknown;

  constructor(readonly persistence: GroupPersistence) {}

  async open(): Promise<void> {
    const target = stateTarget(this.state);
    // A store that cannot be opened (damaged) lets go of the snapshot it had begun to read texts from.
    const loaded = await this.persistence.load(target).catch((e: unknown) => {
      this.state.cold.clear();
      throw e;
    });
    target.finish();
    this.opened = true;
    // A journal left by the last run (a persistence that does not fold it in at open) goes into a snapshot now.
    if (loaded.compact) this.maybeCompact(true);
  }

  /**
   * The written state, to be written as a snapshot while the state goes on changing: the state's capture, with
   * the values before every change not written yet.
   */
  private capture(): SnapshotSource {
    const durable = new Map<string, Map<string, Entity | undefined>>();
    for (const [c, shadows] of this.shadows) {
      if (shadows.size === 0) continue;
      const m = new Map<string, Entity | undefined>();
      for (const [id, s] of shadows) m.set(id, s.durable);
      durable.set(c, m);
    }
    return captureState(this.state, durable);
  }

  private writeGroup(group: readonly Tx[]): Promise<void> {
    return this.persistence.writeGroup(group.length === 1 ? group[0]!.upserts : group.flatMap((t) => t.upserts));
  }

  /** writeGroup, timed for the write trace (write-trace.ts). */
  private traceWrite(group: readonly Tx[]): Promise<void> {
    const t0 = performance.now();
    const written = this.writeGroup(group);
    const t1 = performance.now();
    const publish = (failed: boolean) =>
      groupChannel.publish({
        transactions: group.length,
        changes: group.reduce((n, t) => n + t.upserts.length, 0),
        waited_ms: group[0]!.at > 0 ? t0 - group[0]!.at : 0,
        encode_ms: t1 - t0,
        written_ms: performance.now() - t1,
        failed,
      } satisfies GroupTrace);
    written.then(
      () => publish(false),
      () => publish(true),
    );
    return written;
  }

  /** Nothing in flight and the journal is long: write a snapshot in the background (commits go on meanwhile). */
  private maybeCompact(now = false): void {
    if (this.compaction || !(now || this.persistence.shouldCompact)) return;
    // Captured and begun now, while no group is being written (at open, or as one settles): the state as of the
    // last group written. The writer runs nothing else until the journal is set aside; the snapshot is written
    // beside the groups that follow.
    const begun = this.persistence.beginSnapshot(this.capture());
    const done = this.writer.runFirst(() => begun.then(() => {})).then(async () => (await begun).written);
    this.compaction = done.then(
      () => {},
      (e: unknown) => {
        this.lastCompactionError = e;
      },
    );
    void this.compaction.then(() => (this.compaction = undefined));
  }

  /** A full snapshot of the written state (close, reset). */
  private async compactAll(close: boolean): Promise<void> {
    await this.compaction;
    if (close) await this.persistence.close(this.capture());
    else await this.writer.run(() => this.persistence.writeSnapshot(this.capture()));
  }

  /**
   * Apply in memory now; resolves once written. Rejects (and takes the change back, with every change queued after
   * it) when the write fails; throws at once, changing nothing, when the changes cannot be applied. `onWritten`
   * runs as soon as the write succeeded, before any caller of commit() or sync() resumes. A failed write rejects
   * with the store's own error, StoreUnavailableError (its cause the backend's error).
   */
  commit(changes: readonly StoreChange[], onWritten?: () => void): Promise<void> {
    if (!this.opened) return Promise.reject(unavailable(new Error('store is not open')));
    const { upserts, before, undo } = this.state.apply(changes);
    if (upserts.length === 0) return onWritten ? this.sync().then(onWritten) : this.sync();
    return new Promise<void>((resolve, reject) => {
      try {
        const at = groupChannel.hasSubscribers ? performance.now() : 0;
        this.writer.submit({ seq: this.lastSeq + 1, upserts, undo, onWritten, at, resolve, reject });
      } catch (e) {
        undo(); // the queue is full: nothing of this transaction stays
        reject(unavailable(e));
        return;
      }
      this.lastSeq++;
      this.shadow(upserts, before, +1);
    });
  }

  /** Resolves when every transaction committed so far has settled (written, or taken back). Never rejects. */
  sync(): Promise<void> {
    return this.writer.sync();
  }

  /** The written version of an entity: what a read may show (undefined: it does not exist on disk yet). */
  durable<T>(c: string, id: string, current: T | undefined): T | undefined {
    const s = this.shadows.get(c)?.get(id);
    return s ? (s.durable as T | undefined) : current;
  }

  /** An account's total over written postings only. */
  durableTotal(account: string, currency: string): Decimal {
    return this.state.accountTotal(account, currency).minus(this.unwritten.get(account, currency));
  }

  /** Drop every entity (sandbox reset) and write the empty state as the new snapshot. */
  async clear(): Promise<void> {
    await this.drain();
    await this.compaction;
    this.state.clear();
    await this.compactAll(false);
  }

  async close(): Promise<void> {
    if (!this.opened) return;
    await this.drain();
    this.opened = false;
    try {
      await this.compactAll(true);
    } finally {
      // The snapshot files the state read texts from are closed: a closed store's cold entities are not read.
      this.state.cold.clear();
    }
  }

  /** Wait until nothing is queued or being written. */
  private async drain(): Promise<void> {
    while (!this.writer.idle) await this.sync();
  }

  private shadow(
    upserts: readonly Change[],
    before: readonly (Entity | undefined)[],
    delta: 1 | -1,
    written?: boolean,
  ): void {
    for (let i = 0; i < upserts.length; i++) {
      const u = upserts[i]!;
      let shadows = this.shadows.get(u.c);
      if (!shadows) this.shadows.set(u.c, (shadows = new Map()));
      const s = shadows.get(u.v.id);
      if (delta === 1) {
        if (s) s.pending++;
        else shadows.set(u.v.id, { durable: before[i], pending: 1 });
        if (u.c === 'postings') this.unwritten.apply(u.v as unknown as Posting);
        continue;
      }
      if (!s) continue;
      if (written) s.durable = u.v;
      if (--s.pending === 0) shadows.delete(u.v.id);
      if (u.c === 'postings') this.unwritten.unapply(u.v as unknown as Posting);
    }
  }

  /** A group settled: written (shadows dropped, onWritten run, commits resolved) or refused (it and everything queued
   * behind it taken back, newest first, their commits rejected). Runs before any sync() waiter resumes. */
  private settle(done: readonly Tx[], error: unknown): void {
    if (done[0]!.seq !== this.settledSeq + 1)
      throw new Error(`Store: transaction ${done[0]!.seq} settled after ${this.settledSeq}`);
    if (error === undefined) {
      for (const t of done) this.shadow(t.upserts, [], -1, true);
      for (const t of done) {
        try {
          t.onWritten?.();
        } catch (e) {
          queueMicrotask(() => {
            throw e;
          });
        }
      }
      for (const t of done) t.resolve();
    } else {
      for (let i = done.length - 1; i >= 0; i--) {
        done[i]!.undo();
        this.shadow(done[i]!.upserts, [], -1, false);
      }
      const failed = unavailable(error);
      for (const t of done) t.reject(failed);
    }
    this.settledSeq = done.at(-1)!.seq;
    if (error === undefined) this.maybeCompact();
  }
}
