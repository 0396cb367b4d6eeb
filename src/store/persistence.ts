// The persistence contract of the store: what a backend (file journal, memory) must provide, and the shapes it
// stores. Entities are plain JSON objects keyed by `id` inside named collections; a change is an upsert.

import type { LoadTarget, SnapshotSource } from './snapshot.js';

export type CollectionName = string; // e.g. 'operations', 'postings', 'keys', 'events'

/** A stored entity. It is written with JSON.stringify: `toJSON` is honoured, `undefined` properties are dropped. */
export interface Entity {
  id: string;
  [k: string]: unknown;
}

/** Upsert of one entity, by id, within collection `c`. */
export interface Change {
  c: CollectionName;
  v: Entity;
}

/** Every collection's entities. A collection with no entities may be absent: read with `?? []`. */
export type Collections = Record<CollectionName, Entity[]>;

export interface PersistenceStats {
  /** Transactions acknowledged (written, and fdatasync'ed when fsync is on) since open. */
  commits: number;
  /** Group writes since open: one write (+ one fdatasync) each, shared by every transaction of the batch. */
  flushes: number;
  /** Transactions currently in the journal, i.e. written since the last compaction. */
  journalRecords: number;
}

/** What loading found. */
export interface Loaded {
  /** A journal left by the last run is still to be folded into a snapshot: the Store does it in the background. */
  compact: boolean;
}

/**
 * A backend as the Store uses it: load into a target, write one group, write a snapshot. Every member is required;
 * the Store's group writer calls one at a time (a group write, or a snapshot step), never two at once.
 */
export interface GroupPersistence {
  /** Acquire ownership, load snapshot + journal into `target` (`capture` gives what a compaction on load writes). */
  load(target: LoadTarget & { capture(): SnapshotSource }): Promise<Loaded>;
  /**
   * Write one group now, as one transaction (all its changes or none survive), numbered one above the last written.
   * Never empty. The changes are serialized before this returns. Resolves once written (and fdatasync'ed / committed).
   */
  writeGroup(changes: readonly Change[]): Promise<void>;
  /** Write a snapshot of `source` (the written state) and empty the journal. */
  writeSnapshot(source: SnapshotSource): Promise<void>;
  /**
   * Begin a snapshot of `source` (the state at the last group written) that lets group writes go on: resolves once
   * they may, with `written`, which settles when the snapshot is in place. A backend that cannot, writes it at once.
   */
  beginSnapshot(source: SnapshotSource): Promise<{ written: Promise<void> }>;
  /** The journal is long: the Store should take a snapshot in the background. */
  readonly shouldCompact: boolean;
  /**
   * Most groups the Store may have in flight at once (default 1: writeGroup is called again only once the last
   * call settled). Above 1, writeGroup must write a group only if every group before it was written.
   */
  readonly pipelineDepth?: number;
  /** Write `all` as the final snapshot when given, release ownership. Idempotent. */
  close(all?: Collections | SnapshotSource): Promise<void>;
  readonly stats: PersistenceStats;
}

/**
 * A backend, also usable on its own (tools, tests): open() returns every collection, commit() writes through the
 * backend's own group writer (the commits of one turn share one write), compact() queues a snapshot behind them.
 */
export interface Persistence extends GroupPersistence {
  /** Acquire ownership, load snapshot + replay journal. Returns every collection's entities (last write of an id wins, insertion order of first appearance kept). */
  open(): Promise<Collections>;
  /**
   * Append one transaction (atomic: all its changes or none survive). The changes are serialized before this
   * returns, so the caller may mutate the objects afterwards. Resolves only once it is written to the file (and
   * fdatasync'ed when fsync is on). Many commits issued in the same tick / while a write is in flight share one
   * write (group commit). An empty transaction behaves like sync().
   */
  commit(changes: readonly Change[]): Promise<void>;
  /** Resolves when everything committed so far is durable. */
  sync(): Promise<void>;
  /** Write a compacted snapshot of the given full state and empty the journal. `all` is copied when called. */
  compact(all: Collections): Promise<void>;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** True for an object with a string `id`: the only thing every backend requires of an entity. */
export function isEntity(x: unknown): x is Entity {
  return isRecord(x) && typeof x.id === 'string';
}

/** Throws a TypeError naming the first malformed change (not an array, empty collection name, entity without a string id). */
export function assertChanges(changes: readonly Change[]): void {
  if (!Array.isArray(changes)) throw new TypeError('commit(changes): changes must be an array of { c, v }');
  changes.forEach((ch: unknown, i) => {
    if (!isRecord(ch) || typeof ch.c !== 'string' || ch.c === '') {
      throw new TypeError(`commit(changes): changes[${i}].c must be a non-empty collection name`);
    }
    if (!isEntity(ch.v)) throw new TypeError(`commit(changes): changes[${i}].v must be an object with a string id`);
  });
}

/** Throws a TypeError naming the first collection that is not an array of entities. */
export function assertCollections(all: Collections): void {
  if (!isRecord(all)) throw new TypeError('collections must be an object of { [name]: Entity[] }');
  for (const [name, list] of Object.entries(all)) {
    if (!Array.isArray(list)) throw new TypeError(`collections.${name} must be an array`);
    list.forEach((v: unknown, i) => {
      if (!isEntity(v)) throw new TypeError(`collections.${name}[${i}] must be an object with a string id`);
    });
  }
}
