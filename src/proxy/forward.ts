// Forwarding one request to the upstream and its answer back, unchanged but for the hop-by-hop headers: the body
// streamed both ways through undici (a keep-alive Pool to the upstream), a bounded copy of each kept for the
// Exchange. An upstream that cannot be reached (or breaks off before answering) is a 502 with a JSON body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { RawHeaders, SeenRequest, SeenResponse } from './exchange.js';

/** Headers that describe one connection, not the message (RFC 9110 §7.6.1), and `host`: never forwarded. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  // undici refuses it; Node's server has already answered any 100-continue.
  'expect',
]);

/** Keeps the first `limit` bytes of a stream it passes through unchanged. */
export class Capture {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #seen = 0;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    this.#seen += chunk.length;
    if (this.#kept >= this.limit) return;
    const part = this.#kept + chunk.length > this.limit ? chunk.subarray(0, this.limit - this.#kept) : chunk;
    this.#chunks.push(part);
    this.#kept += part.length;
  }
  get complete(): boolean {
    return this.#seen === this.#kept;
  }
  get bytes(): Buffer | undefined {
    return this.#kept === 0 ? undefined : Buffer.concat(this.#chunks, this.#kept);
  }
  /** A pass-through stream that keeps what flows through it. */
  tap(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.add(chunk);
        done(null, chunk);
      },
    });
  }
}

/** The caller's raw headers (names as sent, in order) without the hop-by-hop ones and those `connection` names. */
export function forwardedHeaders(raw: readonly string[], connection: string | undefined): string[] {
  const named = new Set((connection ?? '').split(',').map((s) => s.trim().toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** The upstream's answer headers without the hop-by-hop ones. */
export function answerHeaders(headers: RawHeaders): Record<string, string | string[]> {
  const c = headers.connection;
  const named = new Set((Array.isArray(c) ? c.join(',') : (c ?? '')).split(',').map((s) => s.trim().toLowerCase()));
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export interface Forwarded {
  request: SeenRequest;
  /** Undefined when the upstream could not be reached (the caller got a 502). */
  response: SeenResponse | undefined;
  /** Why the upstream could not be reached, or broke off. */
  error?: string;
  /** The caller closed its connection before the answer was sent: nothing to report of the upstream. */
  callerGone?: boolean;
}

/** Send `req` on to the upstream (its path prefixed by `prefix`) and stream the answer back into `res`. */
export async function forward(
  pool: Dispatcher,
  prefix: string,
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  upstreamName: string,
): Promise<Forwarded> {
  const reqCapture = new Capture(limit);
  const target = req.url ?? '/';
  const seenRequest = (): SeenRequest => ({
    method: req.method ?? 'GET',
    target,
    headers: req.headers,
    body: reqCapture.bytes,
    complete: reqCapture.complete,
  });
  let answered = false;
  try {
    const up = await pool.request({
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      path: prefix + target,
      headers: forwardedHeaders(req.rawHeaders, req.headers.connection),
      body: hasBody(req) ? req.pipe(reqCapture.tap()) : null,
    });
    answered = true;
    const resCapture = new Capture(limit);
    res.writeHead(up.statusCode, answerHeaders(up.headers));
    // A caller that goes away mid-answer: stop reading the upstream (the loop below then ends).
    res.once('close', () => {
      if (!res.writableFinished) up.body.destroy();
    });
    for await (const chunk of up.body as AsyncIterable<Buffer>) {
      resCapture.add(chunk);
      if (!res.write(chunk)) await drained(res);
      // The caller went away: stop reading the upstream's answer (the loop's exit destroys it).
      if (res.destroyed) throw new Error('the caller closed the connection before the answer was sent');
    }
    res.end();
    const response = {
      status: up.statusCode,
      headers: up.headers,
      body: resCapture.bytes,
      complete: resCapture.complete,
    };
    return { request: seenRequest(), response };
  } catch (e) {
    const why = reason(e);
    const callerGone = res.destroyed || res.socket?.destroyed === true;
    if (!answered && !res.headersSent && !callerGone) badGateway(res, upstreamName, why);
    else res.destroy();
    return { request: seenRequest(), response: undefined, error: why, ...(callerGone ? { callerGone } : {}) };
  }
}

/** Until `res` can take more, or is closed (a caller that went away never drains). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

function reason(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return err.cause?.code ?? err.code ?? err.cause?.message ?? err.message ?? String(e);
}

/** The caller's answer when the upstream cannot be reached: 502 and a JSON body saying so. */
function badGateway(res: ServerResponse, upstream: string, why: string): void {
  const body = JSON.stringify({
    code: 'upstream_unreachable',
    message: `paygate proxy could not reach the upstream ${upstream}: ${why}`,
  });
  res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
