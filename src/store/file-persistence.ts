// FilePersistence: the durable store on disk. It owns three files next to each other:
//   <path>          snapshot, JSON Lines, written atomically (temp file + rename), holds `lastSeq`     (snapshot.ts)
//   <path>.journal  JSON Lines, one transaction per line, appended by group commit (+ fdatasync)     (journal.ts)
//   <path>.journal.old  the journal a background compaction set aside, until its snapshot is written   (journal.ts)
//   <path>.lock     {pid, startedAt, hostname, nonce}, created with O_EXCL; ownership of the other two (lock.ts)
// This module composes them: open (lock, load, replay, tidy up), commit/sync/compact/close, and the serial writer.
// After open() every journal write and every compaction goes through that one writer (#drain), so at most one
// write is in flight and the journal is truncated only after the snapshot that supersedes it is on disk. A
// background compaction (compactInBackground) only sets the journal aside in the writer; its snapshot is written
// while the writer goes on appending to a new journal, and the old one is deleted once the snapshot is on disk.
// Sequence numbers are given when a group is written, not when a commit is queued: a failed write takes none, so
// the lines on disk are numbered without a gap (the journal reports a gap as a lost line), and a compaction records
// the last seq actually written when it runs, so the next line always follows the snapshot.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Change, Collections, Persistence, PersistenceStats } from './persistence.js';
import { StoreClosedError, StoreFailedError } from './errors.js';
import { JournalFile, journalLine, serializeChanges } from './journal.js';
import { acquireLock, releaseLock, type LockToken } from './lock.js';
import { assertChanges, assertCollections } from './persistence.js';
import { SnapshotFile, collectionsSource, fsyncDir, isSource, mapsSource, mapsTarget, toCollections, type EntityMaps, type LoadTarget, type SnapshotSource } from './snapshot.js';

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, parseSnapshot, serializeSnapshot } from './snapshot.js';
export { replayJournal, type JournalReplay } from './journal.js';

export interface FilePersistenceOptions {
  /** Snapshot path, e.g. `.paygate/sandbox.json`; the journal and the lock live next to it. */
  path: string;
  /** fdatasync after each group write (and the snapshot + its directory before a journal truncation). Default true. */
  fsync?: boolean;
  /** Journal records after which `shouldCompact` turns true; the owner decides when to compact. Default 100_000. */
  compactAfter?: number;
  /** Compact after open() replayed a journal. Default true; false, or 'background' (the owner will), leave it as found. */
  compactOnOpen?: boolean | 'background';
}

type Waiter = { resolve(): void; reject(e: unknown): void }; // prettier-ignore
type Entry =
  | { kind: 'commit'; body: string; w: Waiter }
  | { kind: 'sync'; w: Waiter }
  | { kind: 'compact'; source: SnapshotSource; w: Waiter }
  | { kind: 'rotate'; source: SnapshotSource; seq: number; w: Waiter };

type State = 'new' | 'opening' | 'open' | 'closing' | 'closed';

export class FilePersistence implements Persistence {
  /** Absolute snapshot path. */
  readonly path: string;
  readonly journalPath: string;
  readonly lockPath: string;
  readonly fsync: boolean;
  readonly compactAfter: number;
  readonly compactOnOpen: boolean | 'background';

  readonly #snapshot: SnapshotFile;
  /** The journal; its `failed` is the store's: set, it refuses every further write. */
  readonly #journal: JournalFile;
  #state: State = 'new';
  #opening: Promise<unknown> | undefined;
  #closing: Promise<void> | undefined;
  #lock: LockToken | undefined;
  /** Seq of the last transaction written (or replayed); the next group write numbers its lines from here. */
  #seq = 0;
  #queue: Entry[] = [];
  #running = false;
  #scheduled = false;
  #stats: Omit<PersistenceStats, 'journalRecords'> = { commits: 0, flushes: 0 };
  /** The snapshot a background compaction is writing. */
  #background: Promise<void> | undefined;
  /** A journal set aside by a background compaction that failed: only a full compaction (close) clears it. */
  #oldLeft = false;

  constructor(opts: FilePersistenceOptions) {
    if (typeof opts?.path !== 'string' || opts.path === '') throw new TypeError('FilePersistence: path is required');
    this.path = path.resolve(opts.path);
    this.journalPath = `${this.path}.journal`;
    this.lockPath = `${this.path}.lock`;
    this.fsync = opts.fsync ?? true;
    // PAYGATE_STORE_COMPACT_AFTER: the default, for benchmarks that want a compaction soon.
    this.compactAfter = opts.compactAfter ?? (Number(process.env.PAYGATE_STORE_COMPACT_AFTER) || 100_000);
    this.compactOnOpen = opts.compactOnOpen ?? true;
    this.#snapshot = new SnapshotFile(this.path, this.fsync);
    this.#journal = new JournalFile(this.journalPath, this.fsync);
  }

  get stats(): PersistenceStats {
    return { ...this.#stats, journalRecords: this.#journal.records };
  }

  /** The journal holds at least `compactAfter` records: the owner should call compact(). */
  get shouldCompact(): boolean {
    return this.#journal.records >= this.compactAfter && this.#background === undefined && !this.#oldLeft;
  }

  /** A background compaction is running. */
  get compacting(): boolean { return this.#background !== undefined; } // prettier-ignore

  get isOpen(): boolean { return this.#state === 'open'; } // prettier-ignore

  /** Sequence number of the last transaction written (continues across restarts; a failed write takes none). */
  get seq(): number {
    return this.#seq;
  }

  async open(): Promise<Collections> {
    return toCollections(await this.openRaw());
  }

  /** open(), the entities of a version 2 snapshot left as their JSON text (the store keeps them so). */
  async openRaw(): Promise<EntityMaps> {
    const colls: EntityMaps = new Map();
    await this.openInto({ ...mapsTarget(colls), capture: () => mapsSource(colls) });
    return colls;
  }

  /** open() into a target (the store's state); `capture` gives what a compaction on open writes. */
  async openInto(target: LoadTarget & { capture(): SnapshotSource }): Promise<void> {
    if (this.#state !== 'new' && this.#state !== 'closed') {
      throw new Error(`FilePersistence.open(): ${this.path} is already ${this.#state}`);
    }
    const before = this.#state;
    this.#state = 'opening';
    this.#queue = [];
    this.#journal.reset();
    this.#stats = { commits: 0, flushes: 0 };
    const opening = (async () => {
      try {
        await mkdir(path.dirname(this.path), { recursive: true, mode: 0o700 });
        this.#lock = await acquireLock(this.lockPath, this.path);
      } catch (e) {
        this.#state = before;
        throw e;
      }
      try {
        await this.#load(target);
        this.#state = 'open';
      } catch (e) {
        await this.#journal.close().catch(() => {});
        await releaseLock(this.lockPath, this.#lock).catch(() => {});
        this.#lock = undefined;
        this.#state = before;
        throw e;
      }
    })();
    this.#opening = opening;
    try {
      return await opening;
    } finally {
      this.#opening = undefined;
    }
  }

  /** Read the snapshot, validate the whole journal, then replay it (nothing is written until both are known good), then tidy up. */
  async #load(target: LoadTarget & { capture(): SnapshotSource }): Promise<void> {
    const lastSeq = await this.#snapshot.load(target);
    const journal: EntityMaps = new Map();
    const replay = await this.#journal.read(lastSeq, journal);
    for (const [c, m] of journal) for (const [id, v] of m) target.put(c, id, v);
    this.#seq = Math.max(lastSeq, replay.maxSeq);
    this.#oldLeft = replay.old !== undefined;

    // From here on the files are known good; every write below keeps every acknowledged transaction.
    await this.#journal.openForAppend(replay);

    // 'background' still folds in a set-aside journal now: a background compaction cannot start while one is left.
    if (this.compactOnOpen === true ? replay.goodEnd > 0 || replay.old !== undefined : this.compactOnOpen && replay.old !== undefined) {
      // Records newer than the snapshot: fold them in. Only older ones (a compaction that crashed before its
      // truncation): the snapshot already has them, just empty the journal.
      if (replay.applied > 0) await this.#snapshot.write(target.capture(), this.#seq);
      await this.#journal.truncate();
      await this.#dropOld();
    }
  }

  /** Delete the set-aside journal (its records are in the snapshot now). */
  async #dropOld(): Promise<void> {
    if (!this.#oldLeft) return;
    await rm(this.#journal.oldPath, { force: true });
    if (this.fsync) await fsyncDir(path.dirname(this.path));
    this.#oldLeft = false;
  }

  commit(changes: readonly Change[]): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new StoreClosedError(this.path, 'commit'));
    if (this.#journal.failed) return Promise.reject(this.#journal.failed);
    let body: string;
    try {
      assertChanges(changes);
      if (changes.length === 0) return this.sync();
      body = serializeChanges(changes);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#enqueue((w) => ({ kind: 'commit', body, w }));
  }

  sync(): Promise<void> {
    if (this.#journal.failed) return Promise.reject(this.#journal.failed);
    if (!this.#running && this.#queue.length === 0) return Promise.resolve();
    return this.#enqueue((w) => ({ kind: 'sync', w }));
  }

  compact(all: Collections): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new StoreClosedError(this.path, 'compact'));
    return this.#compact(all);
  }

  #compact(all: Collections): Promise<void> {
    let source: SnapshotSource;
    try {
      assertCollections(all);
      // The state is captured now; its lastSeq when the compaction runs, after every commit queued before it has
      // been written (or refused): the last seq written then. Later commits wait behind it.
      source = collectionsSource(all);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.compactSource(source);
  }

  /** compact() from a snapshot source (the store's capture of its state, read lazily). Later commits wait behind it. */
  compactSource(source: SnapshotSource): Promise<void> {
    const refused = this.#state !== 'open' && this.#state !== 'closing' ? new StoreClosedError(this.path, 'compact') : this.#journal.failed;
    if (refused) source.release();
    return refused ? Promise.reject(refused) : this.#enqueue((w) => ({ kind: 'compact', source, w }));
  }

  /**
   * Write a snapshot of `source` without holding up commits: `source` must be the state as of the last seq written
   * now (nothing in flight). The journal is set aside in the writer; commits go on to a new journal while the
   * snapshot is written in slices; resolves once it is on disk and the old journal deleted.
   */
  compactInBackground(source: SnapshotSource): Promise<void> {
    if (this.#state !== 'open' || this.#journal.failed || this.#background || this.#oldLeft) {
      source.release();
      return Promise.reject(this.#journal.failed ?? new Error('FilePersistence: cannot start a background compaction now'));
    }
    const seq = this.#seq;
    const done = this.#enqueue((w) => ({ kind: 'rotate', source, seq, w }));
    // Counted from now, so shouldCompact stays false until it ends.
    const background = (this.#background = done.catch(() => {}).then(() => void (this.#background === background && (this.#background = undefined))));
    return done;
  }

  /** `all` may also be a snapshot source (the store's capture of its state). */
  close(all?: Collections | SnapshotSource): Promise<void> {
    if (this.#closing) return this.#closing;
    if (this.#state === 'opening') {
      // Let the open finish (or fail), then close what it opened.
      return (this.#opening ?? Promise.resolve()).then(
        () => this.close(all),
        () => this.close(all),
      );
    }
    if (this.#state !== 'open') return Promise.resolve();
    this.#state = 'closing';
    const closing = (async () => {
      let error: unknown;
      // Both are queued last (commits are refused from now on), so when they settle the writer is done. A failed
      // journal write was already reported to the commits it concerned; a failed compaction is reported here.
      if (all !== undefined && !this.#journal.failed) {
        const source = isSource(all);
        await (source ? this.compactSource(source) : this.#compact(all as Collections)).catch((e: unknown) => {
          if (!(e instanceof StoreFailedError)) error = e;
        });
      } else {
        if (isSource(all)) isSource(all)!.release();
        await this.sync().catch(() => {});
      }
      await this.#background;
      try {
        await this.#journal.close();
      } catch (e) {
        error ??= e;
      }
      try {
        await releaseLock(this.lockPath, this.#lock);
      } catch (e) {
        error ??= e;
      }
      this.#lock = undefined;
      this.#state = 'closed';
      this.#closing = undefined;
      if (error !== undefined) throw error;
    })();
    this.#closing = closing;
    return closing;
  }

  // ---- the serial writer ----

  #enqueue(make: (w: Waiter) => Entry): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push(make({ resolve, reject }));
      if (!this.#running && !this.#scheduled) {
        // setImmediate, not a microtask: every commit of this poll phase (all the requests that arrived
        // together) joins one write — a quarter less CPU per request under load. Fake timers that fake
        // setImmediate would stall the writer; the tests fake Date only.
        this.#scheduled = true;
        setImmediate(() => {
          this.#scheduled = false;
          void this.#drain();
        });
      }
    });
  }

  /** Runs until the queue is empty. Never throws: every outcome goes to the entries' waiters. */
  async #drain(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        const failed = this.#journal.failed;
        if (failed) {
          for (const e of this.#queue.splice(0)) e.w.reject(failed);
          break;
        }
        const head = this.#queue[0]!;
        if (head.kind === 'compact') {
          this.#queue.shift();
          await this.#runCompaction(head);
          continue;
        }
        if (head.kind === 'rotate') {
          this.#queue.shift();
          await this.#rotate(head);
          continue;
        }
        let n = 0;
        while (n < this.#queue.length && (this.#queue[n]!.kind === 'commit' || this.#queue[n]!.kind === 'sync')) n++;
        await this.#writeBatch(this.#queue.splice(0, n));
      }
    } finally {
      this.#running = false;
    }
  }

  /** One group write: every pending line in one write, one fdatasync, then every waiter of the batch. The lines are
   * numbered here, from the last seq written: a refused write takes no number, so the next one leaves no gap. */
  async #writeBatch(batch: Entry[]): Promise<void> {
    const lines: string[] = [];
    for (const e of batch) if (e.kind === 'commit') lines.push(journalLine(this.#seq + lines.length + 1, e.body));
    if (lines.length > 0) {
      try {
        await this.#journal.append(lines);
      } catch (e) {
        // Nothing of this batch is acknowledged (the journal cut off what reached the file, or is now failed).
        for (const x of batch) x.w.reject(e);
        return;
      }
      this.#seq += lines.length;
      this.#stats.flushes++;
      this.#stats.commits += lines.length;
    }
    for (const x of batch) x.w.resolve();
  }

  async #runCompaction(entry: Extract<Entry, { kind: 'compact' }>): Promise<void> {
    await this.#background; // never rejects
    try {
      await this.#snapshot.write(entry.source, this.#seq);
    } catch (e) {
      entry.w.reject(e); // the journal is untouched: nothing is lost
      return;
    }
    try {
      await this.#journal.truncate();
    } catch (e) {
      // The snapshot covers every record left in the journal; replaying them again is harmless.
      entry.w.reject(e);
      return;
    }
    await this.#dropOld().then(entry.w.resolve, entry.w.reject);
  }

  /** The writer's part of a background compaction: set the journal aside, then let the snapshot be written apart. */
  async #rotate(entry: Extract<Entry, { kind: 'rotate' }>): Promise<void> {
    try {
      if (entry.seq !== this.#seq) throw new Error(`FilePersistence: a background compaction must capture the state at the last seq written (${this.#seq}), not ${entry.seq}`);
      await this.#journal.rotate();
      if (this.fsync) await fsyncDir(path.dirname(this.path));
    } catch (e) {
      entry.source.release();
      return entry.w.reject(e);
    }
    this.#oldLeft = true;
    // Not awaited: commits go on to the new journal meanwhile.
    void (async () => {
      try {
        await this.#snapshot.write(entry.source, entry.seq);
        await this.#dropOld();
        entry.w.resolve();
      } catch (e) {
        entry.w.reject(e); // the old journal stays: open replays it, the next full compaction deletes it
      }
    })();
  }
}
