// Where webhook attempts run (attempts.ts: signing and the POST), off the event loop that serves the API. The
// outbox hands over batches of jobs and gets batches of outcomes back; it alone reads and writes the store. By
// default the attempts run in one worker thread (delivery-thread.ts); with a caller's undici dispatcher (which
// cannot cross threads) they run in-thread, through the same code.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Dispatcher } from 'undici';
import { makeDeliverer, type AttemptJob, type AttemptOutcome, type Deliverer } from './attempts.js';
import type { DeliveryWorkerData, DeliveryWorkerMessage } from './delivery-thread.js';

export type { AttemptJob, AttemptOutcome } from './attempts.js';

export interface AttemptRunner {
  /** Start the attempts; their outcomes arrive through `onOutcomes`, batched, in no particular order. */
  send(jobs: AttemptJob[]): void;
  /** Abort every attempt in flight (their outcomes still arrive, as errors). */
  abortAll(reason: string): void;
  /** Stop: abort what is in flight; no outcome arrives afterwards. */
  close(): Promise<void>;
}

export type OutcomeSink = (outcomes: AttemptOutcome[]) => void;
/** Called when the worker died with attempts in flight (their outcomes will never arrive). */
export type CrashSink = (error: unknown) => void;

/**
 * Outcomes are handed back at most this often (ms): one message, and one commit (one journal transaction), per
 * batch. Longer batches wake the event loop and write the journal less often under load; idle() waits for them.
 */
export const OUTCOME_BATCH_MS = 20;

const requireHere = createRequire(import.meta.url);

/**
 * What the worker thread runs. Compiled (dist/, the CLI bundle, an installed package): delivery-thread.js beside
 * this module. From src/ (this repo's tests under vitest; Node 20 cannot run .ts): delivery-thread.ts bundled once
 * by esbuild, a devDependency, into CommonJS run with `eval`, undici required from where this module finds it.
 */
let entry: URL | string | undefined;
function workerEntry(): URL | string {
  if (entry) return entry;
  if (import.meta.url.endsWith('.js')) return (entry = new URL('./delivery-thread.js', import.meta.url));
  const esbuild = requireHere('esbuild') as typeof import('esbuild');
  const built = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./delivery-thread.ts', import.meta.url))],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['undici'],
    write: false,
    logLevel: 'silent',
  });
  const code = built.outputFiles[0]!.text;
  return (entry = code.replaceAll('require("undici")', `require(${JSON.stringify(requireHere.resolve('undici'))})`));
}

/** Connections per origin the attempts may open, one request on the wire each (the worker's plain undici Agent). */
export const DELIVERY_CONNECTIONS = 16;
/** Connections per origin of the worker's pipelined Agent, and requests on the wire per connection (see attempts.ts). */
export const PIPELINED_CONNECTIONS = 4;
export const DELIVERY_PIPELINING = 16;
/** The worker thread's nice value (Linux): attempts take the CPU the API leaves. */
export const DELIVERY_NICE = 19;

/** Attempts in one worker thread, started on the first send. A crash fails what was in flight; the next send starts a new worker. */
export class WorkerAttemptRunner implements AttemptRunner {
  private worker: Worker | undefined;
  private inflight = 0;
  private closed = false;

  constructor(
    private readonly onOutcomes: OutcomeSink,
    private readonly onCrash: CrashSink,
  ) {}

  send(jobs: AttemptJob[]): void {
    if (this.closed || jobs.length === 0) return;
    const w = (this.worker ??= this.spawn());
    this.inflight += jobs.length;
    w.ref();
    w.postMessage({ jobs } satisfies DeliveryWorkerMessage);
  }

  abortAll(reason: string): void {
    this.worker?.postMessage({ abort: reason } satisfies DeliveryWorkerMessage);
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private spawn(): Worker {
    const workerData: DeliveryWorkerData = {
      connections: DELIVERY_CONNECTIONS,
      pipelinedConnections: PIPELINED_CONNECTIONS,
      pipelining: DELIVERY_PIPELINING,
      batchMs: OUTCOME_BATCH_MS,
      nice: DELIVERY_NICE,
    };
    const code = workerEntry();
    const w = new Worker(code, { eval: typeof code === 'string', workerData });
    w.on('message', (outcomes: AttemptOutcome[]) => {
      this.inflight -= outcomes.length;
      // Only attempts in flight keep the process alive (as undici's sockets would in-thread).
      if (this.inflight === 0) w.unref();
      this.onOutcomes(outcomes);
    });
    const gone = (e: unknown) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.inflight = 0;
      if (!this.closed) this.onCrash(e);
    };
    w.on('error', (e) => {
      gone(e);
      void w.terminate().catch(() => {});
    });
    w.on('exit', (code) => gone(new Error(`webhook delivery worker exited with code ${code}`)));
    w.unref();
    return w;
  }
}

/** Attempts on the calling thread through the given dispatcher (the `dispatcher` option; tests). */
export class InThreadAttemptRunner implements AttemptRunner {
  private readonly deliverer: Deliverer;
  private done: AttemptOutcome[] = [];
  private inflight = 0;
  private drained: (() => void) | undefined;
  private closed = false;

  constructor(
    private readonly onOutcomes: OutcomeSink,
    dispatcher: Dispatcher,
  ) {
    this.deliverer = makeDeliverer({ plain: { dispatcher, perOrigin: DELIVERY_CONNECTIONS } }, (o) => this.report(o));
  }

  private report(o: AttemptOutcome): void {
    if (--this.inflight === 0) this.drained?.();
    if (this.closed) return;
    if (this.done.push(o) === 1) setTimeout(() => this.onOutcomes(this.done.splice(0)), OUTCOME_BATCH_MS);
  }

  send(jobs: AttemptJob[]): void {
    if (this.closed) return;
    this.inflight += jobs.length;
    for (const job of jobs) this.deliverer.submit(job);
  }

  abortAll(reason: string): void {
    this.deliverer.abortAll(reason);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.inflight === 0) return;
    const drained = new Promise<void>((r) => (this.drained = r));
    this.deliverer.abortAll('sandbox closing');
    await drained;
  }
}
