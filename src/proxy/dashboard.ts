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
import type { DashRequest } from '../emulator/dashboard/request.js';
import { PROXY_SECTIONS } from '../emulator/dashboard/sections.js';
import { sameSecret } from '../emulator/dashboard/session.js';
import type { Answer, DashSource, ViolationRow } from '../emulator/dashboard/source.js';
import { PROXY_PAGE_ROUTES, PROXY_SECTION_PAGES } from '../emulator/dashboard/table.js';
import { errorResponse, toApiError } from '../emulator/http/errors.js';
import { eventStream, nodeResponseOf, type EventSink } from '../emulator/http/sse.js';
import { StreamGate } from '../emulator/http/stream-gate.js';
import type { SupportModel } from './support-model.js';
import { list, logsFeed, operationsFeed, recent, Refused, show } from './support-views.js';

/** The dashboard's path on the proxy. */
export const DASHBOARD_PATH = '/dashboard';

export const isDashboardPath = (path: string) => path === DASHBOARD_PATH || path.startsWith(`${DASHBOARD_PATH}/`);

export interface ProxyDashboardState {
  readonly adminToken: string;
  readonly model: SupportModel;
  /** Every violation the checker found so far, oldest first. */
  violations(): readonly Violation[];
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

const rowOfViolation = (v: Violation, operationId: string | undefined): ViolationRow => ({
  at: v.at ?? null,
  rule: v.rule,
  section: v.section,
  endpoint: v.endpoint,
  message: `${v.expected}; ${v.got}`,
  operation_id: operationId ?? v.operationId?.toLowerCase() ?? null,
  exchange: v.exchange,
});

/** The violations with the operation each was put on (the model's), oldest first. */
function violationRows(state: ProxyDashboardState, operationId?: string): ViolationRow[] {
  if (operationId !== undefined) {
    const op = state.model.operations.get(operationId.toLowerCase());
    return (op?.violations ?? []).map((v) => rowOfViolation(v, op!.id));
  }
  const owner = new Map<Violation, string>();
  for (const op of state.model.operations.values()) for (const v of op.violations) owner.set(v, op.id);
  return state.violations().map((v) => rowOfViolation(v, owner.get(v)));
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
export function proxySource(state: ProxyDashboardState, gate = new StreamGate()): DashSource {
  const { model } = state;
  return {
    kind: 'proxy',
    ctx: undefined,
    sections: PROXY_SECTIONS,
    controls: false,
    publicRoot: () => undefined,
    isAdmin: (credential) => sameSecret(credential, state.adminToken),
    shopOfKey: () => undefined,
    shops: () => [...new Set([...model.operations.values()].map((op) => op.shop).filter((s) => s !== ''))].sort(),
    list: async (_shop, query) => answered(() => list(model, searchOf(query))),
    show: async (_shop, id) => answered(() => show(model, id, new URLSearchParams())),
    logs: async (_shop, limit) => ({ ok: true, value: { requests: recent(model, {}, limit) } }),
    violations: (operationId) => violationRows(state, operationId),
    operationStream: async (req) => stream(gate, req, (search) => operationsFeed(model, search)),
    logStream: async (req) => stream(gate, req, (search) => logsFeed(model, search)),
  };
}

/** The proxy's dashboard as a Node handler of the paths under /dashboard. */
export function proxyDashboard(state: ProxyDashboardState): (req: IncomingMessage, res: ServerResponse) => unknown {
  const app = new H3();
  for (const r of dashboardOf(proxySource(state), PROXY_SECTION_PAGES, PROXY_PAGE_ROUTES).routes)
    app.on(r.method, r.path, r.handler);
  return toNodeHandler(app);
}
