// Creates waiting on their admission (an operation in `admitting` until its provider's acceptance wait ends): one
// promise per operation, released once the decision is written or could not be (then the create answers 503).
// Bounded by the operations in `admitting`, each of which has a timer that releases it.

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

export class AdmissionWaits {
  readonly #waiting = new Map<string, Deferred>();

  /** Resolves once `release(id)` is called (or `releaseAll`). */
  wait(id: string): Promise<void> {
    let d = this.#waiting.get(id);
    if (!d) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#waiting.set(id, (d = { promise, resolve }));
    }
    return d.promise;
  }

  /** A create waiting on this operation's admission may answer now. */
  release(id: string): void {
    const d = this.#waiting.get(id);
    if (!d) return;
    this.#waiting.delete(id);
    d.resolve();
  }

  /** Sandbox reset: every waiting create answers now. */
  releaseAll(): void {
    for (const d of this.#waiting.values()) d.resolve();
    this.#waiting.clear();
  }
}
