// FilePersistence: the durable store on disk. It owns three files next to each other:
//   <path>          snapshot, JSON Lines, written atomically (temp file + rename), holds `lastSeq`     (snapshot.ts)
//   <path>.journal  JSON Lines, one transaction per line, appended by group commit (+ fdatasync)     (journal.ts)
//   <path>.journal.old  the journal a background compaction set aside, until its snapshot is written   (journal.ts)
//   <path>.lock     {pid, startedAt, hostname, nonce}, created with O_EXCL; ownership of the other two (lock.ts)
// This module composes them: load (lock, load, replay, tidy up), append a group, write a snapshot, close. The caller's
// group writer (the Store's, or the base's for commit(): persistence-base.ts) sends one write or one snapshot at a
// time, so the journal is truncated only after the snapshot that supersedes it is on disk. A background snapshot
// (beginSnapshot) only sets the journal aside; its snapshot is written while groups go on being appended to a new
// journal, and the old one is deleted once the snapshot is on disk.
// Sequence numbers are given when a group is written, not when a commit is queued: a failed write takes none, so
// the lines on disk are numbered without a gap (the journal reports a gap as a lost line), and a compaction records
// the last seq actually written when it runs, so the next line always follows the snapshot.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Change, Collections, Loaded, PersistenceStats } from './persistence.js';
import { StoreClosedError, StoreFailedError } from './errors.js';
import { JournalFile, journalLine, serializeChanges } from './journal.js';
import { acquireLock, releaseLock, type LockToken } from './lock.js';
import { assertCollections } from './persistence.js';
import { PersistenceBase } from './persistence-base.js';
import {
  SnapshotFile,
  collectionsSource,
  fsyncDir,
  isSource,
  type EntityMaps,
  type LoadTarget,
  type SnapshotSource,
} from './snapshot.js';

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

type State = 'new' | 'opening' | 'open' | 'closing' | 'closed';

export class FilePersistence extends PersistenceBase {
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
  #stats: Omit<PersistenceStats, 'journalRecords'> = { commits: 0, flushes: 0 };
  /** The snapshot a background compaction is writing. */
  #background: Promise<void> | undefined;
  /** A journal set aside by a background compaction that failed: only a full compaction (close) clears it. */
  #oldLeft = false;

  constructor(opts: FilePersistenceOptions) {
    super();
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
  get compacting(): boolean {
    return this.#background !== undefined;
  }

  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** Sequence number of the last transaction written (continues across restarts; a failed write takes none). */
  get seq(): number {
    return this.#seq;
  }

  /** Lock, then load into a target (the store's state); `capture` gives what a compaction on load writes. */
  async load(target: LoadTarget & { capture(): SnapshotSource }): Promise<Loaded> {
    if (this.#state !== 'new' && this.#state !== 'closed') {
      throw new Error(`FilePersistence.open(): ${this.path} is already ${this.#state}`);
    }
    const before = this.#state;
    this.#state = 'opening';
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
      await opening;
    } finally {
      this.#opening = undefined;
    }
    // A journal left by the last run that the load did not fold in goes into a snapshot in the background.
    return { compact: this.#journal.records > 0 };
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
    if (
      this.compactOnOpen === true
        ? replay.goodEnd > 0 || replay.old !== undefined
        : this.compactOnOpen && replay.old !== undefined
    ) {
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

  protected encode(changes: readonly Change[]): string {
    return serializeChanges(changes);
  }

  protected refusal(op: 'commit' | 'compact' | 'sync'): unknown {
    if (op === 'sync') return this.#journal.failed;
    const open = this.#state === 'open' || (op === 'compact' && this.#state === 'closing');
    return open ? this.#journal.failed : new StoreClosedError(this.path, op);
  }

  /** One group write: every line in one write, one fdatasync. The lines are numbered here, from the last seq
   * written: a refused write takes no number, so the next one leaves no gap. */
  protected async append(bodies: readonly string[]): Promise<void> {
    const failed = this.#journal.failed;
    if (failed) throw failed;
    if (bodies.length === 0) throw new Error('FilePersistence: a group is never empty');
    const lines = bodies.map((body, i) => journalLine(this.#seq + i + 1, body));
    await this.#journal.append(lines); // on failure nothing of it is acknowledged (cut off, or the journal is failed)
    this.#seq += lines.length;
    this.#stats.flushes++;
    this.#stats.commits += lines.length;
  }

  /** Write a snapshot of `source` at the last seq written, then empty the journal. */
  async writeSnapshot(source: SnapshotSource): Promise<void> {
    const refused = this.refusal('compact');
    if (refused) {
      source.release();
      throw refused;
    }
    await this.#background; // never rejects
    await this.#snapshot.write(source, this.#seq); // on failure the journal is untouched: nothing is lost
    // The snapshot covers every record left in the journal; if the truncation fails, replaying them is harmless.
    await this.#journal.truncate();
    await this.#dropOld();
  }

  /**
   * Write a snapshot of `source` without holding up group writes: `source` must be the state as of the last seq
   * written now (nothing in flight). The journal is set aside; groups go on to a new journal while the snapshot is
   * written in slices; `written` settles once it is on disk and the old journal deleted.
   */
  async beginSnapshot(source: SnapshotSource): Promise<{ written: Promise<void> }> {
    if (this.#state !== 'open' || this.#journal.failed || this.#background || this.#oldLeft) {
      source.release();
      throw this.#journal.failed ?? new Error('FilePersistence: cannot start a background compaction now');
    }
    const seq = this.#seq;
    const rotated = (async () => {
      await this.#journal.rotate();
      if (this.fsync) await fsyncDir(path.dirname(this.path));
      this.#oldLeft = true;
    })();
    const written = rotated.then(async () => {
      await this.#snapshot.write(source, seq);
      await this.#dropOld(); // on failure the old journal stays: open replays it, the next full compaction deletes it
    });
    // Set now (the caller's group writer waits for the rotation before its next group), so shouldCompact stays false.
    const background = (this.#background = written
      .catch(() => {})
      .then(() => void (this.#background === background && (this.#background = undefined))));
    try {
      await rotated;
    } catch (e) {
      source.release();
      throw e;
    }
    return { written };
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
      // Commits are refused from now on; the ones made before settle first. A failed journal write was already
      // reported to the commits it concerned; a failed compaction is reported here.
      await this.settled();
      if (all !== undefined && !this.#journal.failed) {
        const source = isSource(all);
        const written = source
          ? this.writeSnapshot(source)
          : Promise.resolve().then(() => this.writeSnapshot(this.#sourceOf(all as Collections)));
        await written.catch((e: unknown) => {
          if (!(e instanceof StoreFailedError)) error = e;
        });
      } else if (isSource(all)) {
        isSource(all)!.release();
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

  #sourceOf(all: Collections): SnapshotSource {
    assertCollections(all);
    return collectionsSource(all);
  }
}
