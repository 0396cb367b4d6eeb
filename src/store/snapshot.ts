// The snapshot `<path>` of a FilePersistence, replaced atomically (temp file + rename) and, with fsync on, made
// durable with its directory entry. Versions 2 and 3 (written since issue 17) are JSON Lines, so that neither
// writing nor reading ever holds the whole state as one string (V8 caps a string at 512 MiB, about 300,000
// operations) and a compaction can write it in slices while the sandbox serves:
//   {"format":"paygate-store","version":3,"lastSeq":n}
//   "<collection>"\t"<id>"\t<entity JSON>          one line per entity, in insertion order
//   "operations"\t"<id>"\t<view JSON>\t<entity JSON>   version 3: an operation with its load view (state-load.ts)
//   {"end":<number of entity lines>}               absent: the file was cut short
// JSON text never holds a raw tab, so the tabs split a line. Version 2 is version 3 without views; version 1, one
// JSON document {format, version, lastSeq, collections}, is still read (the next compaction rewrites either as
// version 3). Owns the format and reading/validating it: entities are loaded as their JSON text, unparsed, or as
// handles to it in the file (ColdTexts), into a LoadTarget (src/store/load-target.ts, re-exported here).
import { openSync } from 'node:fs';
import { chmod, open as openFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Collections } from './persistence.js';
import { errno } from './util.js';
import { StoreCorruptError } from './errors.js';
import { parseDocument } from './snapshot-document.js';
import { ChunkWriter } from './chunk-writer.js';
import { describe, isRecord } from './util.js';
import { collectionsSource, targetOf, type EntityMaps, type LoadTarget, type SnapshotSource } from './load-target.js';

export {
  collectionsSource,
  isSource,
  mapsSource,
  mapsTarget,
  targetOf,
  toCollections,
  upsert,
  type EntityMaps,
  type LoadTarget,
  type SnapshotSource,
} from './load-target.js';

export const SNAPSHOT_FORMAT = 'paygate-store';
export const SNAPSHOT_VERSION = 3;
/** JSON Lines without operation views, still read. */
export const SNAPSHOT_VERSION_LINES = 2;
/** The one-document format of the first versions, still read. */
export const SNAPSHOT_VERSION_DOCUMENT = 1;

/** A whole snapshot as one string (small states: tests and tools). */
export function serializeSnapshot(all: Collections, lastSeq: number): string {
  let n = 0;
  let out = headerLine(lastSeq);
  for (const [c, id, json] of collectionsSource(all).entries()) {
    out += entityLine(c, id, json);
    n++;
  }
  return out + endLine(n);
}

const headerLine = (lastSeq: number) =>
  `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"version":${SNAPSHOT_VERSION},"lastSeq":${lastSeq}}\n`;
const entityLine = (c: string, id: string, json: string, view?: string) =>
  `${JSON.stringify(c)}\t${JSON.stringify(id)}\t${view === undefined ? '' : `${view}\t`}${json}\n`;
const endLine = (n: number) => `{"end":${n}}\n`;

/** Validates a version 1 snapshot (one document), loads it into `colls`, returns its lastSeq. Throws StoreCorruptError. */
export function parseSnapshot(text: string, file: string, into: EntityMaps | LoadTarget): number {
  const target = targetOf(into);
  if (V2_HEADER.test(text)) {
    const lines = new SnapshotLines(file, { put: target.put });
    const buf = Buffer.from(text, 'utf8');
    let pos = 0;
    for (let at = buf.indexOf(0x0a); at !== -1; pos = at + 1, at = buf.indexOf(0x0a, pos)) lines.line(buf, pos, at);
    return lines.finish(pos < buf.length);
  }
  return parseDocument(text, file, target);
}

/** Reads a version 2 snapshot line by line into a target, entities as their JSON text or (cold) a handle to it. */
class SnapshotLines {
  #n = 0;
  #entities = 0;
  #lastSeq = -1;
  #end = -1;
  /** The last collection name seen, raw and parsed: lines come grouped by collection. */
  #rawC = '';
  #c = '';

  #cold = false;
  #read = false;
  #version = 0;

  constructor(
    readonly file: string,
    readonly target: LoadTarget,
    /** The snapshot file's number in target.cold.texts, when its texts may stay there. */
    readonly coldFile = -1,
  ) {}

  #bad(reason: string, cause?: unknown): StoreCorruptError {
    return new StoreCorruptError(this.file, `line ${this.#n}: ${reason}`, { kind: 'snapshot', cause });
  }

  /** One line: buf[start, end) without its newline; buf[0] is at byte `base` of the file. */
  line(buf: Buffer, start: number, end: number, base = 0): void {
    this.#n++;
    if (this.#end >= 0) throw this.#bad('there is text after the end line');
    if (this.#n === 1) return this.#header(buf.toString('utf8', start, end));
    if (buf[start] === 0x7b /* { */) return this.#trailer(buf.toString('utf8', start, end));
    const t1 = buf.indexOf(0x09, start);
    const t2 = t1 === -1 || t1 >= end ? -1 : buf.indexOf(0x09, t1 + 1);
    if (t2 === -1 || t2 >= end || buf[start] !== 0x22 || buf[t2 + 1] !== 0x7b || buf[end - 1] !== 0x7d) {
      throw this.#bad(
        `expected "<collection>"<tab>"<id>"<tab>{…} or {"end":n}, found ${describe(buf.toString('utf8', start, Math.min(end, start + 60)))}`,
      );
    }
    // Lines come grouped by collection: the name is decoded when it changes (compared as bytes, nothing allocated).
    if (!sameBytes(buf, start, t1, this.#rawC)) {
      const rawC = buf.toString('latin1', start, t1);
      this.#c = this.#string(rawC, 'collection name');
      this.#rawC = rawC;
      const cold = this.target.cold;
      this.#cold = this.coldFile >= 0 && cold !== undefined && cold.collections.has(this.#c);
      this.#read = !this.#cold || cold!.read.has(this.#c);
    }
    const id = this.#id(buf, t1 + 1, t2);
    // Version 3: an operation's view, then its text.
    const t3 = this.#version === SNAPSHOT_VERSION ? buf.indexOf(0x09, t2 + 1) : -1;
    const at = t3 === -1 || t3 >= end ? t2 + 1 : t3 + 1;
    const view = at === t2 + 1 ? undefined : buf.toString('utf8', t2 + 1, t3);
    const text = this.#read && view === undefined ? buf.toString('utf8', at, end) : undefined;
    try {
      if (this.#cold)
        this.target.put(
          this.#c,
          id,
          this.target.cold!.texts.add(this.coldFile, base + at, end - at, view === undefined ? 0 : t3 - t2 - 1),
          text,
          view,
          true,
        );
      else this.target.put(this.#c, id, text ?? buf.toString('utf8', at, end), undefined, view, true);
    } catch (e) {
      throw this.#bad(`${this.#c} ${id} cannot be loaded (${e instanceof Error ? e.message : String(e)})`, e);
    }
    this.#entities++;
  }

  /** A quoted id: taken as it is when it holds no escape (every id paygate makes), else parsed. */
  #id(buf: Buffer, start: number, end: number): string {
    if (end - start > 2 && buf[start] === 0x22 && buf[end - 1] === 0x22 && isPlain(buf, start + 1, end - 1)) {
      return buf.toString('latin1', start + 1, end - 1);
    }
    return this.#string(buf.toString('utf8', start, end), 'id');
  }

  #string(json: string, what: string): string {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch (e) {
      throw this.#bad(`the ${what} is not a JSON string`, e);
    }
    if (typeof v !== 'string' || v === '')
      throw this.#bad(`the ${what} is ${describe(v)}, expected a non-empty string`);
    return v;
  }

  #header(text: string): void {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw this.#bad(`the first line is not valid JSON (${e instanceof Error ? e.message : String(e)})`, e);
    }
    if (!isRecord(doc) || doc.format !== SNAPSHOT_FORMAT)
      throw this.#bad(`the first line is not a {"format":"${SNAPSHOT_FORMAT}",...} header (is this a paygate store?)`);
    if (doc.version !== SNAPSHOT_VERSION && doc.version !== SNAPSHOT_VERSION_LINES)
      throw this.#bad(
        `"version" is ${describe(doc.version)}; this paygate reads versions ${SNAPSHOT_VERSION_DOCUMENT} to ${SNAPSHOT_VERSION} (was it written by a newer paygate?)`,
      );
    this.#version = doc.version;
    const lastSeq = doc.lastSeq;
    if (typeof lastSeq !== 'number' || !Number.isSafeInteger(lastSeq) || lastSeq < 0)
      throw this.#bad(`"lastSeq" is ${describe(lastSeq)}, expected a non-negative integer`);
    this.#lastSeq = lastSeq;
  }

  #trailer(text: string): void {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw this.#bad('the line is not valid JSON', e);
    }
    if (!isRecord(doc) || doc.end !== this.#entities)
      throw this.#bad(
        `the end line says ${describe(isRecord(doc) ? doc.end : doc)} entities, ${this.#entities} were read`,
      );
    this.#end = this.#entities;
  }

  /** The snapshot's lastSeq, once every line was read; `torn`: text after the last newline. */
  finish(torn: boolean): number {
    if (torn || this.#end < 0) {
      throw new StoreCorruptError(
        this.file,
        `it is cut short after ${this.#n} lines (no end line: an interrupted copy?)`,
        { kind: 'snapshot' },
      );
    }
    return this.#lastSeq;
  }
}

/** Whether buf[start, end) holds the latin1 string `s`. */
function sameBytes(buf: Buffer, start: number, end: number, s: string): boolean {
  if (end - start !== s.length) return false;
  for (let i = 0; i < s.length; i++) if (buf[start + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** Printable ASCII without a quote or backslash: the bytes are the string. */
function isPlain(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b < 0x20 || b > 0x7e || b === 0x22 || b === 0x5c) return false;
  }
  return true;
}

/** How a version 2 or 3 snapshot begins (a version 1 document is never written so: it has no newline). */
const V2_HEADER = /^\{"format":"paygate-store","version":[23],"lastSeq":\d+\}\n/;
const READ_CHUNK = 8 << 20;
/** Work done between two yields to the event loop while a snapshot is written: a request waits at most about this long. */
const SLICE_MS = 8;
/** Bytes gathered before they are handed to the file. */
const WRITE_CHUNK = 1 << 20;

/** The snapshot file: read and validated on open, atomically replaced by a compaction. */
export class SnapshotFile {
  constructor(
    /** Absolute snapshot path. */
    readonly path: string,
    readonly fsync: boolean,
  ) {}

  /**
   * Loads the snapshot into `into` and returns its lastSeq; 0 (and nothing loaded) when there is no snapshot. With a
   * cold target, the file stays open (registered with the target's ColdTexts) for the texts left in it.
   */
  async load(into: EntityMaps | LoadTarget): Promise<number> {
    const target = targetOf(into);
    let fh;
    try {
      fh = await openFile(this.path, 'r');
    } catch (e) {
      if (errno(e) === 'ENOENT') return 0;
      throw e;
    }
    try {
      const first = Buffer.allocUnsafe(64);
      const { bytesRead } = await fh.read(first, 0, 64, 0);
      if (!V2_HEADER.test(first.toString('utf8', 0, bytesRead))) {
        // Version 1 (or not a store at all): one document.
        return parseSnapshot(await fh.readFile('utf8'), this.path, target);
      }
      const coldFile = target.cold ? target.cold.texts.addFile(openSync(this.path, 'r'), this.path) : -1;
      const lines = new SnapshotLines(this.path, target, coldFile);
      let buf = Buffer.allocUnsafe(READ_CHUNK);
      let filled = 0;
      let base = 0;
      for (;;) {
        if (filled === buf.length) {
          // A line longer than the buffer: grow it.
          const bigger = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(bigger, 0, 0, filled);
          buf = bigger;
        }
        const { bytesRead: n } = await fh.read(buf, filled, buf.length - filled, null);
        if (n === 0) break;
        filled += n;
        let start = 0;
        for (let at = buf.indexOf(0x0a, start); at !== -1 && at < filled; at = buf.indexOf(0x0a, start)) {
          lines.line(buf, start, at, base);
          start = at + 1;
        }
        buf.copy(buf, 0, start, filled);
        filled -= start;
        base += start;
      }
      return lines.finish(filled > 0);
    } finally {
      await fh.close();
    }
  }

  /**
   * Writes the source as a version 3 snapshot to a temp file beside it, in slices that give the event loop back
   * every SLICE_MS (the state is read through the source's capture, so it may change meanwhile), then (fsync on)
   * fdatasyncs it, renames it over the snapshot and fsyncs the directory, and tells the source (`written`). On
   * failure the old snapshot is untouched.
   */
  async write(source: SnapshotSource, lastSeq: number): Promise<void> {
    const tmp = path.join(path.dirname(this.path), `.${path.basename(this.path)}.tmp`);
    const fh = await openFile(tmp, 'w', 0o600);
    let released = false;
    const release = () => {
      if (!released) source.release();
      released = true;
    };
    try {
      await fh.chmod(0o600);
      const out = new ChunkWriter(fh, WRITE_CHUNK);
      let n = 0;
      let since = performance.now();
      await out.add(headerLine(lastSeq));
      for (const [c, id, json, view] of source.entries()) {
        const line = entityLine(c, id, json, view);
        const at = await out.add(line);
        n++;
        if (source.placed) {
          const bytes = Buffer.byteLength(json);
          source.placed(at + out.lastLength - 1 - bytes, bytes, view === undefined ? 0 : Buffer.byteLength(view));
        }
        if ((n & 255) === 0 && performance.now() - since >= SLICE_MS) {
          await out.flush();
          since = performance.now();
        }
      }
      await out.add(endLine(n));
      await out.flush();
      if (this.fsync) await fh.datasync();
    } catch (e) {
      release();
      await fh.close().catch(() => {});
      await rm(tmp, { force: true }).catch(() => {});
      throw e;
    }
    try {
      await fh.close();
      await rename(tmp, this.path);
      // It holds webhook secrets and key hashes: owner-only, whatever the umask.
      await chmod(this.path, 0o600);
      if (this.fsync) await fsyncDir(path.dirname(this.path));
      await source.written?.(this.path);
    } finally {
      release();
    }
  }
}

export async function fsyncDir(dir: string): Promise<void> {
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
