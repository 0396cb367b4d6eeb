// Memory given back after a burst of connections closes (issue 25: "RSS returns within 10 % of its start once they
// close"). Why a forced collection: hundreds of stalled event streams or trickling connections leave V8's old space
// grown (their sockets, parsers, requests and queued chunks were promoted there) and their ArrayBuffers' memory with
// the allocator. Once they close, the sandbox allocates too little for V8 to collect again on its own, so the process
// keeps its peak RSS for as long as it stays quiet — which, for a sandbox, is most of the time. One full collection
// at a quiet moment after the burst gives the old space and the buffers back (docs/limits.md).
//
// When: the open connections of the process have fallen by `drop` from their peak since the last collection, no
// connection has closed for `quietMs` and the event loop was idle meanwhile (busy less than `idleBelow` of the time:
// a sandbox still serving load waits, rechecked every `quietMs`); never more often than once per `minIntervalMs`.
// Ordinary traffic (a client's few keep-alive connections, or a connection per request) never falls that far from
// its peak, so it never triggers one. Only a process that asks for it (`sandbox start`) collects: a sandbox embedded
// in a test runner's process leaves that process's collector alone. Each collection is logged with its pause.
// The collection compacts the old space (V8's --compact-on-every-full-gc, set for that one collection): an ordinary
// full collection frees the objects but leaves the pages they were spread over committed.
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface MemoryReleaseOptions {
  /** How far the open connections must fall from their peak. */
  drop: number;
  /** How long no connection may close before the collection runs, in ms. */
  quietMs: number;
  /** The least time between two collections, in ms. */
  minIntervalMs: number;
  /** The share of the quiet time the event loop may have been busy for it to count as idle. */
  idleBelow: number;
}

export const DEFAULT_MEMORY_RELEASE: MemoryReleaseOptions = {
  drop: 256,
  quietMs: 1000,
  minIntervalMs: 30_000,
  idleBelow: 0.2,
};

/** A full, compacting collection of the process's heap (`gc`, made available at run time when not already). */
export function fullCollection(): () => void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') {
    // --expose-gc set at run time puts `gc` in contexts made afterwards: one made here, only to take it.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  const collect = gc;
  // Left on when the process was started with it.
  const always = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) =>
    /^--compact[-_]on[-_]every[-_]full[-_]gc$/.test(a),
  );
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      collect();
    } finally {
      if (!always) setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

/** The event loop's busy share since the previous call (Node's event loop utilization). */
export function loopBusy(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return busy;
  };
}

/** Counts the open connections and runs `collect` once they have fallen far enough and stayed quiet. */
export class MemoryRelease {
  #open = 0;
  #peak = 0;
  #dropped = 0;
  #lastAt = -Infinity;
  #timer: NodeJS.Timeout | undefined;
  /** Collections run, and the longest pause one cost (ms). */
  readonly stats = { collections: 0, lastPauseMs: 0, maxPauseMs: 0 };

  readonly #collect: () => void;
  readonly #log: (line: string) => void;
  readonly #busy: () => number;
  readonly #now: () => number;

  constructor(
    deps: {
      /** One full collection. */
      collect: () => void;
      log: (line: string) => void;
      /** The event loop's busy share since the previous call. Default: loopBusy(). */
      busy?: () => number;
      /** Milliseconds, monotonic. Default: performance.now. */
      now?: () => number;
    },
    readonly options: MemoryReleaseOptions = DEFAULT_MEMORY_RELEASE,
  ) {
    this.#collect = deps.collect;
    this.#log = deps.log;
    this.#busy = deps.busy ?? loopBusy();
    this.#now = deps.now ?? (() => performance.now());
  }

  /** Connections open now. */
  get open(): number {
    return this.#open;
  }

  opened(): void {
    this.#open++;
    if (this.#open > this.#peak) this.#peak = this.#open;
  }

  closed(): void {
    this.#open = Math.max(0, this.#open - 1);
    if (this.#peak - this.#open < this.options.drop) return;
    // Fallen far enough: (re)start the quiet time, and keep the least interval since the last collection.
    this.#dropped = this.#peak - this.#open;
    this.#busy(); // the quiet time's busy share is measured from here
    this.schedule(Math.max(this.options.quietMs, this.#lastAt + this.options.minIntervalMs - this.#now()));
  }

  /** Stop waiting (the process is closing). */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  private schedule(wait: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.run(), wait);
    this.#timer.unref();
  }

  private run(): void {
    this.#timer = undefined;
    // Still serving: wait for a quiet time that is idle.
    if (this.#busy() >= this.options.idleBelow) return this.schedule(this.options.quietMs);
    const usedBefore = process.memoryUsage().heapUsed;
    const started = this.#now();
    this.#collect();
    this.#lastAt = this.#now();
    const pause = this.#lastAt - started;
    this.#peak = this.#open;
    this.stats.collections++;
    this.stats.lastPauseMs = pause;
    this.stats.maxPauseMs = Math.max(this.stats.maxPauseMs, pause);
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    this.#log(
      `released memory after ${this.#dropped} connections closed: one full, compacting collection, ${pause.toFixed(1)} ms; heap used ${mb(usedBefore)} → ${mb(process.memoryUsage().heapUsed)} MB`,
    );
  }
}

let processRelease: MemoryRelease | undefined;

/** Collect after bursts of closed connections in this process (`sandbox start`); idempotent. */
export function releaseMemoryAfterBursts(log: (line: string) => void): MemoryRelease {
  processRelease ??= new MemoryRelease({ collect: fullCollection(), log });
  return processRelease;
}

/** @internal Set (or, with undefined, end) the process's release: for tests. */
export function useMemoryRelease(release: MemoryRelease | undefined): void {
  processRelease?.dispose();
  processRelease = release;
}

/** The process's release, when it asked for one (connection-limits.ts counts connections into it). */
export function memoryRelease(): MemoryRelease | undefined {
  return processRelease;
}
