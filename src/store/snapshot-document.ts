// Version 1 of the snapshot: one JSON document {format, version, lastSeq, collections}, written before issue 17 and
// still read (the next compaction rewrites it as version 3, see snapshot.ts).
import { StoreCorruptError } from './errors.js';
import { isEntity } from './persistence.js';
import { describe, isRecord } from './util.js';
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  SNAPSHOT_VERSION_DOCUMENT,
  SNAPSHOT_VERSION_LINES,
  type LoadTarget,
} from './snapshot.js';

export function parseDocument(text: string, file: string, target: LoadTarget): number {
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
    throw bad(
      `"format" is ${doc.format === undefined ? 'missing' : describe(doc.format)}, expected "${SNAPSHOT_FORMAT}" (is this a paygate store?)`,
    );
  }
  if ((doc.version === SNAPSHOT_VERSION || doc.version === SNAPSHOT_VERSION_LINES) && !('collections' in doc))
    throw bad(`it is a version ${doc.version} snapshot (JSON Lines) read as one document`);
  if (doc.version !== SNAPSHOT_VERSION_DOCUMENT) {
    throw bad(
      `"version" is ${describe(doc.version)}; this paygate reads versions ${SNAPSHOT_VERSION_DOCUMENT} to ${SNAPSHOT_VERSION} (was it written by a newer paygate?)`,
    );
  }
  const lastSeq = doc.lastSeq ?? 0;
  if (typeof lastSeq !== 'number' || !Number.isSafeInteger(lastSeq) || lastSeq < 0) {
    throw bad(`"lastSeq" is ${describe(lastSeq)}, expected a non-negative integer`);
  }
  if (!isRecord(doc.collections))
    throw bad(`"collections" is ${describe(doc.collections)}, expected an object of arrays`);
  for (const [name, list] of Object.entries(doc.collections)) {
    if (!Array.isArray(list)) throw bad(`collections.${name} is ${describe(list)}, expected an array`);
    for (let i = 0; i < list.length; i++) {
      const v: unknown = list[i];
      if (!isEntity(v)) throw bad(`collections.${name}[${i}] is ${describe(v)} without a string "id"`);
      target.put(name, v.id, v);
    }
  }
  return lastSeq;
}
