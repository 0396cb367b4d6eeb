// FailingPersistence: a Persistence for tests that wraps another one (memory or file) and refuses commits on
// demand, as a full disk would: the next N commits (failNext) or every commit until heal() (failAll). A refused
// commit rejects without forwarding anything, so the inner persistence never sees those changes. Everything else
// (open, sync, compact, close, stats) is delegated unchanged.
import type { Change, Collections, Persistence, PersistenceStats } from '../../src/store/persistence.js';

/** An error like the one Node.js raises for a write on a full disk: `code: 'ENOSPC'`, `errno: -28`. */
export function enospcError(syscall = 'write'): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { code: 'ENOSPC', errno: -28, syscall });
}

export class FailingPersistence implements Persistence {
  /** Commits still to refuse (failNext); ignored while failing every commit. */
  #remaining = 0;
  #always = false;
  /** What a refused commit rejects with; undefined: a fresh ENOSPC error each time. */
  #error: unknown;
  #refused = 0;

  constructor(readonly inner: Persistence) {}

  /** Refuse the next `n` commits (replacing any earlier failNext/failAll), with `error` or a fresh ENOSPC error. */
  failNext(n = 1, error?: unknown): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`failNext(n): n must be a non-negative integer, got ${n}`);
    this.#always = false;
    this.#remaining = n;
    this.#error = error;
    return this;
  }

  /** Refuse every commit until heal(), with `error` or a fresh ENOSPC error. */
  failAll(error?: unknown): this {
    this.#always = true;
    this.#remaining = 0;
    this.#error = error;
    return this;
  }

  /** Stop refusing: commits reach the inner persistence again. The refused count is kept. */
  heal(): this {
    this.#always = false;
    this.#remaining = 0;
    this.#error = undefined;
    return this;
  }

  /** Commits refused since this wrapper was created. */
  get refused(): number {
    return this.#refused;
  }

  /** True while the next commit would be refused. */
  get failing(): boolean {
    return this.#always || this.#remaining > 0;
  }

  get stats(): PersistenceStats {
    return this.inner.stats;
  }

  open(): Promise<Collections> {
    return this.inner.open();
  }

  /** Refused (without reaching the inner persistence) while failing; otherwise forwarded. */
  commit(changes: readonly Change[]): Promise<void> {
    if (!this.failing) return this.inner.commit(changes);
    if (!this.#always) this.#remaining--;
    this.#refused++;
    return Promise.reject(this.#error === undefined ? enospcError() : this.#error);
  }

  sync(): Promise<void> {
    return this.inner.sync();
  }

  compact(all: Collections): Promise<void> {
    return this.inner.compact(all);
  }

  close(all?: Collections): Promise<void> {
    return this.inner.close(all);
  }
}
