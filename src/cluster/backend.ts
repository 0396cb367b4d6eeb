// The store backend of a cluster process: the PostgreSQL backend (one writer connection, receipt files and secrets
// through its pool) without the single-active lease — every process of a cluster writes — and with every write of a
// workspace fenced by the lease this process holds on it (leases.ts): its journal rows and snapshots are written only
// while the lease row names this process and the epoch it took (postgres/persistence.ts).
import type pg from 'pg';
import { StoreError } from '../store/errors.js';
import { PostgresBackend, type PostgresBackendOptions } from '../store/postgres/backend.js';

export class ClusterBackend extends PostgresBackend {
  /** The epoch of each workspace's lease this process holds. */
  readonly #epochs = new Map<string, number>();
  #onFenced: (workspace: string) => void = () => {};

  constructor(
    opts: PostgresBackendOptions,
    readonly me: string,
  ) {
    super(opts);
  }

  /** The writer connection: no process-wide lease in a cluster. */
  override async active(): Promise<pg.Client> {
    const client = await this.connect();
    if (this.lost) throw this.lost;
    return client;
  }

  override async reset(): Promise<void> {
    throw new StoreError(
      'store_locked',
      `paygate store ${this.label} is a cluster's: it cannot be reset while in use.`,
    );
  }

  /** Writes of `workspace` go out under `epoch` from now on (undefined: not held, every write refused). */
  hold(workspace: string, epoch: number | undefined): void {
    if (epoch === undefined) this.#epochs.delete(workspace);
    else this.#epochs.set(workspace, epoch);
  }

  epochOf(workspace: string): number | undefined {
    return this.#epochs.get(workspace);
  }

  fence(workspace: string): { writer: string; epoch: number } {
    // Not held (lost, or released): epoch 0 is never a lease's, so the write is refused in the database.
    return { writer: this.me, epoch: this.#epochs.get(workspace) ?? 0 };
  }

  fenced(workspace: string): void {
    this.#epochs.delete(workspace);
    this.#onFenced(workspace);
  }

  onFenced(fn: (workspace: string) => void): void {
    this.#onFenced = fn;
  }
}
