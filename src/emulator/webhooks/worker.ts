// Where webhook attempts run: signing (standardwebhooks) and the HTTP POST (undici), off the event loop that serves
// the API. The outbox hands over batches of jobs and gets batches of outcomes back; it alone reads and writes the
// store. By default the attempts run in one worker thread; with a caller's undici dispatcher (which cannot cross
// threads) they run in-thread, through the same code.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Dispatcher } from 'undici';
import { Webhook } from 'standardwebhooks';

/** One attempt to POST one event to one endpoint. Carries secrets: never log a job. */
export interface AttemptJob {
  /** Unique per attempt (the outbox matches outcomes by it). */
  seq: number;
  url: string;
  /** The event id: the `webhook-id` header. */
  webhook_id: string;
  /** Unix seconds of the attempt (sandbox clock): the `webhook-timestamp` header. */
  timestamp: number;
  body: string;
  /** Every secret to sign with (one signature each, space-separated). */
  secrets: string[];
  timeout_ms: number;
}

export interface AttemptOutcome {
  seq: number;
  /** HTTP status of the response, when one arrived. */
  status_code?: number;
  /** Network error or timeout, when no response arrived. */
  error?: string;
  /** The raw Retry-After header of a 429 or 503 answer. */
  retry_after?: string;
  /** Real milliseconds the attempt took. */
  duration_ms: number;
}

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
 * The attempts, as plain JavaScript source, so the worker (eval: the same from src under vitest and from dist) and
 * the in-thread runner share them. `makeDeliverer(Webhook, dispatcher, perOrigin, report)` returns
 * `{ submit(job), abortAll(reason) }`. At most `perOrigin` attempts per origin are on the wire at once (one per
 * connection); the rest wait in line, and an attempt's timeout starts when it goes on the wire. undici's low-level
 * dispatch() is used: no response stream, no AbortSignal, the body is discarded as it arrives.
 */
const DELIVERER_SOURCE = String.raw`
function makeDeliverer(Webhook, dispatcher, perOrigin, report) {
  const signers = new Map();
  const signer = (secret) => {
    let w = signers.get(secret);
    if (!w) {
      if (signers.size > 1000) signers.clear();
      w = new Webhook(secret);
      signers.set(secret, w);
    }
    return w;
  };
  const targets = new Map();
  const target = (url) => {
    let t = targets.get(url);
    if (!t) {
      if (targets.size > 1000) targets.clear();
      const u = new URL(url);
      // Credentials in the URL are sent as Basic auth (undici would drop them), never as part of the path.
      const auth = u.username || u.password ? 'Basic ' + Buffer.from(decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password)).toString('base64') : undefined;
      t = { origin: u.origin, path: u.pathname + u.search, auth };
      targets.set(url, t);
    }
    return t;
  };
  const lanes = new Map();
  const running = new Set();
  const MAX_BODY = 64 * 1024;

  function submit(job) {
    let t;
    try {
      t = target(job.url);
    } catch (e) {
      report({ seq: job.seq, error: String((e && e.message) || e), duration_ms: 0 });
      return;
    }
    let lane = lanes.get(t.origin);
    if (!lane) lanes.set(t.origin, (lane = { active: 0, queue: [], head: 0 }));
    if (lane.active < perOrigin) run(job, t, lane);
    else lane.queue.push(job);
  }

  function dequeue(lane) {
    if (lane.head >= lane.queue.length) return undefined;
    const job = lane.queue[lane.head];
    lane.queue[lane.head++] = undefined;
    if (lane.head === lane.queue.length) {
      lane.queue = [];
      lane.head = 0;
    } else if (lane.head >= 1024 && lane.head * 2 >= lane.queue.length) {
      lane.queue = lane.queue.slice(lane.head);
      lane.head = 0;
    }
    return job;
  }

  function run(job, t, lane) {
    lane.active++;
    const t0 = performance.now();
    const a = { abort: null, reason: null, done: false, status: undefined, retryAfter: undefined, received: 0, timer: null };
    const finish = (error) => {
      if (a.done) return;
      a.done = true;
      clearTimeout(a.timer);
      running.delete(a);
      const out = { seq: job.seq, duration_ms: Math.round(performance.now() - t0) };
      if (error !== undefined) out.error = error;
      else {
        out.status_code = a.status;
        if (a.retryAfter !== undefined) out.retry_after = a.retryAfter;
      }
      report(out);
      lane.active--;
      const next = dequeue(lane);
      if (next) run(next, target(next.url), lane);
    };
    a.kill = (reason) => {
      if (a.done) return;
      a.reason = reason;
      if (a.abort) a.abort(reason);
      else finish(reason.message);
    };
    running.add(a);
    a.timer = setTimeout(() => a.kill(new Error('timed out after ' + job.timeout_ms + ' ms')), job.timeout_ms);
    try {
      const at = new Date(job.timestamp * 1000);
      let signature = '';
      for (const s of job.secrets) signature += (signature ? ' ' : '') + signer(s).sign(job.webhook_id, at, job.body);
      dispatcher.dispatch(
        {
          origin: t.origin,
          path: t.path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'paygate-webhooks/1',
            'webhook-id': job.webhook_id,
            'webhook-timestamp': String(job.timestamp),
            'webhook-signature': signature,
            ...(t.auth ? { authorization: t.auth } : {}),
          },
          body: job.body,
        },
        {
          onConnect(abort) {
            if (a.done) abort(a.reason || new Error('aborted'));
            else a.abort = abort;
          },
          onHeaders(statusCode, raw) {
            if (statusCode < 200) return true;
            a.status = statusCode;
            if ((statusCode === 429 || statusCode === 503) && raw) {
              for (let i = 0; i + 1 < raw.length; i += 2) {
                if (String(raw[i]).toLowerCase() === 'retry-after') {
                  a.retryAfter = String(raw[i + 1]);
                  break;
                }
              }
            }
            return true;
          },
          onData(chunk) {
            a.received += chunk.length;
            // A receiver that answers with a huge body: its status counts, the rest is not read.
            if (a.received > MAX_BODY && a.abort) {
              const abort = a.abort;
              finish(undefined);
              abort(new Error('response body too large'));
            }
            return true;
          },
          onComplete() {
            finish(undefined);
          },
          onError(e) {
            if (a.reason) {
              finish(a.reason.message);
              return;
            }
            let error = String((e && e.message) || e);
            const code = (e && e.code) || (e && e.cause && e.cause.code);
            if (code) error = code + ': ' + error;
            finish(error);
          },
        },
      );
    } catch (e) {
      finish(String((e && e.message) || e));
    }
  }

  function abortAll(reason) {
    for (const lane of lanes.values()) {
      for (let job = dequeue(lane); job; job = dequeue(lane)) report({ seq: job.seq, error: reason, duration_ms: 0 });
    }
    for (const a of [...running]) a.kill(new Error(reason));
  }

  return { submit, abortAll };
}`;

interface Deliverer {
  submit(job: AttemptJob): void;
  abortAll(reason: string): void;
}

/** Outcomes are handed back at most this often (ms): one message, and one commit, per batch. */
export const OUTCOME_BATCH_MS = 5;

/** The worker: takes every job it is sent, posts outcomes back in batches. */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.nice) {
  // Linux: this thread only (its id is the one /proc/thread-self names). Elsewhere: normal priority.
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) require('node:os').setPriority(tid, workerData.nice);
  } catch {}
}
const { Agent } = require(workerData.undici);
const { Webhook } = require(workerData.standardwebhooks);
${DELIVERER_SOURCE}
let done = [];
const flush = () => {
  const batch = done;
  done = [];
  parentPort.postMessage(batch);
};
const report = (outcome) => {
  if (done.push(outcome) === 1) setTimeout(flush, workerData.batchMs);
};
const agent = new Agent({ keepAliveTimeout: 1000, connections: workerData.connections });
const deliverer = makeDeliverer(Webhook, agent, workerData.connections, report);
parentPort.on('message', (m) => {
  if (m.abort !== undefined) deliverer.abortAll(m.abort);
  else for (const job of m.jobs) deliverer.submit(job);
});
`;

const requireHere = createRequire(import.meta.url);
/** Connections per origin the attempts may open (the worker's undici Agent). */
export const DELIVERY_CONNECTIONS = 16;
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
    w.postMessage({ jobs });
  }

  abortAll(reason: string): void {
    this.worker?.postMessage({ abort: reason });
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private spawn(): Worker {
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { undici: requireHere.resolve('undici'), standardwebhooks: requireHere.resolve('standardwebhooks'), connections: DELIVERY_CONNECTIONS, batchMs: OUTCOME_BATCH_MS, nice: DELIVERY_NICE },
    });
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
    const make = new Function('Webhook', 'dispatcher', 'perOrigin', 'report', `${DELIVERER_SOURCE}\nreturn makeDeliverer(Webhook, dispatcher, perOrigin, report);`);
    this.deliverer = make(Webhook, dispatcher, DELIVERY_CONNECTIONS, (o: AttemptOutcome) => this.report(o)) as Deliverer;
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
