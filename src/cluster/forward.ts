// Forwarding a request to the process that owns its workspace: one undici Pool per address (kept-alive connections),
// the request's method, path, headers and body passed on as they stream, the answer streamed back with its status and
// headers. Hop-by-hop headers stay on their own hop.
import { Readable } from 'node:stream';
import { Pool } from 'undici';

const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** The header a forwarded request carries: the id of the process that forwarded it (so it is forwarded once). */
export const FORWARDED_BY = 'x-paygate-forwarded-by';

export class Forwarder {
  readonly #pools = new Map<string, Pool>();

  constructor(readonly me: string) {}

  #pool(address: string): Pool {
    let pool = this.#pools.get(address);
    if (!pool) {
      pool = new Pool(address, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
      this.#pools.set(address, pool);
    }
    return pool;
  }

  /** `request` sent to the process at `address`; rejects when it cannot be reached. */
  async forward(address: string, request: Request): Promise<Response> {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      if (!HOP.has(k)) headers[k] = v;
    });
    headers[FORWARDED_BY] = this.me;
    const method = request.method;
    const body = request.body && method !== 'GET' && method !== 'HEAD' ? Readable.fromWeb(request.body as never) : null;
    const res = await this.#pool(address).request({
      path: url.pathname + url.search,
      method: method as 'GET',
      headers,
      body,
      signal: request.signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined || HOP.has(k)) continue;
      if (Array.isArray(v)) for (const one of v) out.append(k, one);
      else out.set(k, v);
    }
    const empty = method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
    if (empty) res.body.resume();
    const stream = empty ? null : (Readable.toWeb(res.body) as unknown as ReadableStream<Uint8Array>);
    return new Response(stream, { status: res.statusCode, headers: out });
  }

  /** Forget the connections to `address` (its process is gone). */
  drop(address: string): void {
    const pool = this.#pools.get(address);
    this.#pools.delete(address);
    void pool?.destroy().catch(() => {});
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => {})));
  }
}
