// The dashboard on the proxy (`<proxy>/dashboard`): the sandbox's own dashboard (src/emulator/dashboard/) reading
// what passed through the proxy (support-model.ts, the support views' reads) instead of a sandbox — the operations
// (list with its filters and paging, one with its timeline, the violations on it and the state diagram of the path
// seen), the violations, the request log, live through the same streams as /sandbox/operations/stream and
// /sandbox/logs/stream. Signed in with the proxy's admin token (no shop key: the proxy holds none); the sections
// that need a sandbox's own state and every action are not offered (their addresses answer the 404 page).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { H3, type H3Event } from 'h3';
import { toNodeHandler } from 'h3/node';
import type { Violation } from '../conformance/types.js';
import { dashboardOf } from '../emulator/dashboard/routes.js';
import { dashboardEvents } from '../emulator/dashboard/events.js';
import { operationPage } from '../emulator/dashboard/operation.js';
import { operationsPage } from '../emulator/dashboard/operations.js';
import { requestEvents, requestsPage } from '../emulator/dashboard/pages/requests.js';
import type { DashRequest, PageHandler } from '../emulator/dashboard/request.js';
import { sectionOf, type Section, type SectionId } from '../emulator/dashboard/sections.js';
import { sameSecret } from '../emulator/dashboard/session.js';
import type { Answer, DashSource, ViolationRow, ViolationRows } from '../emulator/dashboard/source.js';
import { DASHBOARD_PATH } from '../emulator/dashboard/url.js';
import { violationsPage } from '../emulator/dashboard/violations.js';
import { errorResponse, toApiError } from '../emulator/http/errors.js';
import { eventStream, nodeResponseOf, type EventSink } from '../emulator/http/sse.js';
import { StreamGate } from '../emulator/http/stream-gate.js';
import type { SupportModel } from './support-model.js';
import { list, logsFeed, operationsFeed, recent, Refused, show } from './support-views.js';

/** The proxy's sections: what passed through it (no sandbox state, no control), and the violations it saw. */
const SECTIONS_OF_PROXY: readonly Section[] = [
  sectionOf('operations')!,
  { id: 'violations', label: 'nav.violations', adminOnly: false, command: 'GET /proxy/violations' },
  sectionOf('requests')!,
];

/** The page of each of its sections, and its other routes: read only (no form, no control). */
const SECTION_PAGES: Partial<Record<SectionId, PageHandler>> = {
  operations: operationsPage,
  violations: violationsPage,
  requests: requestsPage,
};

const PAGE_ROUTES: ReadonlyArray<{ method: 'GET' | 'POST'; path: string; handler: PageHandler }> = [
  { method: 'GET', path: '/events', handler: dashboardEvents },
  { method: 'GET', path: '/operations/:id', handler: (req) => operationPage(req) },
  { method: 'GET', path: '/requests/events', handler: requestEvents },
];

/** The proxy's session cookie: not the sandbox's, so a sandbox and a proxy on one host keep their own sessions. */
export const PROXY_SESSION_COOKIE = 'paygate_proxy_dashboard';

export const isDashboardPath = (path: string) => path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);

export interface ProxyDashboardState {
  readonly adminToken: string;
  readonly model: SupportModel;
  /** The public URL of the proxy (`--public-url`); undefined: the request's own origin, no prefix. */
  readonly publicRoot?: string | undefined;
  /** The newest `n` violations the checker kept, newest first, and how many it found in all. */
  violations(n: number): { newest: readonly Violation[]; total: number };
  /** The gate of every event stream of the proxy (its support views' too). Default: one of the dashboard's own. */
  readonly streams?: StreamGate | undefined;
}

/** A read of the model, its Refused as the page's refusal. */
function answered<T>(read: () => T): Answer<T> {
  try {
    return { ok: true, value: read() };
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    return { ok: false, status: e.status, code: e.code, message: e.message };
  }
}

const searchOf = (query: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, v);
  return q;
};

const rowOfViolation = (v: Violation, operationId: string | undefined, at?: string): ViolationRow => ({
  at: v.at ?? at ?? null,
  rule: v.rule,
  section: v.section,
  endpoint: v.endpoint,
  message: `${v.expected}; ${v.got}`,
  operation_id: operationId ?? v.operationId?.toLowerCase() ?? null,
  exchange: v.exchange,
});

/** The newest `limit` violations (all, or one operation's), newest first, each with its operation; and the count. */
function violationRows(state: ProxyDashboardState, limit: number, operationId?: string): ViolationRows {
  if (operationId !== undefined) {
    const op = state.model.operations.get(operationId.toLowerCase());
    const list = op?.violations ?? [];
    return {
      rows: list
        .slice(-limit)
        .reverse()
        .map((v) => rowOfViolation(v, op!.id)),
      total: list.length,
    };
  }
  const { newest, total } = state.violations(limit);
  const rowOf = (v: Violation, placed = state.model.placeOf(v)) => rowOfViolation(v, placed?.id, placed?.at);
  return { rows: newest.map((v) => rowOf(v)), total };
}

/** Answer a dashboard stream with the feed `open` makes of the request's query (a Refused: its JSON error). */
function stream(
  gate: StreamGate,
  req: DashRequest,
  feed: (search: URLSearchParams) => (sink: EventSink) => () => void,
) {
  const event: H3Event = req.event;
  try {
    return eventStream(gate, 'dashboard', nodeResponseOf(event), feed(event.url.searchParams));
  } catch (e) {
    if (e instanceof Refused) {
      event.context.errorCode = e.code;
      return Response.json({ code: e.code, message: e.message }, { status: e.status });
    }
    const refusal = toApiError(e);
    if (!refusal) throw e;
    return errorResponse(refusal);
  }
}

/** The dashboard's data source on the proxy. */
export function proxySource(state: ProxyDashboardState, gate = state.streams ?? new StreamGate()): DashSource {
  const { model } = state;
  return {
    labels: {
      signInLead: 'signin.lead.proxy',
      signInLabel: 'signin.label.proxy',
      signInWrong: 'signin.wrong.proxy',
      footer: 'app.proxy',
      record: 'op.support.proxy',
    },
    operationPanels: ['timeline', 'violations', 'receipts'],
    ctx: undefined,
    cookie: PROXY_SESSION_COOKIE,
    sections: SECTIONS_OF_PROXY,
    controls: false,
    publicRoot: () => state.publicRoot,
    isAdmin: (credential) => sameSecret(credential, state.adminToken),
    shopOfKey: () => undefined,
    shops: () => [...new Set([...model.operations.values()].map((op) => op.shop).filter((s) => s !== ''))].sort(),
    list: async (_shop, query) => answered(() => list(model, searchOf(query))),
    show: async (_shop, id) => answered(() => show(model, id, new URLSearchParams(), false)),
    logs: async (_shop, limit) => ({ ok: true, value: { requests: recent(model, {}, limit) } }),
    violations: (limit, operationId) => violationRows(state, limit, operationId),
    operationStream: async (req) => stream(gate, req, (search) => operationsFeed(model, search)),
    logStream: async (req) => stream(gate, req, (search) => logsFeed(model, search)),
  };
}

/** The proxy's dashboard as a Node handler of the paths under /dashboard. */
export function proxyDashboard(state: ProxyDashboardState): (req: IncomingMessage, res: ServerResponse) => unknown {
  const app = new H3();
  for (const r of dashboardOf(proxySource(state), SECTION_PAGES, PAGE_ROUTES).routes)
    app.on(r.method, r.path, r.handler);
  return toNodeHandler(app);
}
