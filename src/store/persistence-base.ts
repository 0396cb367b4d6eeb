// The part the file and PostgreSQL backends share: a backend writes numbered transactions (`append`) and snapshots;
// this base turns that into the Persistence a tool or a test uses on its own (open, commit, sync, compact) through
// the one group writer (group-writer.ts), and into the Store's `writeGroup` (one transaction, written at once: the
// Store's own group writer already gathered it). No second queue, no second copy of the writer.
import { GroupWriter } from './group-writer.js';
import type { Change, Collections, Loaded, Persistence, PersistenceStats } from './persistence.js';
import { assertChanges, assertCollections } from './persistence.js';
import {
  collectionsSource,
  mapsSource,
  mapsTarget,
  toCollections,
  type EntityMaps,
  type LoadTarget,
  type SnapshotSource,
} from './snapshot.js';

/** Most transactions one write of a backend's own commit() carries. */
const MAX_GROUP = 512;
/** Most commits waiting for a backend's own writer; beyond it commit() rejects at once (GroupWriterFullError). */
const MAX_QUEUED = 65_536;

interface Pending {
  body: string;
  resolve(): void;
  reject(e: unknown): void;
}

export abstract class PersistenceBase implements Persistence {
  readonly #writer = new GroupWriter<Pending>({
    maxGroup: MAX_GROUP,
    maxQueued: MAX_QUEUED,
    write: (group) => this.append(group.map((p) => p.body)),
    settle: (group, error) => {
      for (const p of group) {
        if (error === undefined) p.resolve();
        else p.reject(error);
      }
    },
  });

  abstract load(target: LoadTarget & { capture(): SnapshotSource }): Promise<Loaded>;
  abstract writeSnapshot(source: SnapshotSource): Promise<void>;
  abstract beginSnapshot(source: SnapshotSource): Promise<{ written: Promise<void> }>;
  abstract readonly shouldCompact: boolean;
  abstract close(all?: Collections | SnapshotSource): Promise<void>;
  abstract readonly stats: PersistenceStats;

  /** Write these transactions (their encoded bodies) in one write, numbered one above the last written, in order. */
  protected abstract append(bodies: readonly string[]): Promise<void>;
  /** A transaction's body as the backend stores it. */
  protected abstract encode(changes: readonly Change[]): string;
  /** Why a commit or a compaction is refused now (closed, failed), or undefined. */
  protected abstract refusal(op: 'commit' | 'compact' | 'sync'): unknown;

  writeGroup(changes: readonly Change[]): Promise<void> {
    const refused = this.refusal('commit');
    if (refused) return Promise.reject(refused);
    let body: string;
    try {
      assertChanges(changes);
      if (changes.length === 0) throw new Error('writeGroup: a group is never empty');
      body = this.encode(changes);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.append([body]);
  }

  async open(): Promise<Collections> {
    const colls: EntityMaps = new Map();
    await this.load({ ...mapsTarget(colls), capture: () => mapsSource(colls) });
    return toCollections(colls);
  }

  commit(changes: readonly Change[]): Promise<void> {
    const refused = this.refusal('commit');
    if (refused) return Promise.reject(refused);
    let body: string;
    try {
      assertChanges(changes);
      if (changes.length === 0) return this.sync();
      body = this.encode(changes);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<void>((resolve, reject) => {
      try {
        this.#writer.submit({ body, resolve, reject });
      } catch (e) {
        reject(e);
      }
    });
  }

  sync(): Promise<void> {
    const refused = this.refusal('sync');
    return refused ? Promise.reject(refused) : this.#writer.sync();
  }

  compact(all: Collections): Promise<void> {
    const refused = this.refusal('compact');
    if (refused) return Promise.reject(refused);
    let source: SnapshotSource;
    try {
      assertCollections(all);
      // Copied now; written after every commit queued before it, which later commits wait behind.
      source = collectionsSource(all);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.compactLater(source);
  }

  /** A snapshot of `source` written by this backend's own writer, in order with its commits. */
  protected compactLater(source: SnapshotSource): Promise<void> {
    return this.#writer.run(() => this.writeSnapshot(source));
  }

  /** Resolves once every commit() made so far has settled. */
  protected settled(): Promise<void> {
    return this.#writer.sync();
  }
}
