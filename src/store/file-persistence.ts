// FilePersistence: the durable store on disk. It owns three files next to each other:
//   <path>          snapshot, written atomically through lowdb (temp file + rename), holds `lastSeq`
//   <path>.journal  JSON Lines, one transaction per line, appended by group commit (+ fdatasync)
//   <path>.lock     {pid, startedAt, hostname, nonce}, created with O_EXCL; ownership of the other two
// After open() every journal write and every compaction goes through one serial writer (#drain), so at most one
// write is in flight and the journal is truncated only after the snapshot that supersedes it is on disk.
import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, open as openFile, readFile, stat, unlink, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Low } from 'lowdb';
import { TextFile } from 'lowdb/node';
import type { Change, Collections, Entity, Persistence, PersistenceStats } from './persistence.js';
import { StoreClosedError, StoreCorruptError, StoreFailedError, StoreLockedError } from './errors.js';
import { assertChanges, assertCollections, isEntity } from './persistence.js';

export interface FilePersistenceOptions {
  /** Snapshot path, e.g. `.paygate/sandbox.json`; the journal and the lock live next to it. */
  path: string;
  /** fdatasync after each group write (and the snapshot + its directory before a journal truncation). Default true. */
  fsync?: boolean;
  /** Journal records after which `shouldCompact` turns true; the owner decides when to compact. Default 100_000. */
  compactAfter?: number;
  /** Compact right after open() replayed a non-empty journal. Default true; false leaves the journal as found (minus a torn tail). */
  compactOnOpen?: boolean;
}

export const SNAPSHOT_FORMAT = 'paygate-store';
export const SNAPSHOT_VERSION = 1;

/** A stale lock whose content cannot be parsed is taken over only once it is this old (it may be being written). */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

interface Waiter {
  resolve(): void;
  reject(e: unknown): void;
}
type Entry =
  | { kind: 'commit'; line: string; w: Waiter }
  | { kind: 'sync'; w: Waiter }
  | { kind: 'compact'; text: string; w: Waiter };

type State = 'new' | 'opening' | 'open' | 'closing' | 'closed';

export class FilePersistence implements Persistence {
  /** Absolute snapshot path. */
  readonly path: string;
  readonly journalPath: string;
  readonly lockPath: string;
  readonly fsync: boolean;
  readonly compactAfter: number;
  readonly compactOnOpen: boolean;

  readonly #db: Low<string>;
  #state: State = 'new';
  #opening: Promise<unknown> | undefined;
  #closing: Promise<void> | undefined;
  #lock: LockToken | undefined;
  #fh: FileHandle | undefined;
  /** Last seq handed out. */
  #seq = 0;
  /** Bytes of the journal that hold acknowledged (or replayed) records: where a failed write is cut back to. */
  #journalBytes = 0;
  #queue: Entry[] = [];
  #running = false;
  #scheduled = false;
  #failed: StoreFailedError | undefined;
  #stats: PersistenceStats = { commits: 0, flushes: 0, journalRecords: 0 };

  constructor(opts: FilePersistenceOptions) {
    if (typeof opts?.path !== 'string' || opts.path === '') throw new TypeError('FilePersistence: path is required');
    this.path = path.resolve(opts.path);
    this.journalPath = `${this.path}.journal`;
    this.lockPath = `${this.path}.lock`;
    this.fsync = opts.fsync ?? true;
    this.compactAfter = opts.compactAfter ?? 100_000;
    this.compactOnOpen = opts.compactOnOpen ?? true;
    // The data is the serialized snapshot: it is captured when compact() is called, and written with lowdb's
    // atomic writer (steno: write <dir>/.<name>.tmp, rename over <path>).
    this.#db = new Low<string>(new TextFile(this.path), '');
  }

  get stats(): PersistenceStats {
    return { ...this.#stats };
  }

  /** The journal holds at least `compactAfter` records: the owner should call compact(). */
  get shouldCompact(): boolean {
    return this.#stats.journalRecords >= this.compactAfter;
  }

  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** Last transaction sequence number handed out (continues across restarts). */
  get seq(): number {
    return this.#seq;
  }

  async open(): Promise<Collections> {
    if (this.#state !== 'new' && this.#state !== 'closed') {
      throw new Error(`FilePersistence.open(): ${this.path} is already ${this.#state}`);
    }
    const before = this.#state;
    this.#state = 'opening';
    this.#queue = [];
    this.#failed = undefined;
    this.#stats = { commits: 0, flushes: 0, journalRecords: 0 };
    const opening = (async () => {
      try {
        await mkdir(path.dirname(this.path), { recursive: true });
        this.#lock = await acquireLock(this.lockPath, this.path);
      } catch (e) {
        this.#state = before;
        throw e;
      }
      try {
        const all = await this.#load();
        this.#state = 'open';
        return all;
      } catch (e) {
        await this.#fh?.close().catch(() => {});
        this.#fh = undefined;
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

  /** Read the snapshot, validate and replay the journal (nothing is written until both are known good), then tidy up. */
  async #load(): Promise<Collections> {
    const colls = new Map<string, Map<string, Entity>>();
    let lastSeq = 0;
    const text = await this.#db.adapter.read(); // null when the snapshot does not exist
    if (text !== null) lastSeq = parseSnapshot(text, this.path, colls);

    let buf: Buffer;
    try {
      buf = await readFile(this.journalPath);
    } catch (e) {
      if (errno(e) !== 'ENOENT') throw e;
      buf = Buffer.alloc(0);
    }
    const replay = replayJournal(buf, this.journalPath, lastSeq, colls);
    this.#seq = Math.max(lastSeq, replay.maxSeq);

    // From here on the files are known good; every write below keeps every acknowledged transaction.
    const fh = await openFile(this.journalPath, 'a');
    this.#fh = fh;
    if (replay.goodEnd < buf.length) {
      // A torn final write from a crash (never acknowledged): cut it off so later appends start on a line boundary.
      await fh.truncate(replay.goodEnd);
      if (this.fsync) await fh.datasync();
    }
    this.#journalBytes = replay.goodEnd;
    this.#stats.journalRecords = replay.records;

    const all = toCollections(colls);
    if (this.compactOnOpen && replay.goodEnd > 0) {
      // Records newer than the snapshot: fold them in. Only older ones (a compaction that crashed before its
      // truncation): the snapshot already has them, just empty the journal.
      if (replay.applied > 0) await this.#writeSnapshot(serializeSnapshot(all, this.#seq));
      await this.#truncateJournal();
    }
    return all;
  }

  commit(changes: readonly Change[]): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new StoreClosedError(this.path, 'commit'));
    if (this.#failed) return Promise.reject(this.#failed);
    let body: string;
    try {
      assertChanges(changes);
      if (changes.length === 0) return this.sync();
      body = JSON.stringify(changes.map((ch) => ({ c: ch.c, v: ch.v })));
    } catch (e) {
      return Promise.reject(e);
    }
    const seq = ++this.#seq;
    return this.#enqueue((w) => ({ kind: 'commit', line: `{"seq":${seq},"ch":${body}}\n`, w }));
  }

  sync(): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (!this.#running && this.#queue.length === 0) return Promise.resolve();
    return this.#enqueue((w) => ({ kind: 'sync', w }));
  }

  compact(all: Collections): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(new StoreClosedError(this.path, 'compact'));
    return this.#compact(all);
  }

  #compact(all: Collections): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    let text: string;
    try {
      assertCollections(all);
      // Captured now: it covers every commit issued so far (seq <= lastSeq); later commits wait behind it.
      text = serializeSnapshot(all, this.#seq);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#enqueue((w) => ({ kind: 'compact', text, w }));
  }

  close(all?: Collections): Promise<void> {
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
      if (all !== undefined && !this.#failed) {
        await this.#compact(all).catch((e: unknown) => {
          if (!(e instanceof StoreFailedError)) error = e;
        });
      } else {
        await this.sync().catch(() => {});
      }
      try {
        await this.#fh?.close();
      } catch (e) {
        error ??= e;
      }
      this.#fh = undefined;
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
        if (this.#failed) {
          const failed = this.#failed;
          for (const e of this.#queue.splice(0)) e.w.reject(failed);
          break;
        }
        if (this.#queue[0]!.kind === 'compact') {
          await this.#runCompaction(this.#queue.shift() as Extract<Entry, { kind: 'compact' }>);
          continue;
        }
        let n = 0;
        while (n < this.#queue.length && this.#queue[n]!.kind !== 'compact') n++;
        await this.#writeBatch(this.#queue.splice(0, n));
      }
    } finally {
      this.#running = false;
    }
  }

  /** One group write: every pending line in one write, one fdatasync, then every waiter of the batch. */
  async #writeBatch(batch: Entry[]): Promise<void> {
    const lines: string[] = [];
    for (const e of batch) if (e.kind === 'commit') lines.push(e.line);
    if (lines.length > 0) {
      const fh = this.#fh!;
      const buf = Buffer.from(lines.join(''), 'utf8');
      try {
        // Without fsync the write only has to reach the page cache: a synchronous write of a few KB costs
        // microseconds, far less than a thread-pool round trip that would leave the event loop idle.
        if (this.fsync) await writeAll(fh, buf);
        else writeAllSync(fh.fd, buf);
      } catch (e) {
        // Nothing of this batch is acknowledged; cut off whatever part of it reached the file so the journal
        // stays a sequence of whole lines. If even that fails the file is in an unknown state: stop.
        try {
          await fh.truncate(this.#journalBytes);
        } catch {
          this.#failed = new StoreFailedError(this.journalPath, e);
        }
        for (const x of batch) x.w.reject(e);
        return;
      }
      if (this.fsync) {
        try {
          await fh.datasync();
        } catch (e) {
          // After a failed fdatasync the kernel may have dropped the dirty pages: nothing can be promised any more.
          this.#failed = new StoreFailedError(this.journalPath, e);
          for (const x of batch) x.w.reject(this.#failed);
          return;
        }
      }
      this.#journalBytes += buf.length;
      this.#stats.flushes++;
      this.#stats.commits += lines.length;
      this.#stats.journalRecords += lines.length;
    }
    for (const x of batch) x.w.resolve();
  }

  async #runCompaction(entry: Extract<Entry, { kind: 'compact' }>): Promise<void> {
    try {
      await this.#writeSnapshot(entry.text);
    } catch (e) {
      entry.w.reject(e); // the journal is untouched: nothing is lost
      return;
    }
    try {
      await this.#truncateJournal();
    } catch (e) {
      // The snapshot covers every record left in the journal; replaying them again is harmless.
      entry.w.reject(e);
      return;
    }
    entry.w.resolve();
  }

  /** Atomic replace through lowdb, then (fsync on) make the new file and its directory entry durable. */
  async #writeSnapshot(text: string): Promise<void> {
    this.#db.data = text;
    try {
      await this.#db.write();
    } finally {
      this.#db.data = ''; // do not keep a copy of the whole state alive
    }
    if (this.fsync) {
      const fh = await openFile(this.path, 'r+');
      try {
        await fh.datasync();
      } finally {
        await fh.close();
      }
      await fsyncDir(path.dirname(this.path));
    }
  }

  async #truncateJournal(): Promise<void> {
    const fh = this.#fh!;
    await fh.truncate(0);
    this.#journalBytes = 0;
    this.#stats.journalRecords = 0;
    if (this.fsync) {
      try {
        await fh.datasync();
      } catch (e) {
        this.#failed = new StoreFailedError(this.journalPath, e);
        throw this.#failed;
      }
    }
  }
}

// ---- snapshot and journal parsing (pure) ----

function errno(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  return typeof x === 'object' ? 'an object' : `${typeof x} ${String(x)}`;
}

function upsert(colls: Map<string, Map<string, Entity>>, c: string, v: Entity): void {
  let m = colls.get(c);
  if (!m) colls.set(c, (m = new Map()));
  m.set(v.id, v); // an existing id keeps its place: first-appearance order
}

function toCollections(colls: Map<string, Map<string, Entity>>): Collections {
  const out: Collections = {};
  for (const [name, m] of colls) out[name] = [...m.values()];
  return out;
}

export function serializeSnapshot(all: Collections, lastSeq: number): string {
  return JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, lastSeq, collections: all });
}

/** Validates a snapshot, loads it into `colls`, returns its lastSeq. Throws StoreCorruptError. */
export function parseSnapshot(text: string, file: string, colls: Map<string, Map<string, Entity>>): number {
  const bad = (reason: string, cause?: unknown) => new StoreCorruptError(file, reason, { kind: 'snapshot', cause });
  if (text.trim() === '') throw bad(`the file is empty (${text.length} bytes)`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw bad(`it is not valid JSON (${e instanceof Error ? e.message : String(e)})`, e);
  }
  if (!isRecord(doc)) throw bad(`it holds ${describe(doc)}, expected a {"format":"${SNAPSHOT_FORMAT}",...} object`);
  if (doc.format !== SNAPSHOT_FORMAT) {
    throw bad(`"format" is ${doc.format === undefined ? 'missing' : describe(doc.format)}, expected "${SNAPSHOT_FORMAT}" (is this a paygate store?)`);
  }
  if (doc.version !== SNAPSHOT_VERSION) {
    throw bad(`"version" is ${describe(doc.version)}; this paygate reads version ${SNAPSHOT_VERSION} (was it written by a newer paygate?)`);
  }
  const lastSeq = doc.lastSeq ?? 0;
  if (typeof lastSeq !== 'number' || !Number.isSafeInteger(lastSeq) || lastSeq < 0) {
    throw bad(`"lastSeq" is ${describe(lastSeq)}, expected a non-negative integer`);
  }
  if (!isRecord(doc.collections)) throw bad(`"collections" is ${describe(doc.collections)}, expected an object of arrays`);
  for (const [name, list] of Object.entries(doc.collections)) {
    if (!Array.isArray(list)) throw bad(`collections.${name} is ${describe(list)}, expected an array`);
    for (let i = 0; i < list.length; i++) {
      const v: unknown = list[i];
      if (!isEntity(v)) throw bad(`collections.${name}[${i}] is ${describe(v)} without a string "id"`);
      upsert(colls, name, v);
    }
    if (!colls.has(name)) colls.set(name, new Map());
  }
  return lastSeq;
}

export interface JournalReplay {
  /** Byte offset just past the last good line (where a torn tail is cut). */
  goodEnd: number;
  /** Good records found (including ones the snapshot already covers). */
  records: number;
  /** Records applied (seq > the snapshot's lastSeq). */
  applied: number;
  /** Highest seq seen, 0 if none. */
  maxSeq: number;
}

/**
 * Validates every line and applies records with seq > lastSeq to `colls`, in order. A final line without its
 * newline, or an unparseable final line, is a torn write and is left out (goodEnd stops before it). Any other
 * bad line throws StoreCorruptError with its 1-based line number.
 */
export function replayJournal(buf: Buffer, file: string, lastSeq: number, colls: Map<string, Map<string, Entity>>): JournalReplay {
  let pos = 0;
  let line = 0;
  let prevSeq = 0;
  const out: JournalReplay = { goodEnd: 0, records: 0, applied: 0, maxSeq: 0 };
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    line++;
    if (nl === -1) break; // incomplete final line: torn
    const bad = (reason: string, cause?: unknown) => new StoreCorruptError(file, reason, { kind: 'journal', line, cause });
    let rec: unknown;
    try {
      rec = JSON.parse(buf.toString('utf8', pos, nl));
    } catch (e) {
      if (nl === buf.length - 1) break; // unparseable final line: torn
      throw bad(`the line is not valid JSON (${e instanceof Error ? e.message : String(e)})`, e);
    }
    if (!isRecord(rec)) throw bad(`the line holds ${describe(rec)}, expected {"seq":n,"ch":[...]}`);
    const seq = rec.seq;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) throw bad(`"seq" is ${describe(seq)}, expected a positive integer`);
    if (seq <= prevSeq) throw bad(`"seq" ${seq} does not follow the previous line's ${prevSeq} (two writers?)`);
    const ch = rec.ch;
    if (!Array.isArray(ch)) throw bad(`"ch" is ${describe(ch)}, expected an array of {"c":collection,"v":entity}`);
    for (let i = 0; i < ch.length; i++) {
      const c: unknown = ch[i];
      if (!isRecord(c) || typeof c.c !== 'string' || c.c === '') throw bad(`ch[${i}] has no collection name "c"`);
      if (!isEntity(c.v)) throw bad(`ch[${i}].v is ${describe(c.v)} without a string "id"`);
    }
    if (seq > lastSeq) {
      for (const c of ch as Change[]) upsert(colls, c.c, c.v);
      out.applied++;
    }
    prevSeq = seq;
    out.records++;
    out.maxSeq = seq;
    pos = nl + 1;
    out.goodEnd = pos;
  }
  return out;
}

function writeAllSync(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) {
    const n = writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw new Error(`write returned ${n}`);
    off += n;
  }
}

async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    if (bytesWritten <= 0) throw new Error(`write returned ${bytesWritten}`);
    off += bytesWritten;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  // Makes a rename in `dir` durable. Best effort: not every platform/filesystem can open or fsync a directory.
  try {
    const d = await openFile(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    /* ignore */
  }
}

// ---- the lock ----

interface LockToken {
  pid: number;
  startedAt: string;
  hostname: string;
  nonce: string;
}

/** Locks held by this process: nonce → lock path. Lets us tell "this process, another handle" from "a previous process that had our pid". */
const held = new Map<string, string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Best effort for a process that exits without close(). Signals and SIGKILL do not get here: a lock whose pid
  // is dead is taken over by the next open() anyway.
  process.on('exit', () => {
    for (const [nonce, file] of held) {
      try {
        if (parseLock(readFileSync(file, 'utf8'))?.nonce === nonce) unlinkSync(file);
      } catch {
        /* ignore */
      }
    }
    held.clear();
  });
}

function parseLock(text: string): Partial<LockToken> & { pid: number } | undefined {
  try {
    const t: unknown = JSON.parse(text);
    if (!isRecord(t) || typeof t.pid !== 'number' || !Number.isSafeInteger(t.pid) || t.pid <= 0) return undefined;
    return {
      pid: t.pid,
      ...(typeof t.startedAt === 'string' ? { startedAt: t.startedAt } : {}),
      ...(typeof t.hostname === 'string' ? { hostname: t.hostname } : {}),
      ...(typeof t.nonce === 'string' ? { nonce: t.nonce } : {}),
    };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errno(e) === 'EPERM'; // exists, owned by someone else
  }
}

async function acquireLock(lockPath: string, storePath: string): Promise<LockToken> {
  const token: LockToken = { pid: process.pid, startedAt: new Date().toISOString(), hostname: os.hostname(), nonce: randomUUID() };
  for (let attempt = 0; ; attempt++) {
    let fh: FileHandle;
    try {
      fh = await openFile(lockPath, 'wx');
    } catch (e) {
      if (errno(e) !== 'EEXIST') throw e;
      if (attempt >= 5) throw new StoreLockedError(storePath, lockPath, undefined, { unreadable: true });
      await clearStaleLock(lockPath, storePath); // throws StoreLockedError when the owner is alive
      continue;
    }
    held.set(token.nonce, lockPath);
    installExitHook();
    try {
      await fh.writeFile(`${JSON.stringify(token)}\n`);
      await fh.close();
    } catch (e) {
      held.delete(token.nonce);
      await fh.close().catch(() => {});
      await unlink(lockPath).catch(() => {});
      throw e;
    }
    return token;
  }
}

/** Throws StoreLockedError if the lock's owner is alive; removes the lock if it is stale. */
async function clearStaleLock(lockPath: string, storePath: string): Promise<void> {
  const read = async () => {
    try {
      return await readFile(lockPath, 'utf8');
    } catch (e) {
      if (errno(e) === 'ENOENT') return undefined;
      throw e;
    }
  };
  const text = await read();
  if (text === undefined) return; // released meanwhile
  const owner = parseLock(text);
  if (owner === undefined) {
    // Empty or garbled: an owner between creating and writing it, or a crash right there.
    const st = await stat(lockPath).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs < UNREADABLE_LOCK_GRACE_MS) {
      throw new StoreLockedError(storePath, lockPath, undefined, { unreadable: true });
    }
  } else if (owner.nonce !== undefined && held.get(owner.nonce) === lockPath) {
    throw new StoreLockedError(storePath, lockPath, owner.pid, { sameProcess: true });
  } else if (owner.pid !== process.pid && isAlive(owner.pid)) {
    throw new StoreLockedError(storePath, lockPath, owner.pid, owner);
  }
  // Stale: the owner is dead (or had our pid in an earlier life, e.g. pid 1 of a restarted container).
  // Remove it only if it is still the lock we judged.
  if ((await read()) === text) {
    await unlink(lockPath).catch((e: unknown) => {
      if (errno(e) !== 'ENOENT') throw e;
    });
  }
}

async function releaseLock(lockPath: string, token: LockToken | undefined): Promise<void> {
  if (!token) return;
  held.delete(token.nonce);
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (e) {
    if (errno(e) === 'ENOENT') return;
    throw e;
  }
  if (parseLock(text)?.nonce !== token.nonce) return; // taken over by someone else: not ours to remove
  await unlink(lockPath).catch((e: unknown) => {
    if (errno(e) !== 'ENOENT') throw e;
  });
}
