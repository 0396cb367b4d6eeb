// FailingPersistence: a Persistence for tests that wraps another one (memory or file) and refuses commits on
// demand, as a full disk would: the next N commits (failNext) or every commit until heal() (failAll). A refused
// commit rejects without forwarding anything, so the inner persistence never sees those changes. Everything else
// (open, sync, compact, close, stats) is delegated unchanged. hold() keeps commits waiting until release() lets
// them through or fails them, so a test can look at the sandbox while a write is in flight; `written` keeps a copy
// of every transaction that reached the inner persistence (what is "on disk"). The Store's group writes
// (writeGroup) are refused, held and recorded exactly as commits are.
import type { Change, Collections, Loaded, Persistence, PersistenceStats } from '../../src/store/persistence.js';
import type { LoadTarget, SnapshotSource } from '../../src/store/snapshot.js';

/** An error like the one Node.js raises for a write on a full disk: `code: 'ENOSPC'`, `errno: -28`. */
export function enospcError(syscall = 'write'): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
  });
}

export class FailingPersistence implements Persistence {
  /** Commits still to refuse (failNext); ignored while failing every commit. */
  #remaining = 0;
  #always = false;
  /** What a refused commit rejects with; undefined: a fresh ENOSPC error each time. */
  #error: unknown;
  #refused = 0;
  #when: (() => boolean) | undefined;
  #holding = false;
  #held: { changes: readonly Change[]; group: boolean; resolve: () => void; reject: (e: unknown) => void }[] = [];
  /** A copy of every transaction forwarded to the inner persistence, in order. */
  readonly written: Change[][] = [];

  constructor(readonly inner: Persistence) {}

  /** Refuse each commit for which `pred()` is true (checked per commit, after failNext/failAll). */
  failWhen(pred: (() => boolean) | undefined): this {
    this.#when = pred;
    return this;
  }

  /** Keep every later commit waiting until release(). */
  hold(): this {
    this.#holding = true;
    return this;
  }

  /** Stop holding: the held commits go through, or all reject with `error` when given. */
  release(error?: unknown): this {
    this.#holding = false;
    for (const h of this.#held.splice(0)) {
      if (error !== undefined) h.reject(error);
      else this.#forward(h.changes, h.group).then(h.resolve, h.reject);
    }
    return this;
  }

  /** Refuse the next `n` commits (replacing any earlier failNext/failAll), with `error` or a fresh ENOSPC error. */
  failNext(n = 1, error?: unknown): this {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new RangeError(`failNext(n): n must be a non-negative integer, got ${n}`);
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

  load(target: LoadTarget & { capture(): SnapshotSource }): Promise<Loaded> {
    return this.inner.load(target);
  }

  get shouldCompact(): boolean {
    return this.inner.shouldCompact;
  }

  /** Refused (without reaching the inner persistence) while failing; otherwise forwarded. */
  commit(changes: readonly Change[]): Promise<void> {
    return this.#gate(changes, false);
  }

  /** The Store's group write: refused, held and recorded as commit() is. */
  writeGroup(changes: readonly Change[]): Promise<void> {
    return this.#gate(changes, true);
  }

  #gate(changes: readonly Change[], group: boolean): Promise<void> {
    const byPred = !this.failing && this.#when?.() === true;
    if (!this.failing && !byPred) {
      if (!this.#holding) return this.#forward(changes, group);
      const copy = structuredClone(changes);
      return new Promise<void>((resolve, reject) => this.#held.push({ changes: copy, group, resolve, reject }));
    }
    if (!byPred && !this.#always) this.#remaining--;
    this.#refused++;
    return Promise.reject(this.#error === undefined || byPred ? enospcError() : this.#error);
  }

  #forward(changes: readonly Change[], group: boolean): Promise<void> {
    this.written.push(JSON.parse(JSON.stringify(changes)) as Change[]);
    return group ? this.inner.writeGroup(changes) : this.inner.commit(changes);
  }

  sync(): Promise<void> {
    return this.inner.sync();
  }

  compact(all: Collections): Promise<void> {
    return this.inner.compact(all);
  }

  writeSnapshot(source: SnapshotSource): Promise<void> {
    return this.inner.writeSnapshot(source);
  }

  beginSnapshot(source: SnapshotSource): Promise<{ written: Promise<void> }> {
    return this.inner.beginSnapshot(source);
  }

  close(all?: Collections | SnapshotSource): Promise<void> {
    return this.inner.close(all);
  }
}
