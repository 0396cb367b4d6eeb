// An undici Dispatcher with no socket: each dispatched request becomes a WHATWG Request handed to an
// in-process `fetch` handler (e.g. the sandbox), and the Response is streamed back through undici's handler API.
import { Buffer } from 'node:buffer';
import { Dispatcher, errors, FormData as UndiciFormData, Response as UndiciResponse } from 'undici';

/** Anything with a WHATWG fetch handler: `sandbox`, an h3 app, a Hono app, a test fake. */
export interface FetchHandler {
  fetch(request: Request): Response | Promise<Response>;
}

/**
 * A Dispatcher that serves every request from `handler.fetch` in the same process, with no port:
 * `new Paygate({ baseUrl: 'http://sandbox.local', apiKey, dispatcher: createInProcessDispatcher(sandbox) })`.
 * Works with undici's `request()`, `fetch()` and `stream()`. Request bodies are buffered before the
 * handler sees them; response bodies are streamed with back-pressure.
 */
export function createInProcessDispatcher(handler: FetchHandler): Dispatcher {
  return new InProcessDispatcher(handler);
}

type HeaderRecord = Record<string, string | string[] | undefined>;

/** The controller handed to onRequestStart and every later callback. */
class Controller implements Dispatcher.DispatchController {
  #aborted = false;
  #paused = false;
  #reason: Error | null = null;
  #resumed: (() => void) | undefined;
  readonly signalSource = new AbortController();
  onAbort: ((reason: Error) => void) | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }
  get paused(): boolean {
    return this.#paused;
  }
  get reason(): Error | null {
    return this.#reason;
  }

  abort(reason?: Error): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason ?? new errors.RequestAbortedError();
    this.signalSource.abort(this.#reason);
    this.#resumed?.();
    this.onAbort?.(this.#reason);
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    const go = this.#resumed;
    this.#resumed = undefined;
    go?.();
  }

  /** Resolves at once unless paused; then when resumed or aborted. */
  whenFlowing(): Promise<void> {
    if (!this.#paused || this.#aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.#resumed = resolve;
    });
  }
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'expect',
  'upgrade',
  'host',
]);

class InProcessDispatcher extends Dispatcher {
  readonly #handler: FetchHandler;
  readonly #inflight = new Map<Promise<void>, Controller>();
  #closed = false;
  #destroyed = false;

  constructor(handler: FetchHandler) {
    super();
    this.#handler = handler;
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const h = toControllerHandler(handler);
    const controller = new Controller();
    if (this.#destroyed || this.#closed) {
      const err = this.#destroyed ? new errors.ClientDestroyedError() : new errors.ClientClosedError();
      queueMicrotask(() => h.onResponseError?.(controller, err));
      return false;
    }
    const run = this.#run(opts, h, controller).finally(() => this.#inflight.delete(run));
    this.#inflight.set(run, controller);
    return true;
  }

  async #run(opts: Dispatcher.DispatchOptions, h: Dispatcher.DispatchHandler, controller: Controller): Promise<void> {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      h.onResponseError?.(controller, err instanceof Error ? err : new Error(String(err)));
    };
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    controller.onAbort = (reason) => {
      fail(reason);
      // An idle stream (server-sent events) would otherwise learn of the abort only with its next chunk.
      void reader?.cancel(reason).catch(() => {});
    };
    try {
      await Promise.resolve();
      h.onRequestStart?.(controller, {});
      if (controller.aborted) return;
      const request = await toRequest(opts, controller.signalSource.signal);
      if (controller.aborted) return;
      const response = await this.#handler.fetch(request);
      if (controller.aborted) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      h.onResponseStart?.(controller, response.status, headersOf(response), response.statusText);
      if (response.body && opts.method !== 'HEAD') {
        reader = response.body.getReader();
        for (;;) {
          await controller.whenFlowing();
          if (controller.aborted) {
            await reader.cancel(controller.reason).catch(() => {});
            return;
          }
          const { done, value } = await reader.read();
          if (done) break;
          if (controller.aborted) {
            await reader.cancel(controller.reason).catch(() => {});
            return;
          }
          if (value.byteLength > 0)
            h.onResponseData?.(controller, Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        }
      }
      if (controller.aborted || settled) return;
      settled = true;
      h.onResponseEnd?.(controller, {});
    } catch (e) {
      fail(e);
    }
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.#closed = true;
    const done = Promise.allSettled([...this.#inflight.keys()]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const callback = typeof a === 'function' ? a : b;
    const err = typeof a === 'function' || a == null ? new errors.ClientDestroyedError() : a;
    this.#closed = true;
    this.#destroyed = true;
    for (const controller of this.#inflight.values()) controller.abort(err);
    const done = Promise.resolve();
    if (!callback) return done;
    void done.then(callback);
  }
}

/** Build the WHATWG Request the handler sees. */
async function toRequest(opts: Dispatcher.DispatchOptions, signal: AbortSignal): Promise<Request> {
  const origin = opts.origin === undefined ? 'http://localhost' : String(opts.origin);
  const url = new URL(opts.path, origin);
  if (opts.query) {
    for (const [k, v] of Object.entries(opts.query as Record<string, unknown>)) {
      if (v === undefined || v === null) continue;
      for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
    }
  }
  const headers = new Headers();
  for (const [name, value] of headerPairs(opts.headers)) {
    if (HOP_BY_HOP.has(name.toLowerCase())) continue;
    headers.append(name, value);
  }
  const method = opts.method.toUpperCase();
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD' && opts.body != null) {
    const encoded = await encodeBody(opts.body);
    body = encoded.bytes;
    if (encoded.contentType && !headers.has('content-type')) headers.set('content-type', encoded.contentType);
  }
  return new Request(url, { method, headers, body: body ?? null, signal });
}

async function encodeBody(body: unknown): Promise<{ bytes: Buffer; contentType?: string }> {
  if (typeof body === 'string') return { bytes: Buffer.from(body, 'utf8') };
  if (body instanceof Uint8Array) return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  if (body instanceof ArrayBuffer) return { bytes: Buffer.from(body) };
  if (body instanceof UndiciFormData || body instanceof globalThis.FormData || body instanceof Blob) {
    const res = body instanceof UndiciFormData ? new UndiciResponse(body) : new Response(body as Blob | FormData);
    const contentType = res.headers.get('content-type') ?? undefined;
    const bytes = Buffer.from(await res.arrayBuffer());
    return contentType ? { bytes, contentType } : { bytes };
  }
  if (body !== null && typeof body === 'object' && (Symbol.asyncIterator in body || Symbol.iterator in body)) {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<unknown>) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk as Uint8Array));
    }
    return { bytes: Buffer.concat(chunks) };
  }
  throw new errors.InvalidArgumentError(
    'body must be a string, a Buffer, a Readable stream, an iterable, or an async iterable',
  );
}

/** Every shape undici accepts for request headers, as [name, value] pairs. */
function* headerPairs(headers: Dispatcher.DispatchOptions['headers']): Generator<[string, string]> {
  if (headers == null) return;
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) {
      for (const [k, v] of headers as unknown as [string, string | string[]][]) yield* expand(k, v);
      return;
    }
    for (let i = 0; i + 1 < headers.length; i += 2) yield [String(headers[i]), String(headers[i + 1])];
    return;
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [k, v] of headers as Iterable<[string, string | string[] | undefined]>) yield* expand(k, v);
    return;
  }
  for (const [k, v] of Object.entries(headers as HeaderRecord)) yield* expand(k, v);
}

function* expand(name: string, value: string | string[] | undefined): Generator<[string, string]> {
  if (value === undefined) return;
  if (Array.isArray(value)) for (const v of value) yield [name, String(v)];
  else yield [name, String(value)];
}

/** Response headers in undici's parsed form: lower-case names, set-cookie as an array. */
function headersOf(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/**
 * undici's own APIs (request, fetch, stream) still dispatch with the legacy callbacks (onConnect, onHeaders, ...).
 * Present every handler through the controller API so the dispatcher has one code path.
 */
function toControllerHandler(handler: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler {
  if (typeof handler.onRequestStart === 'function' || typeof handler.onResponseStart === 'function') return handler;
  const legacy = handler;
  return {
    onRequestStart(controller, context) {
      const onConnect = legacy.onConnect as ((abort: (reason?: Error) => void, context: unknown) => void) | undefined;
      onConnect?.call(
        legacy,
        (reason?: Error) => controller.abort(reason ?? new errors.RequestAbortedError()),
        context,
      );
    },
    onResponseStart(controller, statusCode, headers, statusMessage) {
      const raw: Buffer[] = [];
      for (const [k, v] of Object.entries(headers)) {
        for (const item of Array.isArray(v) ? v : v === undefined ? [] : [v])
          raw.push(Buffer.from(k, 'latin1'), Buffer.from(item, 'latin1'));
      }
      if (legacy.onHeaders?.(statusCode, raw, () => controller.resume(), statusMessage ?? '') === false)
        controller.pause();
    },
    onResponseData(controller, chunk) {
      if (legacy.onData?.(chunk) === false) controller.pause();
    },
    onResponseEnd() {
      legacy.onComplete?.([]);
    },
    onResponseError(_controller, err) {
      legacy.onError?.(err);
    },
  };
}
