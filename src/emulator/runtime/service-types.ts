// The service's shapes: what it is built from (its dependencies, given at construction), the parts that live
// beside it, and how a caller names an operation.
import type { KeyScope, WorldIndex } from '../../domain/world.js';
import type { Store } from '../../store/store.js';
import type { StoreChange } from '../../store/state.js';
import type { FileStore } from '../../store/files.js';
import type { SandboxClock } from './clock.js';
import type { Admission, Extension, WriteSubscriber } from './pipeline.js';

export type OperationRef = { operation_id: string } | { merchant_operation_id: string };

export type AuthResult =
  | { ok: true; shopId: string; keyId: string; scopes: readonly KeyScope[] | undefined }
  | { ok: false; reason: 'missing' | 'invalid' };

/** A part of the sandbox with state of its own around the store: the webhook outbox, a workspace's guard. */
export interface SandboxPart {
  /** Changes to seed at init (fixture endpoints, a workspace's keys); called on an open store and after a reset. */
  seed(): StoreChange[];
  /** Re-arm pending work after init (restart recovery). */
  resume(): void;
  /** Forget in-memory work (sandbox reset). */
  reset(): void;
}

/** A sandbox's own limits on pool layouts (a workspace's); default: MAX_POOL_SLOTS_PER_SHOP, no operation limit. */
export interface LayoutLimits {
  /** Most open pool payouts per shop. */
  poolPayouts?: number;
  /** Before a layout of `count` more payouts: throws to refuse (a workspace's operation limit). */
  check?(count: number): void;
}

export interface ServiceDeps {
  world: WorldIndex;
  store: Store;
  clock: SandboxClock;
  files: FileStore;
  /** The key of flexible links' `k` credentials (src/store/secrets.ts). */
  linkKey: Buffer;
  /** The pipeline's admit stage (a workspace's operation limit). */
  admission: readonly Admission[];
  /** The pipeline's extend stage (the webhook outbox). */
  extension: Extension;
  /** Told of every written transaction, before the effect runner (the webhook scheduler). */
  subscribers: readonly WriteSubscriber[];
  /** Seeded, resumed and reset with the service, in this order. */
  parts: readonly SandboxPart[];
  layoutLimits?: LayoutLimits;
  /** Told after every sandbox reset, in this order (in-memory limits and windows forget their state). Default none. */
  onReset?: readonly ResetSubscriber[];
}

/** What forgets in-memory state on a sandbox reset (the amount-read limits, the injected faults). */
export interface ResetSubscriber {
  reset(): void;
}
