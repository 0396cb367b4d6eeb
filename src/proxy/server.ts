// `paygate proxy`'s server: forwards every /v1 request and the health probes to the upstream (forward.ts), turns
// each exchange into an Exchange with no secret in it (exchange.ts), hands it to the conformance checker and to
// whoever listens (the live printer, the recorder), and serves its own views behind its admin token (views.ts) and
// the dashboard of what passed through it at /dashboard (dashboard.ts).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Pool } from 'undici';
import type { ConformanceChecker, Exchange, Violation, WebhookDelivery } from '../conformance/types.js';
import { isDashboardPath, proxyDashboard } from './dashboard.js';
import { buildExchange, type SeenRequest } from './exchange.js';
import { forward } from './forward.js';
import { ProxyStreamGate } from './sse.js';
import type { StreamGate } from '../emulator/http/stream-gate.js';
import { SupportModel } from './support-model.js';
import { serveView } from './views.js';
import { WEBHOOK_PATH, webhookReceiver, type WebhookForwarding } from './webhooks.js';

/** What passed through besides the Exchange: the raw request body, for the recorder (a receipt upload). */
export interface Passed {
  exchange: Exchange;
  request: SeenRequest;
}

/** A request the upstream did not answer: the caller got a 502. */
export interface UpstreamFailure {
  at: string;
  method: string;
  path: string;
  error: string;
}

export interface ProxyOptions {
  /** The gateway to forward to: http(s)://host[:port][/prefix]. */
  upstream: URL;
  /** PEM certificates to trust for an HTTPS upstream besides Node's roots. */
  ca?: string | undefined;
  /** The token of the proxy's own views. Default: a new random one. */
  adminToken?: string | undefined;
  /** Checks every exchange. Default: none (nothing is checked). */
  checker?: ConformanceChecker | undefined;
  /** How much of each body is kept for the Exchange (bytes). Default 1 MiB. */
  captureLimit?: number | undefined;
  /** Receive the upstream's webhooks at POST /proxy/webhooks and forward them (webhooks.ts). Default: none. */
  webhooks?: WebhookForwarding | undefined;
  /**
   * The URL browsers reach the proxy at (a TLS terminator's, `--public-url`): the dashboard's links follow its path
   * and its cookie is Secure when it is https. Default: the request's own.
   */
  publicUrl?: string | undefined;
  onExchange?: ((passed: Passed) => void) | undefined;
  /** Each webhook delivery received (with `webhooks`), once answered: the recorder's. */
  onWebhook?: ((delivery: WebhookDelivery) => void) | undefined;
  onViolation?: ((v: Violation, x: Exchange) => void) | undefined;
  onUpstreamFailure?: ((f: UpstreamFailure) => void) | undefined;
}

/** How many exchanges the /proxy/exchanges view keeps (the oldest go first). */
export const EXCHANGES_KEPT = 1000;

export interface Proxy {
  readonly adminToken: string;
  readonly upstream: URL;
  /** The newest exchanges (at most EXCHANGES_KEPT), oldest first. */
  readonly exchanges: readonly Exchange[];
  /** The violations the checker kept (its newest), oldest first. */
  readonly violations: readonly Violation[];
  /** How many violations were found in all. */
  readonly violationCount: number;
  readonly failures: readonly UpstreamFailure[];
  /** How many exchanges completed in all. */
  readonly count: number;
  /**
   * The shop a paygate upstream says an operation belongs to (GET /sandbox/operations/:id with `key`, used for that
   * request only); undefined from any other gateway.
   */
  shopOf(operationId: string, key: string): Promise<string | undefined>;
  listen(options?: { port?: number; host?: string }): Promise<{ url: string }>;
  close(): Promise<void>;
}

/** Paths forwarded to the upstream: the gateway's API and the three health probes. */
export function isForwarded(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/') || path === '/livez' || path === '/healthz' || path === '/readyz';
}

/** A keep-alive pool of connections to the upstream; `ca` trusted besides Node's roots. */
function poolOf(upstream: URL, ca: string | undefined): Pool {
  const connect = ca ? { ca: [...rootCertificates, ca] } : undefined;
  return new Pool(upstream.origin, { connections: 64, keepAliveTimeout: 10_000, ...(connect ? { connect } : {}) });
}

/** The paygate's answer to whose an operation is (Proxy.shopOf). */
async function shopOf(pool: Pool, prefix: string, operationId: string, key: string): Promise<string | undefined> {
  const res = await pool.request({
    method: 'GET',
    path: `${prefix}/sandbox/operations/${encodeURIComponent(operationId)}`,
    headers: { 'x-api-key': key, accept: 'application/json' },
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) return undefined;
  const shop = (JSON.parse(text) as { shop_id?: unknown }).shop_id;
  return typeof shop === 'string' ? shop : undefined;
}

/** The HTTP server: `handle` for each request (no Date header of its own: the upstream's passes through). */
function serverOf(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Server {
  const server = createServer((req, res) => {
    res.sendDate = false;
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Listen on `host`:`port`; the URL it listens at. */
async function listenOn(server: Server, port: number, host: string): Promise<{ url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${shown}:${address.port}` };
}

/**
 * The dashboard of what passed through: the model, the one stream gate of the proxy, and the checker's newest
 * violations with their count.
 */
function dashboardOf(opts: ProxyOptions, adminToken: string, support: { model: SupportModel; streams: StreamGate }) {
  return proxyDashboard({
    adminToken,
    ...support,
    publicRoot: opts.publicUrl,
    violations: (n) => ({ newest: opts.checker?.newestViolations(n) ?? [], total: opts.checker?.violationCount ?? 0 }),
  });
}

export function createProxy(opts: ProxyOptions): Proxy {
  const upstream = opts.upstream;
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const pool = poolOf(upstream, opts.ca);
  const adminToken = opts.adminToken ?? `pg_proxy_${randomBytes(12).toString('hex')}`;
  const limit = opts.captureLimit ?? 1024 * 1024;
  const exchanges: Exchange[] = [];
  const failures: UpstreamFailure[] = [];
  let count = 0;
  const upstreamName = upstream.href.replace(/\/$/, '');
  const state = {
    adminToken,
    upstream,
    exchanges,
    failures,
    support: { model: new SupportModel(), streams: new ProxyStreamGate() },
    get violations() {
      return opts.checker?.violations ?? [];
    },
    get violationCount() {
      return opts.checker?.violationCount ?? 0;
    },
    get count() {
      return count;
    },
  };

  const dashboard = dashboardOf(opts, adminToken, state.support);
  const webhook =
    opts.webhooks && webhookReceiver(opts.webhooks, { ...opts, model: state.support.model, seq: () => ++count });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === WEBHOOK_PATH && webhook) return webhook(req, res);
    if (isDashboardPath(path)) return void (await dashboard(req, res));
    if (!isForwarded(path)) return serveView(req, res, path, state);
    const started = performance.now();
    const startedAt = new Date();
    const done = await forward(pool, prefix, req, res, limit, upstreamName);
    if (done.callerGone) return;
    if (!done.response) {
      const f = { at: startedAt.toISOString(), method: req.method ?? 'GET', path, error: done.error ?? 'no answer' };
      failures.push(f);
      opts.onUpstreamFailure?.(f);
      return;
    }
    const x = buildExchange(++count, startedAt, performance.now() - started, done.request, done.response);
    exchanges.push(x);
    if (exchanges.length > EXCHANGES_KEPT) exchanges.shift();
    opts.onExchange?.({ exchange: x, request: done.request });
    const found = opts.checker?.check(x) ?? [];
    state.support.model.observe(x, found);
    for (const v of found) opts.onViolation?.(v, x);
  }

  const server = serverOf(handle);

  return {
    ...state,
    get violations() {
      return state.violations;
    },
    get violationCount() {
      return state.violationCount;
    },
    get count() {
      return count;
    },
    shopOf: (operationId, key) => shopOf(pool, prefix, operationId, key),
    listen: ({ port = 0, host = '127.0.0.1' } = {}) => listenOn(server, port, host),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}
