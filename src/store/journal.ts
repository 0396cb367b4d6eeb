// The journal `<path>.journal` of a FilePersistence: JSON Lines, one transaction {"seq":n,"ch":[{c,v},...]} per
// line. Owns the record format, the group write (every pending line in one write, then one fdatasync), cutting a
// failed write back off so the file stays whole lines, the failure that makes it read-only, truncation after a
// compaction, and reading it back on open: validation, replay in seq order, and cutting a torn final write.
// Seqs on disk go up by one from line to line: a seq is taken only by a write that succeeded (FilePersistence
// numbers a group when it writes it), so a gap means a line was lost, and is reported like any other damage.
import { writeSync } from 'node:fs';
import { open as openFile, readFile, rename, type FileHandle } from 'node:fs/promises';
import type { Change } from './persistence.js';
import { StoreCorruptError, StoreFailedError } from './errors.js';
import { isEntity } from './persistence.js';
import { rememberText } from './packed-map.js';
import { targetOf, type EntityMaps, type LoadTarget } from './snapshot.js';
import { describe, errno, isRecord } from './util.js';
import { writeAll } from './chunk-writer.js';
import { journalChannel, type JournalTrace } from './write-trace.js';

/**
 * The `ch` part of a record: the same text as JSON.stringify of the `{c, v}` list, built from each entity's own text,
 * which is kept for the entity (PackedMap reuses it when the entity cools). Throws (before it is queued) for changes
 * JSON cannot hold, e.g. a BigInt.
 */
export function serializeChanges(changes: readonly Change[]): string {
  let out = '[';
  for (let i = 0; i < changes.length; i++) {
    const ch = changes[i]!;
    const text = JSON.stringify(ch.v);
    rememberText(ch.v, text);
    out += `${i === 0 ? '' : ','}{"c":${collectionText(ch.c)},"v":${text}}`;
  }
  return `${out}]`;
}

const collectionTexts = new Map<string, string>();

/** A collection name as JSON (a handful of names: memoised). */
function collectionText(c: string): string {
  let t = collectionTexts.get(c);
  if (t === undefined) {
    t = JSON.stringify(c);
    if (collectionTexts.size < 64) collectionTexts.set(c, t);
  }
  return t;
}

/** One journal line: the record of transaction `seq` whose changes serialize to `body`. */
export function journalLine(seq: number, body: string): string {
  return `{"seq":${seq},"ch":${body}}\n`;
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
 * Validates every line and applies records with seq > lastSeq to `colls`, in order. Only a final line without its
 * newline is a torn write (a crash mid-write, never acknowledged) and is left out: goodEnd stops before it. Any
 * complete line that is not a valid record, the last one included, throws StoreCorruptError with its 1-based line
 * number; so does a gap: each seq must be the previous line's + 1, and the first one above the snapshot's lastSeq
 * must be lastSeq + 1 (lines at or below it are already in the snapshot: a compaction that crashed before its
 * truncation).
 */
export function replayJournal(
  buf: Buffer,
  file: string,
  lastSeq: number,
  into: EntityMaps | LoadTarget,
  after = 0,
): JournalReplay {
  const target = targetOf(into);
  let pos = 0;
  let line = 0;
  // `after`: the last seq of the journal this one continues (the one a compaction set aside, see JournalFile.rotate).
  let prevSeq = after;
  const out: JournalReplay = { goodEnd: 0, records: 0, applied: 0, maxSeq: 0 };
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    line++;
    if (nl === -1) break; // incomplete final line: torn
    const bad = (reason: string, cause?: unknown) =>
      new StoreCorruptError(file, reason, { kind: 'journal', line, cause });
    let rec: unknown;
    try {
      rec = JSON.parse(buf.toString('utf8', pos, nl));
    } catch (e) {
      throw bad(`the line is not valid JSON (${e instanceof Error ? e.message : String(e)})`, e);
    }
    if (!isRecord(rec)) throw bad(`the line holds ${describe(rec)}, expected {"seq":n,"ch":[...]}`);
    const seq = rec.seq;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1)
      throw bad(`"seq" is ${describe(seq)}, expected a positive integer`);
    if (seq <= prevSeq) throw bad(`"seq" ${seq} does not follow the previous line's ${prevSeq} (two writers?)`);
    if (prevSeq > 0 && seq > prevSeq + 1) throw bad(`"seq" jumps from ${prevSeq} to ${seq}: ${missing(prevSeq, seq)}`);
    if (prevSeq <= lastSeq && seq > lastSeq + 1) {
      const after = lastSeq === 0 ? 'the journal starts at seq 1' : `the snapshot ends at seq ${lastSeq}`;
      throw bad(`"seq" is ${seq} but ${after}: ${missing(lastSeq, seq)}`);
    }
    const ch = rec.ch;
    if (!Array.isArray(ch)) throw bad(`"ch" is ${describe(ch)}, expected an array of {"c":collection,"v":entity}`);
    for (let i = 0; i < ch.length; i++) {
      const c: unknown = ch[i];
      if (!isRecord(c) || typeof c.c !== 'string' || c.c === '') throw bad(`ch[${i}] has no collection name "c"`);
      if (!isEntity(c.v)) throw bad(`ch[${i}].v is ${describe(c.v)} without a string "id"`);
    }
    if (seq > lastSeq) {
      for (const c of ch as Change[]) target.put(c.c, c.v.id, c.v);
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

/** What a gap between seq `from` and seq `to` lacks. */
function missing(from: number, to: number): string {
  return to === from + 2
    ? `the line with seq ${from + 1} is missing`
    : `the lines with seq ${from + 1} to ${to - 1} are missing`;
}

/** The journal file: read and replayed on open, then held open for appending until close. */
export class JournalFile {
  #fh: FileHandle | undefined;
  /** Bytes of the journal that hold acknowledged (or replayed) records: where a failed write is cut back to. */
  #bytes = 0;
  #records = 0;
  /** Size of the file read() found, torn tail included. */
  #readSize = 0;
  /** Set when a write left the file in an unknown state (a failed cut-back or fdatasync): nothing more may be written. */
  failed: StoreFailedError | undefined;

  constructor(
    /** Absolute journal path. */
    readonly path: string,
    readonly fsync: boolean,
  ) {}

  /** Transactions currently in the journal, i.e. replayed or written since the last truncation. */
  get records(): number {
    return this.#records;
  }

  /** Forgets the previous session's failure and record count (before a new open). */
  reset(): void {
    this.failed = undefined;
    this.#records = 0;
  }

  /** The journal a running compaction set aside (see rotate): read before this one on open, deleted once the snapshot is written. */
  get oldPath(): string {
    return `${this.path}.old`;
  }

  /** Reads the set-aside journal (if any) and the journal (none yet: empty) and replays them onto `colls`. Writes nothing. */
  async read(
    lastSeq: number,
    colls: EntityMaps | LoadTarget,
  ): Promise<JournalReplay & { old: JournalReplay | undefined }> {
    const oldBuf = await readIfAny(this.oldPath);
    const old = oldBuf === undefined ? undefined : replayJournal(oldBuf, this.oldPath, lastSeq, colls);
    const buf = (await readIfAny(this.path)) ?? Buffer.alloc(0);
    this.#readSize = buf.length;
    const replay = replayJournal(buf, this.path, lastSeq, colls, old?.maxSeq ?? 0);
    return {
      ...replay,
      maxSeq: Math.max(replay.maxSeq, old?.maxSeq ?? 0),
      applied: replay.applied + (old?.applied ?? 0),
      old,
    };
  }

  /**
   * Sets the journal aside as `<journal>.old` and starts an empty one: a compaction running in the background
   * covers the old one's records, the new one takes the records written meanwhile. Open reads both, in order.
   */
  async rotate(): Promise<void> {
    // The open handle follows the renamed file; nothing is changed until the new journal exists.
    await rename(this.path, this.oldPath);
    let fh: FileHandle;
    try {
      fh = await openFile(this.path, 'a', 0o600);
    } catch (e) {
      await rename(this.oldPath, this.path);
      throw e;
    }
    const old = this.#fh!;
    this.#fh = fh;
    this.#bytes = 0;
    this.#records = 0;
    await old.close().catch(() => {});
  }

  /** Opens the journal read by read() for appending, cutting off a torn tail first. */
  async openForAppend(replay: JournalReplay): Promise<void> {
    const fh = await openFile(this.path, 'a', 0o600);
    await fh.chmod(0o600); // an existing journal made before this rule, too
    this.#fh = fh;
    if (replay.goodEnd < this.#readSize) {
      // A torn final write from a crash (never acknowledged): cut it off so later appends start on a line boundary.
      await fh.truncate(replay.goodEnd);
      if (this.fsync) await fh.datasync();
    }
    this.#bytes = replay.goodEnd;
    this.#records = replay.records;
  }

  /**
   * One group write: every line in one write, then (fsync on) one fdatasync. A failed write throws its error after
   * cutting off whatever part of it reached the file, so the journal stays a sequence of whole lines; if even that
   * fails the file is in an unknown state and `failed` is set. A failed fdatasync sets `failed` and throws it.
   */
  async append(lines: readonly string[]): Promise<void> {
    const fh = this.#fh!;
    const text = lines.join('');
    const traced = journalChannel.hasSubscribers;
    const t0 = traced ? performance.now() : 0;
    let bytes: number;
    try {
      // Without fsync the write only has to reach the page cache: a synchronous write of a few KB costs
      // microseconds, far less than a thread-pool round trip that would leave the event loop idle. The text goes
      // to writeSync as it is (no Buffer made for it: a third less CPU per group write).
      if (this.fsync) {
        const buf = Buffer.from(text, 'utf8');
        await writeAll(fh, buf);
        bytes = buf.length;
      } else {
        bytes = writeTextSync(fh.fd, text);
      }
    } catch (e) {
      // Nothing of this write is acknowledged.
      try {
        await fh.truncate(this.#bytes);
      } catch {
        this.failed = new StoreFailedError(this.path, e);
      }
      throw e;
    }
    const t1 = traced ? performance.now() : 0;
    await this.#datasync(fh);
    if (traced)
      journalChannel.publish({
        bytes,
        write_ms: t1 - t0,
        sync_ms: performance.now() - t1,
        fsync: this.fsync,
      } satisfies JournalTrace);
    this.#bytes += bytes;
    this.#records += lines.length;
  }

  /** fdatasync when fsync is on. A failure sets `failed` and throws it: after a failed fdatasync the kernel may have
   * dropped the dirty pages, so nothing can be promised any more. */
  async #datasync(fh: FileHandle): Promise<void> {
    if (!this.fsync) return;
    try {
      await fh.datasync();
    } catch (e) {
      this.failed = new StoreFailedError(this.path, e);
      throw this.failed;
    }
  }

  /** Empties the journal (its records are in a snapshot now). A failed fdatasync sets `failed` and throws it. */
  async truncate(): Promise<void> {
    const fh = this.#fh!;
    await fh.truncate(0);
    this.#bytes = 0;
    this.#records = 0;
    await this.#datasync(fh);
  }

  async close(): Promise<void> {
    try {
      await this.#fh?.close();
    } finally {
      this.#fh = undefined;
    }
  }
}

async function readIfAny(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (e) {
    if (errno(e) !== 'ENOENT') throw e;
    return undefined;
  }
}

/** Writes `text` as UTF-8; returns its length in bytes. A short write (rare for a file) writes the rest from a Buffer. */
function writeTextSync(fd: number, text: string): number {
  const n = writeSync(fd, text);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (n < bytes) {
    if (n <= 0) throw new Error(`write returned ${n}`);
    writeAllSync(fd, Buffer.from(text, 'utf8').subarray(n));
  }
  return bytes;
}

function writeAllSync(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) {
    const n = writeSync(fd, buf, off, buf.length - off);
    if (n <= 0) throw new Error(`write returned ${n}`);
    off += n;
  }
}
