// The proxy's own views, behind its admin token (X-Admin-Token): GET /proxy/violations (the violations the checker
// kept, how many in all, and every request the upstream did not answer) and GET /proxy/exchanges (the newest
// exchanges, secrets removed; the API key only as its fingerprint). Also served under /sandbox/proxy/… as the sandbox's controls are. The sandbox's
// support controls (/sandbox/operations…, /sandbox/logs…) are answered by support-views.ts. Anything else that is
// not forwarded is a 404 saying what is.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Exchange, Violation } from '../conformance/types.js';
import type { ProxyStreamGate } from './sse.js';
import type { SupportModel } from './support-model.js';
import { isSupportPath, serveSupport } from './support-views.js';

export interface ViewState {
  readonly adminToken: string;
  readonly upstream: URL;
  readonly exchanges: readonly Exchange[];
  readonly violations: readonly Violation[];
  readonly violationCount: number;
  readonly failures: readonly { at: string; method: string; path: string; error: string }[];
  readonly count: number;
  /** What the support controls (/sandbox/operations…, /sandbox/logs…) answer from, and their streams' gate. */
  readonly support?: { model: SupportModel; streams: ProxyStreamGate } | undefined;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const error = (res: ServerResponse, status: number, code: string, message: string) =>
  send(res, status, { code, message });

function tokenMatches(given: string | string[] | undefined, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True with the proxy's admin token; else answers the 401 (as the sandbox words it) and returns false. */
function authorized(req: IncomingMessage, res: ServerResponse, adminToken: string): boolean {
  const token = req.headers['x-admin-token'];
  if (token === undefined) error(res, 401, 'missing_admin_token', 'x-admin-token header is required');
  else if (!tokenMatches(token, adminToken)) error(res, 401, 'invalid_admin_token', 'invalid admin token');
  else return true;
  return false;
}

/** `limit` of the exchanges view: 1 to 1000, default 100. */
function limitOf(search: URLSearchParams): number | undefined {
  const raw = search.get('limit');
  if (raw === null) return 100;
  const n = Number(raw);
  return /^\d+$/.test(raw) && n >= 1 && n <= 1000 ? n : undefined;
}

export function serveView(req: IncomingMessage, res: ServerResponse, path: string, state: ViewState): void {
  if (state.support && isSupportPath(path)) {
    if (!authorized(req, res, state.adminToken)) return;
    return serveSupport(req, res, path, state.support.model, state.support.streams);
  }
  const view = path.replace(/^\/sandbox\/proxy\//, '/proxy/');
  if (view !== '/proxy/violations' && view !== '/proxy/exchanges') {
    return error(
      res,
      404,
      'not_found',
      `paygate proxy forwards /v1/… and /livez, /healthz, /readyz to ${state.upstream.origin}; its own views are GET /proxy/violations and GET /proxy/exchanges, and the support controls GET /sandbox/operations[/:id|/stream] and /sandbox/logs[/stream] (X-Admin-Token), and the dashboard at /dashboard`,
    );
  }
  if (req.method !== 'GET') return error(res, 405, 'method_not_allowed', `${view} takes GET`);
  if (!authorized(req, res, state.adminToken)) return;
  if (view === '/proxy/violations') {
    return send(res, 200, {
      upstream: state.upstream.href,
      exchanges: state.count,
      violations_total: state.violationCount,
      violations: state.violations,
      upstream_failures: state.failures,
    });
  }
  const search = new URL(req.url ?? '/', 'http://proxy').searchParams;
  const limit = limitOf(search);
  if (limit === undefined) return error(res, 400, 'validation_error', 'limit must be a whole number from 1 to 1000');
  send(res, 200, { total: state.count, exchanges: state.exchanges.slice(-limit) });
}
