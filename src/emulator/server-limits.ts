// How much one client may hold of a sandbox server (docs/limits.md): the connections it accepts and how long a
// request may take to arrive, the receipt upload deadline, and what a server-sent event stream may buffer for a
// client that does not read. Every number has a default suited to a sandbox on a developer's machine or a CI
// runner; `sandbox start` flags and SandboxOptions.limits change them.

export interface StreamLimits {
  /** Bytes a stream may have waiting for its client (its queue plus the socket's write buffer); past it the client is dropped. */
  maxBufferedBytes: number;
  /** Events (and keep-alive comments) a stream may have waiting for its client; past it the client is dropped. */
  maxBufferedEvents: number;
  /** Streams one credential (a key, the admin token, a payment page) may have open at once; one more is 429 streams_busy. */
  perCredential: number;
  /** Streams open at once on the server; one more is 503 streams_full. */
  total: number;
  /** Interval of the keep-alive comment, in ms. */
  heartbeatMs: number;
}

export interface ConnectionLimits {
  /** Open connections the server accepts; past it a new one is answered 503 and closed. */
  maxConnections: number;
  /** Time to receive a request's headers, in ms; past it 408 and the connection is closed. */
  headersTimeoutMs: number;
  /** Time to receive a whole request (headers and body), in ms; past it 408. Does not cover the answer (a stream). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept, in ms. */
  keepAliveTimeoutMs: number;
  /** Time a receipt upload's body may take to arrive, in ms; past it 408 upload_timeout and its queue place is freed. */
  uploadDeadlineMs: number;
  /** How often the server checks the two request timeouts, in ms (Node's connectionsCheckingInterval). */
  checkIntervalMs: number;
}

export interface ServerLimits {
  streams: StreamLimits;
  connections: ConnectionLimits;
}

/** What SandboxOptions.limits takes: any of the numbers, the rest default. */
export interface ServerLimitOptions {
  streams?: Partial<StreamLimits>;
  connections?: Partial<ConnectionLimits>;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxBufferedBytes: 64 * 1024,
  maxBufferedEvents: 256,
  perCredential: 16,
  total: 512,
  heartbeatMs: 15_000,
};

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 4096,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  uploadDeadlineMs: 20_000,
  checkIntervalMs: 1_000,
};

/** Seconds a refused stream or connection is told to wait (Retry-After). */
export const LIMIT_RETRY_AFTER_S = 5;

/** The limits of `opts`, every missing number from the defaults; throws a TypeError on one that is not a positive integer. */
export function serverLimits(opts: ServerLimitOptions | undefined): ServerLimits {
  const streams = { ...DEFAULT_STREAM_LIMITS, ...defined(opts?.streams) };
  const connections = { ...DEFAULT_CONNECTION_LIMITS, ...defined(opts?.connections) };
  for (const [group, values] of Object.entries({ streams, connections })) {
    for (const [name, v] of Object.entries(values)) {
      if (!Number.isSafeInteger(v) || v <= 0)
        throw new TypeError(`limits.${group}.${name} must be a positive integer, got ${String(v)}`);
    }
  }
  if (connections.headersTimeoutMs > connections.requestTimeoutMs) {
    // Node refuses it too (the headers are part of the request).
    throw new TypeError(
      `the headers timeout (${connections.headersTimeoutMs} ms, --headers-timeout) must not exceed the request timeout (${connections.requestTimeoutMs} ms, --request-timeout)`,
    );
  }
  return { streams, connections };
}

function defined<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
