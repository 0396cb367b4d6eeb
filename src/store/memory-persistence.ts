// MemoryPersistence: the Persistence of an in-memory sandbox (--in-memory). It keeps nothing: writes resolve at
// once and every open() starts from the optional initial collections.
import type { Change, Collections, Loaded, Persistence, PersistenceStats } from './persistence.js';
import { StoreClosedError } from './errors.js';
import { assertChanges } from './persistence.js';
import { isSource, type LoadTarget, type SnapshotSource } from './snapshot.js';

export class MemoryPersistence implements Persistence {
  readonly #initial: Collections | undefined;
  #open = false;
  #stats: PersistenceStats = { commits: 0, flushes: 0, journalRecords: 0 };

  /** `initial` is deep-copied on every open(), so the caller's objects are never shared with the store. */
  constructor(initial?: Collections) {
    this.#initial = initial === undefined ? undefined : structuredClone(initial);
  }

  get stats(): PersistenceStats {
    return { ...this.#stats };
  }

  /** Nothing to compact, ever (mirrors FilePersistence.shouldCompact). */
  get shouldCompact(): boolean {
    return false;
  }

  get isOpen(): boolean {
    return this.#open;
  }

  async open(): Promise<Collections> {
    this.#open = true;
    this.#stats = { commits: 0, flushes: 0, journalRecords: 0 };
    return this.#initial === undefined ? {} : structuredClone(this.#initial);
  }

  async load(target: LoadTarget): Promise<Loaded> {
    for (const [c, list] of Object.entries(await this.open())) for (const v of list) target.put(c, v.id, v);
    return { compact: false };
  }

  commit(changes: readonly Change[]): Promise<void> {
    if (!this.#open) return Promise.reject(new StoreClosedError(':memory:', 'commit'));
    try {
      assertChanges(changes);
    } catch (e) {
      return Promise.reject(e);
    }
    if (changes.length > 0) this.#stats.commits++;
    return Promise.resolve();
  }

  writeGroup(changes: readonly Change[]): Promise<void> {
    return this.commit(changes);
  }

  sync(): Promise<void> {
    return this.#open ? Promise.resolve() : Promise.reject(new StoreClosedError(':memory:', 'sync'));
  }

  compact(_all: Collections): Promise<void> {
    return this.#open ? Promise.resolve() : Promise.reject(new StoreClosedError(':memory:', 'compact'));
  }

  async writeSnapshot(source: SnapshotSource): Promise<void> {
    source.release();
    if (!this.#open) throw new StoreClosedError(':memory:', 'compact');
  }

  async beginSnapshot(source: SnapshotSource): Promise<{ written: Promise<void> }> {
    await this.writeSnapshot(source);
    return { written: Promise.resolve() };
  }

  async close(all?: Collections | SnapshotSource): Promise<void> {
    isSource(all)?.release();
    this.#open = false;
  }
}
