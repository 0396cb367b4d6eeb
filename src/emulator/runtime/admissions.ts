// Creates waiting on their admission (an operation in `admitting` until its provider's acceptance wait ends): one
// promise per operation, released once the decision is written or could not be (then the create answers 503).
// Bounded by the operations in `admitting`, each of which has a timer that releases it.

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
}

export class AdmissionWaits {
  readonly #waiting = new Map<string, Deferred>();
  /** Set once the service stops (its workspace deleted): every wait rejects with it. */
  #closed: Error | undefined;

  /** Resolves once `release(id)` is called (or `releaseAll`); rejects once `close` is. */
  wait(id: string): Promise<void> {
    if (this.#closed) return Promise.reject(this.#closed);
    let d = this.#waiting.get(id);
    if (!d) {
      let resolve!: () => void;
      let reject!: (e: Error) => void;
      const promise = new Promise<void>((r, j) => ((resolve = r), (reject = j)));
      this.#waiting.set(id, (d = { promise, resolve, reject }));
    }
    return d.promise;
  }

  /** The service stopped: every waiting create, and every later one, rejects with `error`. */
  close(error: Error): void {
    this.#closed = error;
    for (const d of this.#waiting.values()) d.reject(error);
    this.#waiting.clear();
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
