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
  send(event: string, data: unknown): void;
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

/**
 * A bounded event stream for `credential` (throws 429 streams_busy / 503 streams_full when over the gate's limits).
 * `res`, the Node response when there is a socket, lets the bound count what waits in the socket's write buffer.
 */
export function eventStream(gate: StreamGate, credential: string, res: ServerResponse | undefined, open: (sink: EventSink) => () => void): Response {
  const release = gate.admit(credential);
  const { maxBufferedBytes, maxBufferedEvents, heartbeatMs } = gate.limits;
  let queue: Uint8Array[] = [];
  let queued = 0;
  /** A read is waiting for the next chunk (the socket took everything so far). */
  let wanted = false;
  /** No more events (ended, dropped or cancelled); `ending`: ended by the feed, the queue still draining. */
  let stopped = false;
  let ending = false;
  let finished = false;
  let cleanup: (() => void) | undefined;
  /** The bounds; while opening none (a backlog the client asked for is bounded by its query), then widened by it. */
  let limitBytes = Infinity;
  let limitEvents = Infinity;
  let controller!: ReadableStreamDefaultController<Uint8Array>;

  const heartbeat = setInterval(() => (ending ? drop() : push(KEEP_ALIVE)), heartbeatMs);
  heartbeat.unref();
  /** Stop feeding: remove the listener (once). */
  const stop = () => {
    if (stopped) return;
    stopped = true;
    const c = cleanup;
    cleanup = undefined;
    c?.();
  };
  /** Let go of everything the stream holds. */
  const finish = () => {
    if (finished) return;
    finished = true;
    stop();
    clearInterval(heartbeat);
    queue = [];
    queued = 0;
    release();
  };
  /** The client fell behind: close its connection and let go of what it had waiting. */
  const drop = () => {
    if (finished) return;
    gate.dropped++;
    finish();
    controller.error(new Error('event stream client fell behind'));
    res?.destroy();
  };
  const push = (chunk: Uint8Array) => {
    if (finished) return;
    if (wanted) {
      wanted = false;
      controller.enqueue(chunk);
    } else {
      queue.push(chunk);
      queued += chunk.byteLength;
    }
    if (queued + (res?.writableLength ?? 0) > limitBytes || queue.length > limitEvents) drop();
  };
  const close = () => {
    finish();
    controller.close();
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        push(OPENING);
        cleanup = open({
          send(event, data) {
            if (!stopped) push(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          },
          end() {
            if (stopped) return;
            stop();
            ending = true;
            if (queue.length === 0) close();
          },
        });
        // What the opening queued (a requested backlog) is let through on top of the bounds.
        limitBytes = maxBufferedBytes + queued;
        limitEvents = maxBufferedEvents + queue.length;
        // The feed ended while it was opening: its listener goes at once.
        if (stopped) {
          const c = cleanup;
          cleanup = undefined;
          c?.();
        }
      },
      pull(c) {
        const next = queue.shift();
        if (next === undefined) {
          wanted = true;
          return;
        }
        queued -= next.byteLength;
        c.enqueue(next);
        if (ending && queue.length === 0) close();
      },
      cancel: finish,
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
  });
}
