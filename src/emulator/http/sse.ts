// Every server-sent events response of the sandbox (text/event-stream) goes through here, bounded: `open` starts
// feeding it and returns its cleanup, which runs when the client goes away, the feed ends it, the client falls
// behind, or the sandbox closes the connection. A comment line every `heartbeatMs` keeps proxies from timing the
// stream out.
//
// Bounds (src/emulator/server-limits.ts): a stream hands its events to the socket only as fast as the client reads
// them; what waits is kept in the stream's own queue, and once that queue plus the socket's write buffer holds more
// than `maxBufferedBytes`, or more than `maxBufferedEvents` events wait, the client is dropped (its connection is
// closed, its listener removed, its queue let go): it may reconnect. Each credential may have `perCredential`
// streams open (one more is 429 streams_busy) and the server `total` (503 streams_full), both with Retry-After.
import type { ServerResponse } from 'node:http';
import type { H3Event } from 'h3';
import type { StreamGate } from './stream-gate.js';

export interface EventSink {
  /** Send one event; with `id`, a client that reconnects names the last it received (Last-Event-ID). */
  send(event: string, data: unknown, id?: string): void;
  /** End the stream (the watched operation reached a terminal status). */
  end(): void;
}

/** The Node response under an h3 event, when it came over a socket (not in process). */
export function nodeResponseOf(event: H3Event): ServerResponse | undefined {
  return (event.runtime as { node?: { res?: ServerResponse } } | undefined)?.node?.res;
}

const encoder = new TextEncoder();
const OPENING = encoder.encode(': paygate stream\n\n');
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/** How long events wait to go out together, in ms: one write per stream per interval rather than one per event. */
const COALESCE_MS = 100;

/** The streams with events waiting to go out, flushed together by one timer. */
const dirty = new Set<BoundedStream>();
let flushTimer: NodeJS.Timeout | undefined;
function scheduleFlush(stream: BoundedStream): void {
  dirty.add(stream);
  if (flushTimer) return;
  flushTimer = setTimeout(() => {
    flushTimer = undefined;
    const streams = [...dirty];
    dirty.clear();
    const joined = new SharedJoin();
    for (const s of streams) s.flush(joined);
  }, COALESCE_MS);
  flushTimer.unref();
}

/** @internal Streams with events waiting for the next flush: none once every stream has closed. */
export function streamsAwaitingFlush(): number {
  return dirty.size;
}

/**
 * The chunks of one flush, joined once for every stream that was sent the same events in the interval (every
 * subscriber of one feed is): a stream's chunk is made of the event bytes the streams share, so 600 streams that
 * do not read hold 600 references to one chunk, not 600 copies of it (copies that, once freed, the allocator kept).
 */
class SharedJoin {
  readonly #byFirst = new Map<Uint8Array, Array<{ parts: Uint8Array[]; bytes: Uint8Array }>>();

  /** `parts` (`length` bytes) as one chunk: the one made already for the same parts, or a new one. */
  join(parts: Uint8Array[], length: number): Uint8Array {
    const first = parts[0]!;
    const made = this.#byFirst.get(first);
    const same = made?.find((m) => m.parts.length === parts.length && m.parts.every((p, i) => p === parts[i]));
    if (same) return same.bytes;
    const bytes = Buffer.concat(parts, length);
    if (made) made.push({ parts, bytes });
    else this.#byFirst.set(first, [{ parts, bytes }]);
    return bytes;
  }
}

/**
 * An event's bytes, made once for every stream it is sent to: the streams a change is sent to get it in one turn,
 * so the last event encoded is kept until the end of that turn, and no longer. (Kept beside the entry or row it was
 * made from, as it once was, the bytes of every event a stream had ever been sent lived as long as the request log's
 * ring kept its entry, streams closed or not.)
 */
let last: { data: object; event: string; id: string | undefined; bytes: Uint8Array } | undefined;
const forget = () => (last = undefined);
function encodeEvent(event: string, data: unknown, id: string | undefined): Uint8Array {
  if (last !== undefined && last.data === data && last.event === event && last.id === id) return last.bytes;
  const bytes = encoder.encode(
    `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
  );
  if (typeof data === 'object' && data !== null) {
    if (last === undefined) queueMicrotask(forget);
    last = { data, event, id, bytes };
  }
  return bytes;
}

/**
 * One stream's state and what waits for its client: `pending`, the events of the current interval; `queue`, the
 * chunks flushed but not yet taken by the socket (each with its count of events).
 */
class BoundedStream {
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #queue: Array<{ bytes: Uint8Array; events: number }> = [];
  #queuedBytes = 0;
  #queuedEvents = 0;
  /** A read is waiting for the next chunk (the socket took everything so far). */
  #wanted = false;
  /** No more events (ended, dropped or cancelled). */
  #stopped = false;
  /** Ended by the feed, the queue still draining. */
  #ending = false;
  #finished = false;
  #cleanup: (() => void) | undefined;
  /** The bounds; while opening none (a backlog the client asked for is bounded by its query), then widened by it. */
  #limitBytes = Infinity;
  #limitEvents = Infinity;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    private readonly gate: StreamGate,
    private readonly release: () => void,
    private readonly res: ServerResponse | undefined,
  ) {
    this.#heartbeat = setInterval(() => (this.#ending ? this.drop() : this.push(KEEP_ALIVE)), gate.limits.heartbeatMs);
    this.#heartbeat.unref();
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>, open: (sink: EventSink) => () => void): void {
    this.#controller = controller;
    this.push(OPENING);
    this.#cleanup = open({
      send: (event, data, id) => {
        if (!this.#stopped) this.push(encodeEvent(event, data, id));
      },
      end: () => {
        if (this.#stopped) return;
        this.stop();
        this.#ending = true;
        this.flush();
      },
    });
    // What the opening sent (a requested backlog) is let through on top of the bounds, and goes out at once.
    this.#limitBytes = this.gate.limits.maxBufferedBytes + this.#pendingBytes;
    this.#limitEvents = this.gate.limits.maxBufferedEvents + this.#pending.length;
    this.flush();
    // The feed ended while it was opening: its listener goes at once.
    if (this.#stopped) this.takeCleanup()?.();
  }

  /**
   * Move the events of the interval into the queue as one chunk (to the waiting read, if any); `joined`, the
   * chunks the other streams of the same flush were given.
   */
  flush(joined?: SharedJoin): void {
    if (this.#finished) return;
    const events = this.#pending.length;
    if (events > 0) {
      const bytes =
        events === 1
          ? this.#pending[0]!
          : (joined?.join(this.#pending, this.#pendingBytes) ?? Buffer.concat(this.#pending, this.#pendingBytes));
      this.#pending = [];
      this.#pendingBytes = 0;
      if (this.#wanted) {
        this.#wanted = false;
        this.#controller.enqueue(bytes);
      } else {
        this.#queue.push({ bytes, events });
        this.#queuedBytes += bytes.byteLength;
        this.#queuedEvents += events;
      }
    }
    if (this.#ending && this.#queue.length === 0) this.close();
  }

  /** The client reads: hand it the oldest chunk waiting, or the next one flushed. */
  pull(): void {
    const next = this.#queue.shift();
    if (next === undefined) {
      this.#wanted = true;
      return;
    }
    this.#queuedBytes -= next.bytes.byteLength;
    this.#queuedEvents -= next.events;
    this.#controller.enqueue(next.bytes);
    if (this.#ending && this.#queue.length === 0) this.close();
  }

  /** Let go of everything the stream holds: its listener, heartbeat, queue and place. Idempotent. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.stop();
    clearInterval(this.#heartbeat);
    dirty.delete(this);
    this.#pending = [];
    this.#queue = [];
    this.#pendingBytes = this.#queuedBytes = this.#queuedEvents = 0;
    this.release();
  }

  private takeCleanup(): (() => void) | undefined {
    const c = this.#cleanup;
    this.#cleanup = undefined;
    return c;
  }

  /** Stop feeding: remove the listener (once). */
  private stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.takeCleanup()?.();
  }

  /** The client fell behind: close its connection and let go of what it had waiting. */
  private drop(): void {
    if (this.#finished) return;
    this.gate.dropped++;
    this.finish();
    this.#controller.error(new Error('event stream client fell behind'));
    this.res?.destroy();
  }

  private push(chunk: Uint8Array): void {
    if (this.#finished) return;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    const bytes = this.#pendingBytes + this.#queuedBytes + (this.res?.writableLength ?? 0);
    if (bytes > this.#limitBytes || this.#pending.length + this.#queuedEvents > this.#limitEvents) this.drop();
    else if (this.#pending.length === 1) scheduleFlush(this);
  }

  private close(): void {
    this.finish();
    this.#controller.close();
  }
}

/**
 * A bounded event stream for `credential` (throws 429 streams_busy / 503 streams_full when over the gate's limits).
 * `res`, the Node response when there is a socket, lets the bound count what waits in the socket's write buffer.
 */
export function eventStream(
  gate: StreamGate,
  credential: string,
  res: ServerResponse | undefined,
  open: (sink: EventSink) => () => void,
): Response {
  const stream = new BoundedStream(gate, gate.admit(credential), res);
  const body = new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        try {
          stream.start(controller, open);
        } catch (e) {
          stream.finish();
          throw e;
        }
      },
      pull: () => stream.pull(),
      cancel: () => stream.finish(),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}
