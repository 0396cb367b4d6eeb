// The proxy's server-sent event streams (`ops watch`, `logs tail` pointed at it), bounded by the sandbox's own stream
// gate (src/emulator/http/stream-gate.ts) and limits: a credential may have 16 open (one more is 429 streams_busy), the proxy
// 512 (503 streams_full), both with Retry-After; a client that lets more than 64 KiB or 256 events wait in its
// socket is dropped (it may reconnect); a comment every 15 s keeps intermediaries from timing the stream out.
import type { ServerResponse } from 'node:http';
import { ApiError } from '../emulator/http/errors.js';
import { StreamGate } from '../emulator/http/stream-gate.js';
import { DEFAULT_STREAM_LIMITS } from '../emulator/server-limits.js';

/** The proxy's limits: the sandbox's defaults. */
export const PROXY_STREAM_LIMITS = DEFAULT_STREAM_LIMITS;

export interface EventSink {
  send(event: string, data: unknown, id?: string): void;
  /** End the stream (the watched operation is terminal). */
  end(): void;
}

/** The sandbox's stream gate, its 503 naming the proxy. */
export class ProxyStreamGate extends StreamGate {
  constructor(limits = PROXY_STREAM_LIMITS) {
    super(limits, 'the proxy');
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
  let place: () => void;
  try {
    place = gate.admit(credential);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    res.writeHead(e.status, { 'content-type': 'application/json', ...e.headers });
    res.end(JSON.stringify({ code: e.code, message: e.message }));
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
