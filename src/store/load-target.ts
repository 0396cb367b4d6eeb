// The two interfaces between the state and its persistence: what loading a store fills (a LoadTarget, shared by the
// snapshot and the journal's replay; plain maps for tools and tests) and what writing a snapshot reads (a
// SnapshotSource, taken lazily). The snapshot file's format is in src/store/snapshot.ts.
import type { Collections, Entity } from './persistence.js';
import type { ColdTexts } from './cold-texts.js';

/** Collections being loaded: name → id → entity (or its JSON text, unparsed), in first-appearance order. */
export type EntityMaps = Map<string, Map<string, Entity | string>>;

/** A state to write as a snapshot, read lazily: [collection, id, entity JSON, an operation's view]; then `release`. */
export interface SnapshotSource {
  entries(): Iterable<[string, string, string, string?]>;
  release(): void;
  /** Where the entry just taken from `entries` went in the file: its JSON text's byte offset and length, and its view's length. */
  placed?(offset: number, length: number, view: number): void;
  /** The snapshot is in place at `path` (before `release`): its texts may be read from there from now on. */
  written?(path: string): Promise<void>;
}

/**
 * What loading a store fills. `put` takes each entity in order (an id seen again replaces its value and keeps its
 * place). With `cold`, a version 2 or 3 snapshot's entities of those collections are given as handles to their text in
 * the snapshot file (ColdTexts), not read into memory; for the collections in `cold.read` their text comes too.
 */
export interface LoadTarget {
  cold?: { texts: ColdTexts; collections: ReadonlySet<string>; read: ReadonlySet<string> };
  /** `fresh`: the id is not in the target yet (a snapshot holds each id once and loads first). */
  put(c: string, id: string, v: Entity | string | number, text?: string, view?: string, fresh?: boolean): void;
}

/** Loading into plain maps (tools, tests, the PostgreSQL store). */
export const mapsTarget = (colls: EntityMaps): LoadTarget => ({
  put: (c, id, v) => upsert(colls, c, v as Entity | string, id),
});

export const targetOf = (x: EntityMaps | LoadTarget): LoadTarget => (x instanceof Map ? mapsTarget(x) : x);

/** A snapshot source over plain collections (already a copy: compact(all) copies when called). */
export function collectionsSource(all: Collections): SnapshotSource {
  const lines: [string, string, string][] = [];
  for (const [c, list] of Object.entries(all)) for (const v of list) lines.push([c, v.id, JSON.stringify(v)]);
  return { entries: () => lines, release: () => {} };
}

export function isSource(x: Collections | SnapshotSource | undefined): SnapshotSource | undefined {
  return x !== undefined &&
    typeof (x as SnapshotSource).entries === 'function' &&
    typeof (x as SnapshotSource).release === 'function'
    ? (x as SnapshotSource)
    : undefined;
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
  for (const [name, m] of colls)
    out[name] = [...m.values()].map((v) => (typeof v === 'string' ? (JSON.parse(v) as Entity) : v));
  return out;
}
