// The Store: in-memory state plus a Persistence. A change is visible at once and durable when its promise resolves.
import type { Persistence } from './persistence.js';
import { SandboxState, type StoreChange } from './state.js';

export class Store {
  readonly state = new SandboxState();
  private opened = false;

  constructor(readonly persistence: Persistence) {}

  async open(): Promise<void> {
    const collections = await this.persistence.open();
    this.state.load(collections);
    this.opened = true;
  }

  /** Apply in memory now; resolves once written (group commit shares one flush between concurrent callers). */
  commit(changes: readonly StoreChange[]): Promise<void> {
    if (!this.opened) throw new Error('store is not open');
    const upserts = this.state.apply(changes);
    return upserts.length > 0 ? this.persistence.commit(upserts) : this.persistence.sync();
  }

  /** Resolves when everything applied so far is durable. */
  sync(): Promise<void> {
    return this.persistence.sync();
  }

  /** Drop every entity (sandbox reset) and write the empty state as the new snapshot. */
  async clear(): Promise<void> {
    this.state.clear();
    await this.persistence.compact(this.state.snapshot());
  }

  async close(): Promise<void> {
    if (!this.opened) return;
    this.opened = false;
    await this.persistence.close(this.state.snapshot());
  }
}
