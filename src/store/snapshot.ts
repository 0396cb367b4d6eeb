// The snapshot `<path>` of a FilePersistence: one JSON document {format, version, lastSeq, collections}, replaced
// atomically through lowdb (temp file + rename) and, with fsync on, made durable with its directory entry. Owns
// the format and version, serializing and validating/parsing it, and the in-memory maps that loading builds
// (shared with the journal's replay).
import { chmod, open as openFile } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { TextFile } from 'lowdb/node';
import type { Collections, Entity } from './persistence.js';
import { StoreCorruptError } from './errors.js';
import { isEntity } from './persistence.js';
import { describe, isRecord } from './util.js';

export const SNAPSHOT_FORMAT = 'paygate-store';
export const SNAPSHOT_VERSION = 1;

/** Collections being loaded: name → id → entity, in first-appearance order. */
export type EntityMaps = Map<string, Map<string, Entity>>;

export function upsert(colls: EntityMaps, c: string, v: Entity): void {
  let m = colls.get(c);
  if (!m) colls.set(c, (m = new Map()));
  m.set(v.id, v); // an existing id keeps its place: first-appearance order
}

export function toCollections(colls: EntityMaps): Collections {
  const out: Collections = {};
  for (const [name, m] of colls) out[name] = [...m.values()];
  return out;
}

export function serializeSnapshot(all: Collections, lastSeq: number): string {
  return snapshotText(JSON.stringify(all), lastSeq);
}

/** The snapshot document around collections already serialized (a compaction captures them before its lastSeq is known). */
export function snapshotText(collections: string, lastSeq: number): string {
  return `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"version":${SNAPSHOT_VERSION},"lastSeq":${lastSeq},"collections":${collections}}`;
}

/** Validates a snapshot, loads it into `colls`, returns its lastSeq. Throws StoreCorruptError. */
export function parseSnapshot(text: string, file: string, colls: EntityMaps): number {
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

/** The snapshot file: read and validated on open, atomically replaced by a compaction. */
export class SnapshotFile {
  readonly #db: Low<string>;

  constructor(
    /** Absolute snapshot path. */
    readonly path: string,
    readonly fsync: boolean,
  ) {
    // The data is the serialized snapshot: it is captured when compact() is called, and written with lowdb's
    // atomic writer (steno: write <dir>/.<name>.tmp, rename over <path>).
    this.#db = new Low<string>(new TextFile(path), '');
  }

  /** Loads the snapshot into `colls` and returns its lastSeq; 0 (and nothing loaded) when there is no snapshot. */
  async load(colls: EntityMaps): Promise<number> {
    const text = await this.#db.adapter.read(); // null when the snapshot does not exist
    return text === null ? 0 : parseSnapshot(text, this.path, colls);
  }

  /** Atomic replace through lowdb, then (fsync on) make the new file and its directory entry durable. */
  async write(text: string): Promise<void> {
    this.#db.data = text;
    try {
      await this.#db.write();
    } finally {
      this.#db.data = ''; // do not keep a copy of the whole state alive
    }
    // It holds webhook secrets and key hashes: owner-only, whatever the umask (lowdb writes with the default mode).
    await chmod(this.path, 0o600);
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
