// The proxy's server-sent event streams (`ops watch`, `logs tail` pointed at it), bounded as the sandbox's are
// (src/emulator/http/stream-gate.ts, sse.ts): a credential may have 16 open (one more is 429 streams_busy), the proxy
// 512 (503 streams_full), both with Retry-After; a client that lets more than 64 KiB or 256 events wait in its
// socket is dropped (it may reconnect); a comment every 15 s keeps intermediaries from timing the stream out.
import type { ServerResponse } from 'node:http';

export const PROXY_STREAM_LIMITS = {
  maxBufferedBytes: 64 * 1024,
  maxBufferedEvents: 256,
  perCredential: 16,
  total: 512,
  heartbeatMs: 15_000,
};
const RETRY_AFTER_S = 5;

export interface EventSink {
  send(event: string, data: unknown, id?: string): void;
  /** End the stream (the watched operation is terminal). */
  end(): void;
}

/** A refusal of the gate: status, code, message, and the Retry-After to send. */
export interface StreamRefusal {
  status: 429 | 503;
  code: string;
  message: string;
}

export class ProxyStreamGate {
  readonly #open = new Map<string, number>();
  #total = 0;
  dropped = 0;

  constructor(readonly limits = PROXY_STREAM_LIMITS) {}

  size(): number {
    return this.#total;
  }

  /** A place for a stream of `credential` (released by the function returned), or the refusal. */
  admit(credential: string): (() => void) | StreamRefusal {
    const { perCredential, total } = this.limits;
    if ((this.#open.get(credential) ?? 0) >= perCredential) {
      return {
        status: 429,
        code: 'streams_busy',
        message: `this credential already has ${perCredential} event streams open; close one, or retry in ${RETRY_AFTER_S} s`,
      };
    }
    if (this.#total >= total) {
      return {
        status: 503,
        code: 'streams_full',
        message: `the proxy already has ${total} event streams open; retry in ${RETRY_AFTER_S} s`,
      };
    }
    this.#open.set(credential, (this.#open.get(credential) ?? 0) + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const n = (this.#open.get(credential) ?? 1) - 1;
      if (n > 0) this.#open.set(credential, n);
      else this.#open.delete(credential);
    };
  }
}

/**
 * Answer `res` with an event stream for `credential` fed by `open` (which returns its cleanup), or with the gate's
 * 429/503. The cleanup runs once, whichever way the stream ends.
 */
export function serveEventStream(
  gate: ProxyStreamGate,
  credential: string,
  res: ServerResponse,
  open: (sink: EventSink) => () => void,
): void {
  const place = gate.admit(credential);
  if (typeof place !== 'function') {
    const text = JSON.stringify({ code: place.code, message: place.message });
    res.writeHead(place.status, { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_S) });
    res.end(text);
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  res.write(': paygate stream\n\n');
  let waiting = 0;
  let cleanup: (() => void) | undefined;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearInterval(heartbeat);
    place();
    const c = cleanup;
    cleanup = undefined;
    c?.();
  };
  const write = (chunk: string) => {
    if (done) return;
    if (!res.write(chunk)) waiting++;
    const { maxBufferedBytes, maxBufferedEvents } = gate.limits;
    if (res.writableLength > maxBufferedBytes || waiting > maxBufferedEvents) {
      gate.dropped++;
      finish();
      res.destroy();
    }
  };
  res.on('drain', () => (waiting = 0));
  res.on('close', finish);
  const heartbeat = setInterval(() => write(': keep-alive\n\n'), gate.limits.heartbeatMs);
  heartbeat.unref();
  cleanup = open({
    send: (event, data, id) =>
      write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    end: () => {
      if (done) return;
      finish();
      res.end();
    },
  });
  if (done) {
    const c = cleanup;
    cleanup = undefined;
    c?.();
  }
}
