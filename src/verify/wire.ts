// The exchanges of `paygate verify`: one request sent through the transport (node:http on the CLI, a sandbox's fetch
// handler in tests), turned into a conformance Exchange with its secrets removed, handed to the conformance checker,
// and returned. A request that gets no answer (connection refused, reset, DNS, timeout) is an UnreachableError.
import { createHash } from 'node:crypto';
import type { HttpMethod } from '../contract/endpoint-row.js';
import type { Transport } from '../client/wire.js';
import type { ConformanceChecker, Exchange, Violation } from '../conformance/types.js';

/** Headers never kept in an Exchange: credentials. */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'x-admin-token']);
const TEXT_LIMIT = 4096;

/** The gateway could not be reached: no answer at all (exit 3). */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/** The run was stopped (Ctrl+C): what verify created has been cancelled as far as it could be. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
}

export interface Send {
  method: HttpMethod;
  /** The path under the base URL, e.g. /v1/payment, without the query. */
  path: string;
  query?: Record<string, string>;
  /** A JSON body (serialised) … */
  json?: unknown;
  /** … or a raw body sent as application/json (invalid JSON). */
  raw?: string;
  /** The API key to send; null sends none. */
  key: string | null;
  /** The header name the key goes in. Default x-api-key. */
  keyHeader?: string;
  /** A request that breaks the contract on purpose: the checker's request rules about it are expected, not drift. */
  deliberate?: boolean;
}

/** An answer as the checks read it, with the exchange it was. */
export interface Answer {
  status: number;
  body: unknown;
  exchange: Exchange;
  /** The checker's violations of this exchange. */
  violations: Violation[];
}

/** 'key_' + 12 hex of SHA-256: which key was used, never the key. */
export function fingerprint(key: string): string {
  return `key_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

function parsed(text: string): { body?: unknown; bodyText?: string } {
  if (text === '') return {};
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { bodyText: text.slice(0, TEXT_LIMIT) };
  }
}

function lowerHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!SECRET_HEADERS.has(k.toLowerCase())) out[k.toLowerCase()] = v;
  return out;
}

export interface WireOptions {
  baseUrl: string;
  transport: Transport;
  checker: ConformanceChecker;
  /** How long one exchange may take before the gateway counts as unreachable. Default 30 s (a create may wait 15 s). */
  timeoutMs?: number;
  /** Wall-clock time, for Exchange.startedAt and durationMs. Default Date.now. */
  now?: () => number;
  /** Whether a rule id is about the request (kind 'request'): not drift on a deliberate probe. */
  isRequestRule: (rule: string) => boolean;
}

/** Sends verify's requests and keeps the conversation: every exchange, in order, checked. */
export class VerifyWire {
  readonly exchanges: Exchange[] = [];
  readonly #o: WireOptions;
  /** The exchanges that broke the contract on purpose. */
  readonly #deliberate = new Set<number>();

  constructor(options: WireOptions) {
    this.#o = options;
  }

  /** The conformance checker's violations so far, but the request rules of deliberate probes. */
  checkerViolations(): Violation[] {
    return this.#o.checker.violations.filter((v) => !this.#expected(v));
  }

  #expected(v: Violation): boolean {
    return this.#deliberate.has(v.exchange) && this.#o.isRequestRule(v.rule);
  }

  /**
   * One exchange on the transport. A lost answer (the connection refused, reset or closed before the answer) is tried
   * once more — every request verify sends may be repeated: creates carry their merchant_operation_id, reads and
   * cancels are idempotent — so that a create whose answer was lost is found again; no answer twice, or none in
   * time, is an UnreachableError.
   */
  async #exchange(r: { url: string; method: HttpMethod; headers: Record<string, string>; text: string | undefined }) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#o.transport({
          url: r.url,
          method: r.method,
          headers: r.headers,
          body: r.text,
          signal: AbortSignal.timeout(this.#o.timeoutMs ?? 30_000),
        });
      } catch (e) {
        const cause = e as NodeJS.ErrnoException;
        const timedOut = cause.name === 'TimeoutError' || cause.name === 'AbortError';
        if (attempt < 2 && !timedOut) continue;
        const why = timedOut ? 'no answer in time' : (cause.code ?? cause.message);
        throw new UnreachableError(`${r.method} ${r.url.replace(/\?.*$/, '')}: ${why}`, { cause: e });
      }
    }
  }

  /**
   * Sends `s`. A request answered 429 with a Retry-After of at most 2 s (§8's per-second window of the amount reads)
   * is sent once more after waiting it out, as a well-behaved client does (every request verify sends may be
   * repeated: see #exchange); the 429 is a documented answer, checked too, not a failed rule. A deliberate probe (a
   * request the gateway must refuse with 400) is not sent again: a 429 there is the answer to check. A longer wait,
   * or a second 429, is answered as it came.
   */
  async send(s: Send): Promise<Answer> {
    const first = await this.#sendOnce(s);
    const wait = Number(first.exchange.response.headers['retry-after']);
    if (first.status !== 429 || s.deliberate || !(wait >= 0 && wait <= 2)) return first;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    return this.#sendOnce(s);
  }

  async #sendOnce(s: Send): Promise<Answer> {
    const now = this.#o.now ?? Date.now;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (s.key !== null) headers[s.keyHeader ?? 'x-api-key'] = s.key;
    const text = s.raw ?? (s.json === undefined ? undefined : JSON.stringify(s.json));
    if (text !== undefined) headers['content-type'] = 'application/json';
    const qs = s.query ? `?${new URLSearchParams(s.query).toString()}` : '';
    const url = `${this.#o.baseUrl.replace(/\/+$/, '')}${s.path}${qs}`;
    const started = now();
    const res = await this.#exchange({ url, method: s.method, headers, text });
    const exchange: Exchange = {
      seq: this.exchanges.length + 1,
      startedAt: new Date(started).toISOString(),
      durationMs: Math.max(0, now() - started),
      ...(s.key !== null ? { credential: fingerprint(s.key) } : {}),
      request: {
        method: s.method,
        path: s.path,
        query: { ...(s.query ?? {}) },
        headers: lowerHeaders(headers),
        ...(text !== undefined ? { contentType: 'application/json', ...parsed(text) } : {}),
      },
      response: { status: res.status, headers: lowerHeaders(res.headers), ...parsed(res.text) },
    };
    this.exchanges.push(exchange);
    if (s.deliberate) this.#deliberate.add(exchange.seq);
    const violations = this.#o.checker.check(exchange).filter((v) => !this.#expected(v));
    return { status: res.status, body: exchange.response.body, exchange, violations };
  }
}
