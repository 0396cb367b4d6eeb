// The write pipeline, read top to bottom (house style, "The write pipeline"):
//   plan    the domain's command decided { changes, effects } (before this module: src/domain, pure)
//   admit   limits and quotas (a workspace's operation limit) — before anything is written; a refusal writes nothing
//   extend  records that ride in the same transaction (the webhook outbox's payloads and deliveries)
//   write   the Store's one group-commit writer (src/store/group-writer.ts); a failed write is taken back whole
//   then    the typed subscribers, once written, in order: the webhook scheduler, the live streams, the effect runner
// Every stage is given at construction; nothing is extended later by overwriting a slot.
import type { Effect } from '../../domain/effects.js';
import type { StoreChange } from '../../store/state.js';
import type { Store } from '../../store/store.js';

/** A limit checked before anything is written: throws (a 4xx ApiError) to refuse the whole transaction. */
export interface Admission {
  admit(changes: readonly StoreChange[]): void;
}

/** Records that ride in the same transaction as `changes` (none: an empty list). */
export interface Extension {
  extend(changes: readonly StoreChange[]): StoreChange[];
}

/** What was written: the command's changes, what the extension added, and the effects to carry out now. */
export interface Written {
  readonly changes: readonly StoreChange[];
  readonly extra: readonly StoreChange[];
  readonly effects: readonly Effect[];
}

/** Told of every transaction once it is written, before any waiting request resumes. Must not throw. */
export type WriteSubscriber = (written: Written) => void;

export interface PipelineStages {
  store: Store;
  admission: readonly Admission[];
  extension: Extension;
  /** Run in this order once a transaction is written. */
  subscribers: readonly WriteSubscriber[];
}

export class WritePipeline {
  constructor(private readonly stages: PipelineStages) {}

  /**
   * admit → extend → write → subscribers. Resolves once written (the subscribers have run); rejects with the
   * admission's refusal (nothing written) or with the store's StoreUnavailableError (nothing of it is visible, ever).
   */
  write(changes: readonly StoreChange[], effects: readonly Effect[] = []): Promise<void> {
    const { store, admission, extension, subscribers } = this.stages;
    try {
      for (const a of admission) a.admit(changes);
      const extra = extension.extend(changes);
      const written = () => {
        const w: Written = { changes, extra, effects };
        for (const s of subscribers) {
          try {
            s(w);
          } catch (e) {
            queueMicrotask(() => {
              throw e;
            });
          }
        }
      };
      return store.commit(extra.length > 0 ? [...changes, ...extra] : changes, written);
    } catch (e) {
      return Promise.reject(e);
    }
  }
}

/** A live view's listener: the changes of one written transaction. */
export type LiveListener = (changes: readonly StoreChange[]) => void;

/** The live views' subscriber (operation streams, the hosted page's events): the set of their listeners, each told of
 * every written transaction. The streams bound how many there are (one per open stream). */
export class LiveFeed extends Set<LiveListener> {
  readonly subscriber: WriteSubscriber = (w) => {
    for (const listener of this) listener(w.changes);
  };
}
