// The attempts themselves: sign (node:crypto HMAC, src/webhooks `signature`) and POST (undici's low-level
// dispatch(): no response stream, no AbortSignal, the body discarded as it arrives), at most `perOrigin` on the wire
// per origin, the rest in line. Run by the delivery worker thread (delivery-worker.ts) over its own Agent, or
// in-thread over a caller's dispatcher (worker.ts); the outbox reads and writes the store, never this.
//
// Measured for the sends (test/bench/receiver.mjs on loopback, 16 connections, 1.1 KB bodies, client CPU per POST,
// median of 5 × 20,000): undici Agent.dispatch 22.8 µs, a pooled keep-alive node:http Agent 44.0 µs; undici with
// pipelining (4 × 8, 2 × 16) made no difference (24.0–24.9 µs). Signing with node:crypto: 4.8–10 µs per signature
// against 21.8–34 µs for the standardwebhooks package (pure JavaScript SHA-256), the same bytes (the tests verify
// every delivery with standardwebhooks).
import type { Dispatcher } from 'undici';
import { signature } from '../../webhooks/index.js';

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

export interface Deliverer {
  submit(job: AttemptJob): void;
  /** Fail what waits in line and abort what is on the wire (their outcomes are reported, as errors). */
  abortAll(reason: string): void;
}

interface Target {
  origin: string;
  path: string;
  auth: string | undefined;
}

interface Lane {
  active: number;
  queue: (AttemptJob | undefined)[];
  head: number;
}

/** An attempt on the wire. */
interface Running {
  abort: ((reason: Error) => void) | null;
  reason: Error | null;
  done: boolean;
  kill(reason: Error): void;
}

/** Most response body bytes read; past them the status counts and the connection is dropped. */
const MAX_BODY = 64 * 1024;
/** Most URLs whose parse is kept. */
const MAX_TARGETS = 1000;

const message = (e: unknown): string => String((e as Error | undefined)?.message ?? e);

/** `webhook-signature`: one `v1,<base64>` per secret, space-separated. */
export function signatures(job: AttemptJob): string {
  let out = '';
  for (const s of job.secrets) out += (out ? ' ' : '') + signature(s, job.webhook_id, job.timestamp, job.body);
  return out;
}

function parseTarget(url: string): Target {
  const u = new URL(url);
  // Credentials in the URL are sent as Basic auth (undici would drop them), never as part of the path.
  const auth = u.username || u.password ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}` : undefined;
  return { origin: u.origin, path: u.pathname + u.search, auth };
}

function headersOf(job: AttemptJob, t: Target): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'paygate-webhooks/1',
    'webhook-id': job.webhook_id,
    'webhook-timestamp': String(job.timestamp),
    'webhook-signature': signatures(job),
  };
  if (t.auth) h.authorization = t.auth;
  return h;
}

function retryAfterOf(raw: Buffer[] | string[] | null): string | undefined {
  if (!raw) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) if (String(raw[i]).toLowerCase() === 'retry-after') return String(raw[i + 1]);
  return undefined;
}

function dequeue(lane: Lane): AttemptJob | undefined {
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

/** What an attempt on the wire has heard so far, and how it ends (once). */
interface Wire extends Running {
  status: number | undefined;
  retryAfter: string | undefined;
  received: number;
  finish(error: string | undefined): void;
}

/** undici's handler of one attempt: the status and Retry-After are kept, the body counted and dropped. */
function handlerOf(a: Wire): Dispatcher.DispatchHandler {
  return {
    onConnect(abort) {
      if (a.done) abort(a.reason ?? new Error('aborted'));
      else a.abort = abort;
    },
    onHeaders(statusCode, raw) {
      if (statusCode < 200) return true;
      a.status = statusCode;
      if (statusCode === 429 || statusCode === 503) a.retryAfter = retryAfterOf(raw);
      return true;
    },
    onData(chunk) {
      a.received += chunk.length;
      // A receiver that answers with a huge body: its status counts, the rest is not read.
      if (a.received > MAX_BODY && a.abort) {
        const abort = a.abort;
        a.finish(undefined);
        abort(new Error('response body too large'));
      }
      return true;
    },
    onComplete() {
      a.finish(undefined);
    },
    onError(e) {
      if (a.reason) return a.finish(a.reason.message);
      const err = e as Error & { code?: string; cause?: { code?: string } };
      const code = err?.code ?? err?.cause?.code;
      a.finish(code ? `${code}: ${message(e)}` : message(e));
    },
  };
}

/** The attempts over `dispatcher`; every outcome goes to `report`, exactly once per submitted job. */
export class AttemptLanes implements Deliverer {
  private readonly targets = new Map<string, Target>();
  private readonly lanes = new Map<string, Lane>();
  private readonly running = new Set<Running>();

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly perOrigin: number,
    private readonly report: (o: AttemptOutcome) => void,
  ) {}

  private target(url: string): Target {
    let t = this.targets.get(url);
    if (!t) {
      if (this.targets.size > MAX_TARGETS) this.targets.clear();
      t = parseTarget(url);
      this.targets.set(url, t);
    }
    return t;
  }

  submit(job: AttemptJob): void {
    let t: Target;
    try {
      t = this.target(job.url);
    } catch (e) {
      this.report({ seq: job.seq, error: message(e), duration_ms: 0 });
      return;
    }
    let lane = this.lanes.get(t.origin);
    if (!lane) this.lanes.set(t.origin, (lane = { active: 0, queue: [], head: 0 }));
    if (lane.active < this.perOrigin) this.run(job, t, lane);
    else lane.queue.push(job);
  }

  abortAll(reason: string): void {
    for (const lane of this.lanes.values()) {
      for (let job = dequeue(lane); job; job = dequeue(lane)) this.report({ seq: job.seq, error: reason, duration_ms: 0 });
    }
    for (const a of [...this.running]) a.kill(new Error(reason));
  }

  private run(job: AttemptJob, t: Target, lane: Lane): void {
    lane.active++;
    const t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const a: Wire = {
      abort: null,
      reason: null,
      done: false,
      status: undefined,
      retryAfter: undefined,
      received: 0,
      kill: (reason) => {
        if (a.done) return;
        a.reason = reason;
        if (a.abort) a.abort(reason);
        else a.finish(reason.message);
      },
      finish: (error) => {
        if (a.done) return;
        a.done = true;
        clearTimeout(timer);
        this.running.delete(a);
        const out: AttemptOutcome = { seq: job.seq, duration_ms: Math.round(performance.now() - t0) };
        if (error !== undefined) out.error = error;
        else {
          out.status_code = a.status!;
          if (a.retryAfter !== undefined) out.retry_after = a.retryAfter;
        }
        this.report(out);
        lane.active--;
        const next = dequeue(lane);
        if (next) this.run(next, this.target(next.url), lane);
      },
    };
    this.running.add(a);
    timer = setTimeout(() => a.kill(new Error(`timed out after ${job.timeout_ms} ms`)), job.timeout_ms);
    try {
      this.dispatcher.dispatch({ origin: t.origin, path: t.path, method: 'POST', headers: headersOf(job, t), body: job.body }, handlerOf(a));
    } catch (e) {
      a.finish(message(e));
    }
  }
}

/** The attempts over `dispatcher`; every outcome goes to `report`, exactly once per submitted job. */
export function makeDeliverer(dispatcher: Dispatcher, perOrigin: number, report: (o: AttemptOutcome) => void): Deliverer {
  return new AttemptLanes(dispatcher, perOrigin, report);
}
