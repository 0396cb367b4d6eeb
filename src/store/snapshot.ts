// The snapshot `<path>` of a FilePersistence, replaced atomically (temp file + rename) and, with fsync on, made
// durable with its directory entry. Version 2 (written since issue 17) is JSON Lines, so that neither writing nor
// reading ever holds the whole state as one string (V8 caps a string at 512 MiB, about 300,000 operations) and a
// compaction can write it in slices while the sandbox serves:
//   {"format":"paygate-store","version":2,"lastSeq":n}
//   "<collection>"\t"<id>"\t<entity JSON>          one line per entity, in insertion order
//   {"end":<number of entity lines>}               absent: the file was cut short
// Version 1, one JSON document {format, version, lastSeq, collections}, is still read (the next compaction
// rewrites it as version 2). Owns the format, reading/validating it, and the maps that loading builds (shared with
// the journal's replay): version 2 entities are kept as their JSON text there, unparsed.
import { chmod, open as openFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Collections, Entity } from './persistence.js';
import { errno } from './util.js';
import { StoreCorruptError } from './errors.js';
import { isEntity } from './persistence.js';
import { describe, isRecord } from './util.js';

export const SNAPSHOT_FORMAT = 'paygate-store';
export const SNAPSHOT_VERSION = 2;
/** The one-document format of the first versions, still read. */
export const SNAPSHOT_VERSION_DOCUMENT = 1;

/** Collections being loaded: name → id → entity (or its JSON text, unparsed), in first-appearance order. */
export type EntityMaps = Map<string, Map<string, Entity | string>>;

/** A state to write as a snapshot, read lazily: [collection, id, entity JSON] in order; `release` when written. */
export interface SnapshotSource {
  entries(): Iterable<[string, string, string]>;
  release(): void;
}

/** A snapshot source over plain collections (already a copy: compact(all) copies when called). */
export function collectionsSource(all: Collections): SnapshotSource {
  const lines: [string, string, string][] = [];
  for (const [c, list] of Object.entries(all)) for (const v of list) lines.push([c, v.id, JSON.stringify(v)]);
  return { entries: () => lines, release: () => {} };
}

export function isSource(x: Collections | SnapshotSource | undefined): SnapshotSource | undefined {
  return x !== undefined && typeof (x as SnapshotSource).entries === 'function' && typeof (x as SnapshotSource).release === 'function' ? (x as SnapshotSource) : undefined;
}

/** The state just loaded, as a snapshot source. */
export function mapsSource(colls: EntityMaps): SnapshotSource {
  function* entries(): Generator<[string, string, string]> {
    for (const [c, m] of colls) for (const [id, v] of m) yield [c, id, typeof v === 'string' ? v : JSON.stringify(v)];
  }
  return { entries, release: () => {} };
}

export function upsert(colls: EntityMaps, c: string, v: Entity | string, id = (v as Entity).id): void {
  let m = colls.get(c);
  if (!m) colls.set(c, (m = new Map()));
  m.set(id, v); // an existing id keeps its place: first-appearance order
}

export function toCollections(colls: EntityMaps): Collections {
  const out: Collections = {};
  for (const [name, m] of colls) out[name] = [...m.values()].map((v) => (typeof v === 'string' ? (JSON.parse(v) as Entity) : v));
  return out;
}

/** A whole version 2 snapshot as one string (small states: tests and tools). */
export function serializeSnapshot(all: Collections, lastSeq: number): string {
  let n = 0;
  let out = headerLine(lastSeq);
  for (const [c, id, json] of collectionsSource(all).entries()) {
    out += entityLine(c, id, json);
    n++;
  }
  return out + endLine(n);
}

const headerLine = (lastSeq: number) => `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"version":${SNAPSHOT_VERSION},"lastSeq":${lastSeq}}\n`;
const entityLine = (c: string, id: string, json: string) => `${JSON.stringify(c)}\t${JSON.stringify(id)}\t${json}\n`;
const endLine = (n: number) => `{"end":${n}}\n`;

/** Validates a version 1 snapshot (one document), loads it into `colls`, returns its lastSeq. Throws StoreCorruptError. */
export function parseSnapshot(text: string, file: string, colls: EntityMaps): number {
  if (V2_HEADER.test(text)) {
    const lines = new SnapshotLines(file, colls);
    const buf = Buffer.from(text, 'utf8');
    let pos = 0;
    for (let at = buf.indexOf(0x0a); at !== -1; pos = at + 1, at = buf.indexOf(0x0a, pos)) lines.line(buf, pos, at);
    return lines.finish(pos < buf.length);
  }
  return parseDocument(text, file, colls);
}

function parseDocument(text: string, file: string, colls: EntityMaps): number {
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
  if (doc.version === SNAPSHOT_VERSION && !('collections' in doc)) throw bad('it is a version 2 snapshot (JSON Lines) read as one document');
  if (doc.version !== SNAPSHOT_VERSION_DOCUMENT) {
    throw bad(`"version" is ${describe(doc.version)}; this paygate reads versions ${SNAPSHOT_VERSION_DOCUMENT} and ${SNAPSHOT_VERSION} (was it written by a newer paygate?)`);
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

/** Reads a version 2 snapshot line by line into `colls`, entities kept as their JSON text. */
class SnapshotLines {
  #n = 0;
  #entities = 0;
  #lastSeq = -1;
  #end = -1;
  /** The last collection name seen, raw and parsed: lines come grouped by collection. */
  #rawC = '';
  #c = '';

  constructor(
    readonly file: string,
    readonly colls: EntityMaps,
  ) {}

  #bad(reason: string, cause?: unknown): StoreCorruptError {
    return new StoreCorruptError(this.file, `line ${this.#n}: ${reason}`, { kind: 'snapshot', cause });
  }

  /** One line: buf[start, end) without its newline. */
  line(buf: Buffer, start: number, end: number): void {
    this.#n++;
    if (this.#end >= 0) throw this.#bad('there is text after the end line');
    if (this.#n === 1) return this.#header(buf.toString('utf8', start, end));
    if (buf[start] === 0x7b /* { */) return this.#trailer(buf.toString('utf8', start, end));
    const t1 = buf.indexOf(0x09, start);
    const t2 = t1 === -1 || t1 >= end ? -1 : buf.indexOf(0x09, t1 + 1);
    if (t2 === -1 || t2 >= end || buf[start] !== 0x22 || buf[t2 + 1] !== 0x7b || buf[end - 1] !== 0x7d) {
      throw this.#bad(`expected "<collection>"<tab>"<id>"<tab>{…} or {"end":n}, found ${describe(buf.toString('utf8', start, Math.min(end, start + 60)))}`);
    }
    const rawC = buf.toString('latin1', start, t1);
    if (rawC !== this.#rawC) {
      this.#c = this.#string(rawC, 'collection name');
      this.#rawC = rawC;
      if (!this.colls.has(this.#c)) this.colls.set(this.#c, new Map());
    }
    const id = this.#string(buf.toString('utf8', t1 + 1, t2), 'id');
    upsert(this.colls, this.#c, buf.toString('utf8', t2 + 1, end), id);
    this.#entities++;
  }

  #string(json: string, what: string): string {
    let v: unknown;
    try {
      v = JSON.parse(json);
    } catch (e) {
      throw this.#bad(`the ${what} is not a JSON string`, e);
    }
    if (typeof v !== 'string' || v === '') throw this.#bad(`the ${what} is ${describe(v)}, expected a non-empty string`);
    return v;
  }

  #header(text: string): void {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw this.#bad(`the first line is not valid JSON (${e instanceof Error ? e.message : String(e)})`, e);
    }
    if (!isRecord(doc) || doc.format !== SNAPSHOT_FORMAT) throw this.#bad(`the first line is not a {"format":"${SNAPSHOT_FORMAT}",...} header (is this a paygate store?)`);
    if (doc.version !== SNAPSHOT_VERSION) throw this.#bad(`"version" is ${describe(doc.version)}; this paygate reads versions ${SNAPSHOT_VERSION_DOCUMENT} and ${SNAPSHOT_VERSION} (was it written by a newer paygate?)`);
    const lastSeq = doc.lastSeq;
    if (typeof lastSeq !== 'number' || !Number.isSafeInteger(lastSeq) || lastSeq < 0) throw this.#bad(`"lastSeq" is ${describe(lastSeq)}, expected a non-negative integer`);
    this.#lastSeq = lastSeq;
  }

  #trailer(text: string): void {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw this.#bad('the line is not valid JSON', e);
    }
    if (!isRecord(doc) || doc.end !== this.#entities) throw this.#bad(`the end line says ${describe(isRecord(doc) ? doc.end : doc)} entities, ${this.#entities} were read`);
    this.#end = this.#entities;
  }

  /** The snapshot's lastSeq, once every line was read; `torn`: text after the last newline. */
  finish(torn: boolean): number {
    if (torn || this.#end < 0) {
      throw new StoreCorruptError(this.file, `it is cut short after ${this.#n} lines (no end line: an interrupted copy?)`, { kind: 'snapshot' });
    }
    return this.#lastSeq;
  }
}

/** How a version 2 snapshot begins (a version 1 document is never written so: it has no newline). */
const V2_HEADER = /^\{"format":"paygate-store","version":2,"lastSeq":\d+\}\n/;
const READ_CHUNK = 8 << 20;
/** Work done between two yields to the event loop while a snapshot is written: a request waits at most about this long. */
const SLICE_MS = 8;
/** Text gathered before it is handed to the file. */
const WRITE_CHUNK = 1 << 20;

/** The snapshot file: read and validated on open, atomically replaced by a compaction. */
export class SnapshotFile {
  constructor(
    /** Absolute snapshot path. */
    readonly path: string,
    readonly fsync: boolean,
  ) {}

  /** Loads the snapshot into `colls` and returns its lastSeq; 0 (and nothing loaded) when there is no snapshot. */
  async load(colls: EntityMaps): Promise<number> {
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
        return parseSnapshot(await fh.readFile('utf8'), this.path, colls);
      }
      const lines = new SnapshotLines(this.path, colls);
      let buf = Buffer.allocUnsafe(READ_CHUNK);
      let filled = 0;
      let at = 0;
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
        for (at = buf.indexOf(0x0a, start); at !== -1 && at < filled; at = buf.indexOf(0x0a, start)) {
          lines.line(buf, start, at);
          start = at + 1;
        }
        buf.copy(buf, 0, start, filled);
        filled -= start;
      }
      return lines.finish(filled > 0);
    } finally {
      await fh.close();
    }
  }

  /**
   * Writes the source as a version 2 snapshot to a temp file beside it, in slices that give the event loop back
   * every SLICE_MS (the state is read through the source's capture, so it may change meanwhile), then (fsync on)
   * fdatasyncs it, renames it over the snapshot and fsyncs the directory. On failure the old snapshot is untouched.
   */
  async write(source: SnapshotSource, lastSeq: number): Promise<void> {
    const tmp = path.join(path.dirname(this.path), `.${path.basename(this.path)}.tmp`);
    const fh = await openFile(tmp, 'w', 0o600);
    try {
      await fh.chmod(0o600);
      let chunk = headerLine(lastSeq);
      let n = 0;
      let since = performance.now();
      for (const [c, id, json] of source.entries()) {
        chunk += entityLine(c, id, json);
        n++;
        if (chunk.length >= WRITE_CHUNK || ((n & 255) === 0 && performance.now() - since >= SLICE_MS)) {
          await writeText(fh, chunk);
          chunk = '';
          since = performance.now();
        }
      }
      await writeText(fh, chunk + endLine(n));
      if (this.fsync) await fh.datasync();
    } catch (e) {
      await fh.close().catch(() => {});
      await rm(tmp, { force: true }).catch(() => {});
      throw e;
    } finally {
      source.release();
    }
    await fh.close();
    await rename(tmp, this.path);
    // It holds webhook secrets and key hashes: owner-only, whatever the umask.
    await chmod(this.path, 0o600);
    if (this.fsync) await fsyncDir(path.dirname(this.path));
  }
}

/** Writes a string, yielding to the event loop while the thread pool writes it (a resolved write still yields once). */
async function writeText(fh: import('node:fs/promises').FileHandle, text: string): Promise<void> {
  if (text === '') return;
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    if (bytesWritten <= 0) throw new Error(`write returned ${bytesWritten}`);
    off += bytesWritten;
  }
  await new Promise<void>((r) => setImmediate(r));
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
