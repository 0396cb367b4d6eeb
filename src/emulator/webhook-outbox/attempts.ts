// The attempts themselves: sign (node:crypto HMAC, src/webhooks `signature`) and POST (undici's low-level
// dispatch(): no response stream, no AbortSignal, the body discarded as it arrives), at most `perOrigin` on the wire
// per origin, the rest in line. Run by the delivery worker thread (delivery-thread.ts) over its own Agents, or
// in-thread over a caller's dispatcher (attempt-runner.ts); the outbox reads and writes the store, never this.
//
// An origin's attempts go one per connection until it has given PROBATION clean answers in a row (any status, the
// connection kept open), then HTTP/1.1-pipelined: several requests on the wire per connection, each its own request,
// and the requests of one batch in one write. A `Connection: close` answer, a network error or a timeout sends it
// back to one per connection (a pipelined request lost with its connection is re-sent by undici, or recorded as
// failed and retried: delivered at least once either way).
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
  /**
   * Unix seconds of the attempt, WALL time (never the sandbox clock): the `webhook-timestamp` header, signed over.
   * Stock verifiers (standardwebhooks, svix) reject one more than 5 minutes from their own clock.
   */
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

/** Where attempts go: an undici dispatcher and how many attempts it takes on the wire per origin. */
export interface Route {
  dispatcher: Dispatcher;
  perOrigin: number;
}

/**
 * `plain`: one request per connection. `pipelined` (optional): the dispatcher of origins that behave. `batch`
 * (optional): runs `fn`, which dispatches several attempts, so that their writes leave together (the worker corks
 * its sockets around it).
 */
export interface Routes {
  plain: Route;
  pipelined?: Route;
  batch?: (fn: () => void) => void;
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
  /** Attempts go pipelined (there is a pipelined route, and the origin has behaved). */
  pipelined: boolean;
  /** Clean answers in a row while not pipelined. */
  clean: number;
}

/** Most response body bytes read; past them the status counts and the connection is dropped. */
const MAX_BODY = 64 * 1024;
/** Most URLs whose parse is kept. */
const MAX_TARGETS = 1000;
/** Clean answers in a row (any status, the connection kept open) after which an origin's attempts are pipelined. */
export const PROBATION = 64;
const CONNECTION = 'connection';

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
  const auth =
    u.username || u.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`
      : undefined;
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

/** The value of header `name` (lower case) in undici's raw [name, value, ...] list. */
function headerOf(raw: Buffer[] | string[] | null, name: string): string | undefined {
  if (!raw) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.length === name.length && String(raw[i]).toLowerCase() === name) return String(raw[i + 1]);
  }
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

/** One attempt on the wire, and undici's handler of it: the status and Retry-After kept, the body counted and dropped. */
class Attempt implements Dispatcher.DispatchHandler {
  abort: ((reason: Error) => void) | null = null;
  reason: Error | null = null;
  done = false;
  status: number | undefined = undefined;
  retryAfter: string | undefined = undefined;
  /** The receiver asked to close the connection. */
  closes = false;
  received = 0;
  readonly t0 = performance.now();
  readonly deadline: number;

  constructor(
    readonly job: AttemptJob,
    readonly lane: Lane,
    private readonly lanes: AttemptLanes,
  ) {
    this.deadline = this.t0 + job.timeout_ms;
  }

  kill(reason: Error): void {
    if (this.done) return;
    this.reason = reason;
    if (this.abort) this.abort(reason);
    else this.finish(reason.message);
  }

  finish(error: string | undefined): void {
    if (this.done) return;
    this.done = true;
    this.lanes.finished(this, error);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.done) abort(this.reason ?? new Error('aborted'));
    else this.abort = abort;
  }

  onHeaders(statusCode: number, raw: Buffer[] | string[] | null): boolean {
    if (statusCode < 200) return true;
    this.status = statusCode;
    if (statusCode === 429 || statusCode === 503) this.retryAfter = headerOf(raw, 'retry-after');
    this.closes = headerOf(raw, CONNECTION)?.toLowerCase() === 'close';
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.received += chunk.length;
    // A receiver that answers with a huge body: its status counts, the rest is not read.
    if (this.received > MAX_BODY && this.abort) {
      const abort = this.abort;
      this.finish(undefined);
      abort(new Error('response body too large'));
    }
    return true;
  }

  onComplete(): void {
    this.finish(undefined);
  }

  onError(e: Error): void {
    if (this.reason) return this.finish(this.reason.message);
    const err = e as Error & { code?: string; cause?: { code?: string } };
    const code = err?.code ?? err?.cause?.code;
    this.finish(code ? `${code}: ${message(e)}` : message(e));
  }
}

/** The attempts over `routes`; every outcome goes to `report`, exactly once per submitted job. */
export class AttemptLanes implements Deliverer {
  private readonly targets = new Map<string, Target>();
  private readonly lanes = new Map<string, Lane>();
  private readonly running = new Set<Attempt>();
  /** One timer for every attempt's timeout, at the earliest deadline. */
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  /** Lanes with attempts in line and room on the wire, started together on the next turn (see refill). */
  private readonly toRefill = new Set<Lane>();

  constructor(
    private readonly routes: Routes,
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

  private limit(lane: Lane): number {
    return lane.pipelined ? this.routes.pipelined!.perOrigin : this.routes.plain.perOrigin;
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
    if (!lane) this.lanes.set(t.origin, (lane = { active: 0, queue: [], head: 0, pipelined: false, clean: 0 }));
    if (lane.active < this.limit(lane)) this.run(job, t, lane);
    else lane.queue.push(job);
  }

  abortAll(reason: string): void {
    for (const lane of this.lanes.values()) {
      for (let job = dequeue(lane); job; job = dequeue(lane))
        this.report({ seq: job.seq, error: reason, duration_ms: 0 });
    }
    for (const a of [...this.running]) a.kill(new Error(reason));
  }

  private run(job: AttemptJob, t: Target, lane: Lane): void {
    lane.active++;
    const a = new Attempt(job, lane, this);
    this.running.add(a);
    if (a.deadline < this.timerAt) this.arm(a.deadline);
    try {
      const opts: Dispatcher.DispatchOptions = {
        origin: t.origin,
        path: t.path,
        method: 'POST',
        headers: headersOf(job, t),
        body: job.body,
      };
      if (lane.pipelined) {
        // Pipelined: undici writes it behind others on a connection (idempotent, not blocking: delivered at least once).
        opts.idempotent = true;
        opts.blocking = false;
      }
      (lane.pipelined ? this.routes.pipelined! : this.routes.plain).dispatcher.dispatch(opts, a);
    } catch (e) {
      a.finish(message(e));
    }
  }

  /** An attempt ended (once): report it, adjust its lane's route, start the next in line. */
  finished(a: Attempt, error: string | undefined): void {
    this.running.delete(a);
    if (this.running.size === 0) {
      clearTimeout(this.timer);
      this.timerAt = Infinity;
    }
    const lane = a.lane;
    const out: AttemptOutcome = { seq: a.job.seq, duration_ms: Math.round(performance.now() - a.t0) };
    if (error !== undefined) out.error = error;
    else {
      out.status_code = a.status!;
      if (a.retryAfter !== undefined) out.retry_after = a.retryAfter;
    }
    if (error !== undefined || a.closes) {
      lane.pipelined = false;
      lane.clean = 0;
    } else if (!lane.pipelined && this.routes.pipelined && ++lane.clean >= PROBATION) {
      lane.pipelined = true;
    }
    this.report(out);
    lane.active--;
    if (lane.head < lane.queue.length && this.toRefill.add(lane).size === 1) setImmediate(() => this.refill());
  }

  /**
   * Start what waits in line, as far as there is room: once a turn, for every lane at once (in one batch), not one
   * attempt per answer — so the requests that follow answers leave in one write per connection too.
   */
  private refill(): void {
    const lanes = [...this.toRefill];
    this.toRefill.clear();
    const run = () => {
      for (const lane of lanes) {
        while (lane.active < this.limit(lane)) {
          const next = dequeue(lane);
          if (!next) break;
          this.run(next, this.target(next.url), lane);
        }
      }
    };
    if (this.routes.batch) this.routes.batch(run);
    else run();
  }

  /** (Re)arm the one timeout timer for `at`; when it fires, every attempt past its deadline is killed. */
  private arm(at: number): void {
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - performance.now()));
  }

  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const a of [...this.running]) {
      if (a.deadline <= now) a.kill(new Error(`timed out after ${a.job.timeout_ms} ms`));
      else if (a.deadline < next) next = a.deadline;
    }
    if (next < Infinity) this.arm(next);
  }
}

/** The attempts over `routes` (or one dispatcher, one request per connection); every outcome goes to `report`, exactly once per submitted job. */
export function makeDeliverer(routes: Routes, report: (o: AttemptOutcome) => void): Deliverer {
  return new AttemptLanes(routes, report);
}
