// Every request the sandbox answers, kept in a bounded ring (the newest REQUEST_LOG_SIZE) and told to live
// listeners (GET /sandbox/logs and its stream; `paygate logs tail`). An entry holds no secret: credentials travel in
// headers, which are never kept, and the secrets that can sit in a URL (a flexible link's `k`, a signed receipt
// link's signature) are masked.

/** How many requests the ring keeps. */
export const REQUEST_LOG_SIZE = 2000;

export interface RequestLogEntry {
  /** `req_<n>`, also sent back as the `x-request-id` response header. */
  id: string;
  /** Wall-clock time the request arrived (RFC 3339). */
  at: string;
  /** The shop of the key, '' for admin and open routes or a request that failed authentication. */
  shop_id: string;
  method: string;
  /** Path and query, secrets masked. */
  path: string;
  status: number;
  latency_ms: number;
  /** The error code of a 4xx/5xx answer, null otherwise. */
  error_code: string | null;
}

export interface RequestLogFilter {
  shop?: string | undefined;
  method?: string | undefined;
  /** A status (`404`) or class (`4xx`). */
  status?: string | undefined;
  /** Path prefix, e.g. `/v1/payment`. */
  path?: string | undefined;
  /** Only errors (status ≥ 400). */
  errors?: boolean | undefined;
}

const SECRET_PARAMS = new Set(['k', 'sig', 'signature', 'token']);

/** The path with the values of secret-bearing query parameters masked. */
export function maskPath(url: URL): string {
  if (!url.search) return url.pathname;
  const q = new URLSearchParams(url.search);
  for (const key of [...q.keys()]) if (SECRET_PARAMS.has(key.toLowerCase())) q.set(key, '***');
  return `${url.pathname}?${q.toString()}`;
}

export function matchesLog(e: RequestLogEntry, f: RequestLogFilter): boolean {
  if (f.shop !== undefined && e.shop_id !== f.shop) return false;
  if (f.method && e.method !== f.method.toUpperCase()) return false;
  if (f.path && !e.path.startsWith(f.path)) return false;
  if (f.errors && e.status < 400) return false;
  if (f.status) {
    const cls = /^([1-5])xx$/i.exec(f.status);
    if (cls ? Math.floor(e.status / 100) !== Number(cls[1]) : String(e.status) !== f.status) return false;
  }
  return true;
}

export class RequestLog {
  private readonly ring: RequestLogEntry[] = [];
  private start = 0;
  private seq = 0;
  readonly listeners = new Set<(e: RequestLogEntry) => void>();

  constructor(private readonly size = REQUEST_LOG_SIZE) {}

  private lastMs = -1;
  private lastAt = '';

  nextId(): string {
    return `req_${++this.seq}`;
  }

  /** Wall-clock now as RFC 3339; requests in the same millisecond share one string (no Date per request). */
  stamp(): string {
    const ms = Date.now();
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastAt = new Date(ms).toISOString();
    }
    return this.lastAt;
  }

  add(e: RequestLogEntry): void {
    if (this.ring.length < this.size) this.ring.push(e);
    else {
      this.ring[this.start] = e;
      this.start = (this.start + 1) % this.size;
    }
    for (const l of this.listeners) l(e);
  }

  /**
   * The entries matching `f` answered after the one of id `last` (a stream's Last-Event-ID), newest first; every
   * matching entry of the ring when `last` is no longer in it.
   */
  after(f: RequestLogFilter, last: string): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    for (let i = this.ring.length - 1; i >= 0; i--) {
      const e = this.ring[(this.start + i) % this.ring.length]!;
      if (e.id === last) break;
      if (matchesLog(e, f)) out.push(e);
    }
    return out;
  }

  /** The newest `limit` entries matching `f`, newest first. */
  recent(f: RequestLogFilter, limit: number): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    for (let i = this.ring.length - 1; i >= 0 && out.length < limit; i--) {
      const e = this.ring[(this.start + i) % this.ring.length]!;
      if (matchesLog(e, f)) out.push(e);
    }
    return out;
  }
}
