// MemoryPersistence: the Persistence of an in-memory sandbox (--in-memory). It keeps nothing: commits resolve at
// once and every open() starts from the optional initial collections.
import type { Change, Collections, Persistence, PersistenceStats } from './persistence.js';
import { StoreClosedError } from './errors.js';
import { assertChanges } from './persistence.js';

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

  sync(): Promise<void> {
    return this.#open ? Promise.resolve() : Promise.reject(new StoreClosedError(':memory:', 'sync'));
  }

  compact(_all: Collections): Promise<void> {
    return this.#open ? Promise.resolve() : Promise.reject(new StoreClosedError(':memory:', 'compact'));
  }

  async close(_all?: Collections): Promise<void> {
    this.#open = false;
  }
}
