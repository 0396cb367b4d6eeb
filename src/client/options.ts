// The options of the client (`new Paygate(options)`), of one request, and the input a resource hands the core.
import type { Dispatcher } from 'undici';
import type { MultipartBody } from './multipart.js';
import type { CaCertificates } from './certificates.js';
import type { ContractView, Transport } from './wire.js';

/** Options of `new Paygate(...)`. */
export interface ClientOptions {
  /** Base URL of the gateway, e.g. `http://127.0.0.1:4010`. Required. A path prefix is kept (`https://host/gw`). */
  baseUrl: string;
  /**
   * Shop API key, sent as `X-API-Key` on every /v1 call and on the shop-scoped sandbox controls
   * (`client.sandbox.operations`, `.webhooks`, `.pool.layout()`, `.links`), and never logged or shown (inspect/toString mask it).
   * Default: none — enough for `health.check()`; any /v1 call without a key throws before sending.
   */
  apiKey?: string | undefined;
  /**
   * Admin token of the sandbox, sent as `X-Admin-Token` on the cross-shop sandbox controls only (`client.sandbox.clock`,
   * `.evidence`, `.keys`, `.reset()`, `.pool.show()`, `.pool.settings()`, `.pool.updateSettings()`); masked like the key. `paygate sandbox start` prints it (the CLI reads
   * `PAYGATE_ADMIN_TOKEN`). Default: none — an admin control without it throws before sending.
   */
  adminToken?: string | undefined;
  /** Timeout of each attempt in milliseconds, up to the last body byte. Default 30_000 (a create may wait 15 s for a provider). */
  timeout?: number | undefined;
  /**
   * How many times a failed attempt is retried where that is safe (429, 503, timeouts, connection errors; a sandbox
   * control action only on 429/503; see retry.ts). Default 2.
   */
  maxRetries?: number | undefined;
  /**
   * The undici Dispatcher every request goes through: an `Agent`, a `MockAgent`, or
   * `createInProcessDispatcher(sandbox)` for a sandbox in the same process. Default: undici's global dispatcher.
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * PEM certificate(s) to trust besides Node's bundled roots: the file `paygate sandbox start --https` prints
   * (`readFileSync('.paygate/sandbox.json.cert.pem')`). The client then sends through its own undici Agent, so give
   * this or `dispatcher`, not both. A certificate not trusted fails at once (not retried), saying to pass this. Default none.
   */
  ca?: CaCertificates | undefined;
  /** The `User-Agent` header. Default `paygate-client/<version> node/<node version>`. */
  userAgent?: string | undefined;
  /** Headers added to every request (a per-call header of the same name wins). Default none. */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * @internal Waits between retries. Tests inject an instant one so no test waits on a real timer.
   * Default: a timer that stops early when the call's signal aborts.
   */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** @internal Random source of the backoff jitter, in [0, 1). Default `Math.random`. */
  random?: (() => number) | undefined;
  /**
   * @internal Sends each request instead of undici (the CLI's node:http one starts faster); `stream()` still goes
   * through undici, with `dispatcher` or `ca`'s Agent. Default: undici, imported on the first request.
   */
  transport?: Transport | undefined;
  /**
   * @internal Loads the routes and the response checks instead of the contract's zod tables (the CLI's generated,
   * lighter ones). Called once, on the first request. Default: src/client/routes.ts `zodContract`.
   */
  contract?: (() => Promise<ContractView>) | undefined;
}

/** Options of a single call; each overrides the client's own for that call only. */
export interface RequestOptions {
  /** Timeout of each attempt in ms. Default: the client's `timeout` (30_000). */
  timeout?: number | undefined;
  /** Retries for this call. Default: the client's `maxRetries` (2). */
  maxRetries?: number | undefined;
  /** Aborts the call (including a wait between retries) with APIUserAbortError. Default none. */
  signal?: AbortSignal | undefined;
  /** Extra request headers for this call. Default none. */
  headers?: Record<string, string> | undefined;
}

/** What one call sends, besides method and path (which come from the endpoint table). */
export interface RequestInput {
  /** JSON body. */
  body?: unknown;
  /** Path parameters of a templated path (`/sandbox/operations/:id`), URL-encoded; each must be non-empty. */
  params?: Record<string, string> | undefined;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined> | undefined;
  /** A multipart body (confirm_payment). */
  multipart?: MultipartBody | undefined;
  /** Added to timeout / connection error messages, e.g. how to find out what happened. */
  outcomeHint?: string | undefined;
  /** Return any HTTP status as a response instead of throwing (health probes). */
  anyStatus?: boolean | undefined;
}
