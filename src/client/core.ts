// The transport core of the client: builds each request from the contract's endpoint tables (the gateway's or the
// sandbox controls'), sends it with a per-attempt timeout, retries what is safe, maps errors to classes and
// validates every 2xx body against the endpoint's response schema. The contract and the transport (undici by
// default) are loaded on the first request (wire.ts), so importing the client is cheap.
import type { Dispatcher } from 'undici';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { CaCertificates } from './certificates.js';
import { untrustedCertificate } from './certificates.js';
import { notJson } from './contract-check.js';
import { checkCredentials, credentialHeaders, type Secrets } from './credentials.js';
import { APIConnectionError, APIError, APITimeoutError, APIUserAbortError, PaygateError } from './errors.js';
import { isRetryable, retryClassOf, retryDelayMs, type Failure, type RetryClass } from './retry.js';
import type { AnyEndpointId, ResponseOf } from './routes.js';
import { eventStream } from './stream.js';
import { VERSION } from './version.js';
import type { ClientRoute, ContractView, Transport, WireResponse } from './wire.js';
import { describeCause, fillPath, lowerCaseKeys, maskKey, nonNegative, parseLoose, userAbort } from './core-helpers.js';

export { maskKey } from './core-helpers.js';

export type { ClientOptions, RequestInput, RequestOptions } from './options.js';
import type { ClientOptions, RequestInput, RequestOptions } from './options.js';

export type { AnyEndpointId, ResponseOf } from './routes.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;

class TimeoutSignal extends Error {}

/** What #exchange answers when it has waited and the next attempt should be sent. */
const RETRY = Symbol('retry');

/** A request as every attempt sends it. */
interface Prepared {
  route: ClientRoute;
  /** `METHOD /path`, for messages. */
  label: string;
  input: RequestInput;
  url: string;
  headers: Record<string, string>;
  klass: RetryClass;
  replayable: boolean;
  maxRetries: number;
  timeout: number;
  signal: AbortSignal | undefined;
  /** `; <outcome hint>` or empty. */
  hint: string;
}

const defaultSleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
  const { setTimeout: delay } = await import('node:timers/promises');
  await delay(ms, undefined, signal ? { signal } : {});
};

/** node:util's `inspect.custom`, without loading node:util. */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The core every resource is a thin layer over. `Paygate` extends it with the resources. */
export class PaygateCore {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly maxRetries: number;
  readonly #apiKey: string | undefined;
  readonly #adminToken: string | undefined;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #ca: CaCertificates | undefined;
  #agent: Promise<Dispatcher | undefined> | undefined;
  readonly #transportOption: Transport | undefined;
  #transport: Promise<Transport> | undefined;
  readonly #loadContract: () => Promise<ContractView>;
  #contract: Promise<ContractView> | undefined;
  readonly #userAgent: string;
  readonly #defaultHeaders: Record<string, string>;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;

  constructor(options: ClientOptions) {
    if (!options || typeof options.baseUrl !== 'string' || !options.baseUrl) {
      throw new PaygateError('baseUrl is required, e.g. new Paygate({ baseUrl: "http://127.0.0.1:4010", apiKey })');
    }
    let parsed: URL;
    try {
      parsed = new URL(options.baseUrl);
    } catch {
      throw new PaygateError(`baseUrl is not a valid URL: ${JSON.stringify(options.baseUrl)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new PaygateError(`baseUrl must be http or https: ${JSON.stringify(options.baseUrl)}`);
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey || undefined;
    this.#adminToken = options.adminToken || undefined;
    this.timeout = nonNegative(options.timeout, DEFAULT_TIMEOUT_MS, 'timeout');
    this.maxRetries = nonNegative(options.maxRetries, DEFAULT_MAX_RETRIES, 'maxRetries');
    if (options.ca !== undefined && options.dispatcher)
      throw new PaygateError("pass either ca or dispatcher, not both: ca sets up the client's own undici Agent");
    this.#dispatcher = options.dispatcher;
    this.#ca = options.ca;
    this.#transportOption = options.transport;
    this.#loadContract = options.contract ?? (async () => (await import('./routes.js')).zodContract);
    this.#userAgent = options.userAgent ?? `paygate-client/${VERSION} node/${process.version}`;
    this.#defaultHeaders = lowerCaseKeys(options.defaultHeaders ?? {});
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
  }

  /** Whether an API key was configured. */
  get hasApiKey(): boolean {
    return this.#apiKey !== undefined;
  }

  /** The API key masked to its last 4 characters, for display. */
  get maskedApiKey(): string | undefined {
    return this.#apiKey === undefined ? undefined : maskKey(this.#apiKey);
  }

  /** Whether a sandbox admin token was configured. */
  get hasAdminToken(): boolean {
    return this.#adminToken !== undefined;
  }

  /** The admin token masked to its last 4 characters, for display. */
  get maskedAdminToken(): string | undefined {
    return this.#adminToken === undefined ? undefined : maskKey(this.#adminToken);
  }

  /**
   * Low-level call of any endpoint of the contract's tables: a gateway endpoint (`payment.create`) or a sandbox
   * control by its dotted id (`operations.pay`, see src/client/sandbox-endpoints.ts). Resources are thin wrappers over this.
   * Resolves to the body parsed by the endpoint's response schema.
   */
  request<E extends AnyEndpointId>(
    id: E,
    input: RequestInput = {},
    options: RequestOptions = {},
  ): APIPromise<ResponseOf<E>> {
    return new APIPromise(this.#send(id, input, options));
  }

  /** The dispatcher of undici's requests: the `dispatcher` option, or the `ca` option's Agent made on first use. */
  #undiciDispatcher(): Promise<Dispatcher | undefined> {
    const ca = this.#ca;
    this.#agent ??=
      ca === undefined ? Promise.resolve(this.#dispatcher) : import('./tls.js').then((m) => m.trustingAgent(ca));
    return this.#agent;
  }

  #sender(): Promise<Transport> {
    this.#transport ??= this.#transportOption
      ? Promise.resolve(this.#transportOption)
      : Promise.all([import('./undici-transport.js'), this.#undiciDispatcher()]).then(([m, dispatcher]) =>
          m.undiciTransport(dispatcher),
        );
    return this.#transport;
  }

  #contractView(): Promise<ContractView> {
    this.#contract ??= this.#loadContract();
    return this.#contract;
  }

  async #send<E extends AnyEndpointId>(
    id: E,
    input: RequestInput,
    options: RequestOptions,
  ): Promise<WithResponse<ResponseOf<E>>> {
    const contract = await this.#contractView();
    const req = await this.#prepare(contract, id, input, options);
    for (let attempt = 0; ; attempt++) {
      if (req.signal?.aborted) throw userAbort(req.label, req.signal);
      const res = await this.#exchange(req, attempt);
      if (res === RETRY) continue;
      const info = {
        status: res.status,
        headers: res.headers,
        requestId: res.headers['x-request-id'],
        attempts: attempt + 1,
      };
      if ((res.status >= 200 && res.status < 300) || input.anyStatus) {
        if (!req.route.response || input.anyStatus) {
          return { data: undefined as unknown as ResponseOf<E>, response: { ...info, body: parseLoose(res.text) } };
        }
        let json: unknown;
        try {
          json = JSON.parse(res.text);
        } catch {
          throw notJson(req.label, res.status, res.text);
        }
        const data = (await contract.check(id, json, req.label, res.status)) as ResponseOf<E>;
        return { data, response: { ...info, body: json } };
      }
      const error = APIError.from({
        status: res.status,
        endpoint: req.label,
        headers: res.headers,
        body: parseLoose(res.text),
      });
      const retry =
        attempt < req.maxRetries && isRetryable(req.klass, { kind: 'status', status: res.status }, req.replayable);
      if (retry && (await this.#wait(attempt, error.retryAfter, req.label, req.signal))) continue;
      throw error;
    }
  }

  /** Everything about a request that every attempt shares: its row, URL, headers, retry class and limits. */
  async #prepare(
    contract: ContractView,
    id: AnyEndpointId,
    input: RequestInput,
    options: RequestOptions,
  ): Promise<Prepared> {
    const route = await contract.routeOf(id);
    const label = `${route.method} ${route.path}`;
    checkCredentials(route, label, this.#secrets());
    return {
      route,
      label,
      input,
      url: this.#url(fillPath(route.path, input.params, label), input.query),
      headers: this.#headers(route, input, options),
      klass: retryClassOf(id),
      replayable: input.multipart?.replayable ?? true,
      maxRetries: nonNegative(options.maxRetries, this.maxRetries, 'maxRetries'),
      timeout: nonNegative(options.timeout, this.timeout, 'timeout'),
      signal: options.signal,
      hint: input.outcomeHint ? `; ${input.outcomeHint}` : '',
    };
  }

  /**
   * One attempt: the answer, or RETRY once it has waited before the next attempt after a timeout or a connection
   * failure that may be retried; else the failure as APITimeoutError or APIConnectionError.
   */
  async #exchange(req: Prepared, attempt: number): Promise<WireResponse | typeof RETRY> {
    const { input, label, signal } = req;
    const body = input.multipart
      ? input.multipart.open()
      : input.body !== undefined
        ? JSON.stringify(input.body)
        : undefined;
    const tries = `attempt ${attempt + 1} of ${req.maxRetries + 1}`;
    try {
      return await this.#attempt(req.url, req.route.method, req.headers, body, req.timeout, signal);
    } catch (err) {
      if (err instanceof APIUserAbortError) throw err;
      const timedOut = err instanceof TimeoutSignal;
      const untrusted = !timedOut && untrustedCertificate(err);
      const failure: Failure = { kind: timedOut ? 'timeout' : 'connection' };
      if (!untrusted && attempt < req.maxRetries && isRetryable(req.klass, failure, req.replayable)) {
        await this.#wait(attempt, undefined, label, signal);
        return RETRY;
      }
      if (timedOut) throw new APITimeoutError(`${label} timed out after ${req.timeout} ms (${tries})${req.hint}`);
      const trust = untrusted
        ? "; the server's TLS certificate is not trusted: pass its certificate as the ca option"
        : '';
      throw new APIConnectionError(
        `${label} failed to connect to ${this.baseUrl}: ${describeCause(err)} (${tries})${trust}${req.hint}`,
        { cause: err },
      );
    }
  }

  #secrets(): Secrets {
    return { apiKey: this.#apiKey, adminToken: this.#adminToken };
  }

  /**
   * Open a server-sent events control (`operations.stream`, `logs.stream`): yields each event with
   * its parsed data until the server ends the stream or `options.signal` aborts (then it simply ends). No timeout
   * and no retry: a stream is open-ended.
   */
  async *stream(
    id: AnyEndpointId,
    input: RequestInput = {},
    options: RequestOptions = {},
  ): AsyncGenerator<{ event: string; data: unknown }> {
    const e = await (await this.#contractView()).routeOf(id);
    const label = `${e.method} ${e.path}`;
    checkCredentials(e, label, this.#secrets());
    const url = this.#url(fillPath(e.path, input.params, label), input.query);
    const headers = this.#headers(e, input, options);
    const dispatcher = await this.#undiciDispatcher();
    const baseUrl = this.baseUrl;
    yield* eventStream({ url, method: e.method, headers, label, baseUrl, signal: options.signal, dispatcher });
  }

  /** Sleep before the next attempt; false when Retry-After asks for longer than the client is willing to wait. */
  async #wait(
    attempt: number,
    retryAfter: number | undefined,
    label: string,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const ms = retryDelayMs(attempt, retryAfter, this.#random);
    if (ms === undefined) return false;
    try {
      await this.#sleep(ms, signal);
    } catch (err) {
      if (signal?.aborted) throw userAbort(label, signal);
      throw err;
    }
    if (signal?.aborted) throw userAbort(label, signal);
    return true;
  }

  async #attempt(
    url: string,
    method: ClientRoute['method'],
    headers: Record<string, string>,
    body: string | Buffer | import('node:stream').Readable | undefined,
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<WireResponse> {
    const label = `${method} ${new URL(url).pathname}`;
    const send = await this.#sender();
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(new TimeoutSignal('timeout')), timeout);
    const onAbort = () => ac.abort(signal?.reason ?? new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await send({ url, method, headers, body, signal: ac.signal });
    } catch (err) {
      if (ac.signal.reason instanceof TimeoutSignal) throw ac.signal.reason;
      if (signal?.aborted) throw userAbort(label, signal);
      throw err;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #url(path: string, query: RequestInput['query']): string {
    let url = `${this.baseUrl}${path}`;
    if (query) {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.append(k, String(v));
      const s = qs.toString();
      if (s) url += `?${s}`;
    }
    return url;
  }

  #headers(e: ClientRoute, input: RequestInput, options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.#userAgent,
      ...this.#defaultHeaders,
    };
    Object.assign(headers, credentialHeaders(e, this.#secrets()));
    if (input.multipart) headers['content-type'] = input.multipart.contentType;
    else if (input.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, lowerCaseKeys(options.headers ?? {}));
    return headers;
  }

  /**
   * Never shows the key nor the admin token: `Paygate { baseUrl: '…', apiKey: '****abcd' }`, plus
   * `adminToken: '****wxyz'` when one is set.
   */
  toString(): string {
    const admin = this.#adminToken === undefined ? '' : `, adminToken: '${maskKey(this.#adminToken)}'`;
    return `${this.constructor.name} { baseUrl: '${this.baseUrl}', apiKey: ${this.#apiKey === undefined ? 'none' : `'${maskKey(this.#apiKey)}'`}${admin} }`;
  }

  /** Masked like toString; `adminToken` appears only when one is set. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.baseUrl,
      apiKey: this.maskedApiKey ?? null,
      ...(this.#adminToken === undefined ? {} : { adminToken: this.maskedAdminToken }),
      timeout: this.timeout,
      maxRetries: this.maxRetries,
    };
  }

  [INSPECT](): string {
    return this.toString();
  }
}
