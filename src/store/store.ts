// The Store: in-memory state plus a Persistence, with one rule: nothing acknowledged is lost, nothing unwritten is
// shown. A transaction is applied in memory at once (so the next command plans on top of it) and written in the
// next group write; only one group is in flight at a time. When a write fails, its group and every transaction
// queued behind it (planned on top of it) are taken back in memory, newest first, and their commits reject: the
// state is exactly as if those requests had never come. Reads that must show only written data ask for the
// durable version of an entity (`durable()`) or the durable balance of an account (`durableTotal()`).
import type { Decimal } from 'decimal.js';
import { AccountTotals, type Posting } from '../domain/ledger.js';
import type { Change, Entity, Persistence } from './persistence.js';
import type { EntityMaps, LoadTarget, SnapshotSource } from './snapshot.js';
import { stateTarget } from './state-load.js';
import { SandboxState, type StoreChange } from './state.js';
import { captureState } from './state-capture.js';

/** What a Persistence may offer beyond the interface (FilePersistence does): loading entities as their JSON text,
 * compacting from a lazily read capture of the state, and compacting in the background as its journal grows. */
interface ScalablePersistence extends Persistence {
  openRaw?(): Promise<EntityMaps>;
  openInto?(target: LoadTarget & { capture(): SnapshotSource }): Promise<void>;
  compactSource?(source: SnapshotSource): Promise<void>;
  compactInBackground?(source: SnapshotSource): Promise<void>;
  readonly shouldCompact?: boolean;
  close(all?: Parameters<Persistence['close']>[0] | SnapshotSource): Promise<void>;
}

interface Tx {
  seq: number;
  upserts: Change[];
  undo: () => void;
  onWritten: (() => void) | undefined;
  /** What a failed write rejects with (the commit's caller may wrap the error, without a promise layer of its own). */
  mapError: ((e: unknown) => unknown) | undefined;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** What a key was before its first unwritten change, and how many unwritten transactions touch it. */
interface Shadow {
  durable: Entity | undefined;
  pending: number;
}

/** Most transactions in one group write. */
const MAX_GROUP = 256;

export class Store {
  readonly state = new SandboxState();
  private opened = false;
  /** Applied in memory, waiting for the next group write. */
  private queued: Tx[] = [];
  /** The group being written. */
  private writing: Tx[] | undefined;
  private scheduled = false;
  /** Sequence number of the last transaction committed, and of the last one settled (they settle in order). In memory
   * only, for sync(): the journal numbers its lines itself when it writes them, so a failed group leaves no gap there. */
  private lastSeq = 0;
  private settledSeq = 0;
  /** Waiters of sync(): each resolved once every transaction up to its `seq` has settled. */
  private waiters: { seq: number; resolve: () => void }[] = [];
  /** Collection → id → shadow: no key string is built per change (a create touches two or three entities). */
  private readonly shadows = new Map<string, Map<string, Shadow>>();
  /** Postings applied but not yet written: subtracted from totals for durable balance reads. */
  private readonly unwritten = new AccountTotals();

  /** The background compaction running, if any (see maybeCompact). */
  private compaction: Promise<void> | undefined;
  /** Why the last background compaction failed (its journal is kept: nothing is lost). */
  lastCompactionError: unknown;

  constructor(readonly persistence: Persistence) {}

  private get p(): ScalablePersistence {
    return this.persistence as ScalablePersistence;
  }

  async open(): Promise<void> {
    if (this.p.openInto) {
      const target = stateTarget(this.state);
      // A store that cannot be opened (damaged) lets go of the snapshot it had begun to read texts from.
      await this.p.openInto(target).catch((e: unknown) => {
        this.state.cold.clear();
        throw e;
      });
      target.finish();
    } else if (this.p.openRaw) this.state.loadMaps(await this.p.openRaw());
    else this.state.load(await this.persistence.open());
    this.opened = true;
    // A journal left by the last run (a persistence that does not fold it in at open) goes into a snapshot now.
    if (this.persistence.stats.journalRecords > 0) this.maybeCompact(true);
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

  /** Nothing in flight and the journal is long: write a snapshot in the background (commits go on meanwhile). */
  private maybeCompact(now = false): void {
    if (this.writing || this.compaction || !this.p.compactInBackground || !(now || this.p.shouldCompact)) return;
    const done = this.p.compactInBackground(this.capture());
    this.compaction = done.then(
      () => {},
      (e: unknown) => {
        this.lastCompactionError = e;
      },
    );
    void this.compaction.then(() => (this.compaction = undefined));
  }

  /** A full snapshot of the written state (close, reset): from a capture when the persistence can read one. */
  private async compactAll(close: boolean): Promise<void> {
    await this.compaction;
    if (close) {
      await this.p.close(this.p.compactSource ? this.capture() : this.state.snapshot());
    } else if (this.p.compactSource) {
      await this.p.compactSource(this.capture());
    } else {
      await this.persistence.compact(this.state.snapshot());
    }
  }

  /**
   * Apply in memory now; resolves once written. Rejects (and takes the change back, with every change queued after
   * it) when the write fails; throws at once, changing nothing, when the changes cannot be applied. `onWritten`
   * runs as soon as the write succeeded, before any caller of commit() or sync() resumes. `mapError`: what a failed
   * write rejects with instead of its error.
   */
  commit(changes: readonly StoreChange[], onWritten?: () => void, mapError?: (e: unknown) => unknown): Promise<void> {
    if (!this.opened) {
      const e = new Error('store is not open');
      return Promise.reject(mapError ? mapError(e) : e);
    }
    const { upserts, before, undo } = this.state.apply(changes);
    if (upserts.length === 0) return onWritten ? this.sync().then(onWritten) : this.sync();
    this.shadow(upserts, before, +1);
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ seq: ++this.lastSeq, upserts, undo, onWritten, mapError, resolve, reject });
      this.kick();
    });
  }

  /** Resolves when every transaction committed so far has settled (written, or taken back). Never rejects. */
  sync(): Promise<void> {
    if (this.settledSeq >= this.lastSeq) return Promise.resolve();
    const seq = this.lastSeq;
    return new Promise<void>((resolve) => this.waiters.push({ seq, resolve }));
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
    while (this.writing || this.queued.length > 0) await this.sync();
  }

  private shadow(upserts: readonly Change[], before: readonly (Entity | undefined)[], delta: 1 | -1, written?: boolean): void {
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

  private kick(): void {
    if (this.writing || this.scheduled || this.queued.length === 0) return;
    // setImmediate: every transaction of this poll phase (all the requests that arrived together) joins one write.
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.writing || this.queued.length === 0) return;
    // A bounded group: one write never serializes more than MAX_GROUP transactions at once (a pool layout queues
    // thousands), so no single write holds the event loop for long; the rest goes in the next write.
    const group = this.queued.length <= MAX_GROUP ? this.queued : this.queued.slice(0, MAX_GROUP);
    this.queued = this.queued.length <= MAX_GROUP ? [] : this.queued.slice(MAX_GROUP);
    this.writing = group;
    const upserts = group.length === 1 ? group[0]!.upserts : group.flatMap((t) => t.upserts);
    let written: Promise<void>;
    try {
      written = this.persistence.commit(upserts);
    } catch (e) {
      written = Promise.reject(e);
    }
    written.then(
      () => this.settle(group, undefined),
      (e: unknown) => this.settle(group, e ?? new Error('write failed')),
    );
  }

  private settle(group: Tx[], error: unknown): void {
    this.writing = undefined;
    let done = group;
    if (error === undefined) {
      for (const t of group) this.shadow(t.upserts, [], -1, true);
      for (const t of group) {
        try {
          t.onWritten?.();
        } catch (e) {
          queueMicrotask(() => {
            throw e;
          });
        }
      }
      for (const t of group) t.resolve();
    } else {
      // Everything queued behind the failed group was planned on top of it: take it all back, newest first.
      done = [...group, ...this.queued];
      this.queued = [];
      for (let i = done.length - 1; i >= 0; i--) {
        done[i]!.undo();
        this.shadow(done[i]!.upserts, [], -1, false);
      }
      for (const t of done) t.reject(t.mapError ? t.mapError(error) : error);
    }
    this.settledSeq = done.at(-1)!.seq;
    if (error === undefined) this.maybeCompact();
    if (this.waiters.length > 0) {
      const ready = this.waiters.filter((w) => w.seq <= this.settledSeq);
      this.waiters = this.waiters.filter((w) => w.seq > this.settledSeq);
      for (const w of ready) w.resolve();
    }
    this.kick();
  }
}
