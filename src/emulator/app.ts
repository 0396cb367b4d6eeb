// The h3 application: both endpoint tables of the contract — the gateway's and the sandbox controls' — mounted
// through one function (http/mount.ts) onto one handler per row (routes/gateway, routes/sandbox); the site routes
// outside the API (hosted payment pages, signed receipt downloads); and the not-found / method-not-allowed answer.
import { H3, type H3Event } from 'h3';
import { endpoints, sandboxControls, type EndpointDef } from '../contract/index.js';
import { RECEIPT_URL_TTL_MS, type AppContext, type RouteContext } from './context.js';
import { pathsOfTables } from './http/allow.js';
import { ApiError, errorResponse } from './http/errors.js';
import { echo } from '../contract/echo.js';
import { mountTable } from './http/mount.js';
import { requestIdSent, setRequestId } from './http/response.js';
import { authenticate } from './http/auth.js';
import { createDashboard } from './dashboard/routes.js';
import { pageEvents } from './pages/events.js';
import { servePageAsset, showFormTarget, showPaymentPage } from './pages/hosted-page.js';
import { choosePageAmount } from './pages/picker.js';
import { uploadPageReceipt } from './pages/upload.js';
import { downloadReceipt } from './receipts/download.js';
import { gatewayHandlers } from './routes/gateway/index.js';
import { controlHandlers } from './routes/sandbox/index.js';
import { signPath } from './receipts/signed-url.js';
import { maskPath, RequestLog } from './runtime/request-log.js';
import { StreamGate } from './http/stream-gate.js';
import { serverLimits } from './server-limits.js';

export type { AppContext, AppUrls, RouteContext } from './context.js';
export { RECEIPT_LIMIT, RECEIPT_URL_TTL_MS } from './context.js';

/** The routes outside the two endpoint tables: the hosted payment pages and signed receipt downloads. */
export const SITE_ROUTES = [
  { method: 'GET', path: '/storage/receipts/:file', handler: downloadReceipt },
  { method: 'GET', path: '/pay/assets/:file', handler: servePageAsset },
  { method: 'GET', path: '/pay/:id', handler: showPaymentPage },
  { method: 'GET', path: '/pay/:id/events', handler: pageEvents },
  { method: 'POST', path: '/pay/:id/receipt', handler: uploadPageReceipt },
  { method: 'GET', path: '/pay/:id/receipt', handler: showFormTarget },
  { method: 'POST', path: '/pay/:id/amount', handler: choosePageAmount },
  { method: 'GET', path: '/pay/:id/amount', handler: showFormTarget },
] as const;

/** The per-app helpers of the routes: the request log, the limits and receipt evidence. */
function routeContext(ctx: AppContext): RouteContext {
  const { service } = ctx;
  return {
    ...ctx,
    requestLog: new RequestLog(),
    limits: ctx.limits ?? serverLimits(undefined),
    streams: ctx.streams ?? new StreamGate(ctx.limits?.streams),
    evidence: () => ({
      available: service.evidenceAvailable,
      signFile: (fileId: string) =>
        `${ctx.urls.storage}${signPath(`/receipts/${fileId}`, service.clock.now() + RECEIPT_URL_TTL_MS, ctx.urlSecret)}`,
    }),
  };
}

/** The methods of each path of both tables: another method on it is 405 with Allow; any other unknown route is 404. */
const TABLE_PATHS = pathsOfTables([...(Object.values(endpoints) as EndpointDef[]), ...Object.values(sandboxControls)]);

/**
 * No route matched. Under /v1 the key is checked first (spec §5 rule 3: an unauthenticated request never reaches
 * dispatch), so without a valid key every /v1 request is 401 — only a valid key learns that a path or method does
 * not exist.
 */
function noSuchRoute(event: H3Event, ctx: AppContext): Response {
  if (event.url.pathname === '/v1' || event.url.pathname.startsWith('/v1/')) {
    try {
      event.context.shopId = authenticate(event, 'key', undefined, ctx);
    } catch (e) {
      if (e instanceof ApiError) {
        event.context.errorCode = e.code;
        return errorResponse(e);
      }
      throw e;
    }
  }
  const allowed = TABLE_PATHS.allowed(event.url.pathname);
  if (allowed) {
    event.context.errorCode = 'method_not_allowed';
    return errorResponse(
      new ApiError('method_not_allowed', `use ${allowed} ${event.url.pathname}`, { allow: allowed }),
    );
  }
  event.context.errorCode = 'not_found';
  return errorResponse(
    new ApiError('not_found', `no such endpoint: ${echo(event.req.method)} ${echo(event.url.pathname)}`),
  );
}

/** Log a request once answered (the request log ring), and give it an id (`x-request-id`). */
async function logRequest(event: H3Event, next: () => unknown, log: RequestLog): Promise<unknown> {
  const t0 = performance.now();
  const at = log.stamp();
  const id = log.nextId();
  // The id goes on the answer afterwards: a route that builds its own answer adds it there (http/response.ts),
  // so no Headers object is made for a request that does not need one.
  setRequestId(event, id);
  const result = await next();
  if (result instanceof Response) {
    // A handler's own Response (404/405, a body-less 204, a stream, a page) does not take event.res's headers.
    if (!requestIdSent(event) && !result.headers.has('x-request-id')) result.headers.set('x-request-id', id);
  } else {
    event.res.headers.set('x-request-id', id);
  }
  const status = result instanceof Response ? result.status : (event.res.status ?? 200);
  const ctx = event.context as { shopId?: string; errorCode?: string };
  log.add({
    id,
    at,
    shop_id: ctx.shopId ?? '',
    method: event.req.method,
    path: maskPath(event.url),
    status,
    latency_ms: Math.round((performance.now() - t0) * 100) / 100,
    error_code: status >= 400 ? (ctx.errorCode ?? null) : null,
  });
  return result;
}

/** HEAD is answered like GET, without the body (RFC 9110 §9.3.2): status and headers, never a 405 or a JSON body. */
async function answerHead(event: H3Event, app: H3): Promise<Response> {
  const res = await app.fetch(new Request(event.req.url, { method: 'GET', headers: event.req.headers }));
  await res.body?.cancel(); // a stream (the page's live events) stops at once
  return new Response(null, { status: res.status, headers: res.headers });
}

export function createApp(ctx: AppContext): H3 {
  const app = new H3();
  const routes = routeContext(ctx);
  // One middleware, not two: each is a layer of promises on every request.
  app.use((event, next) => {
    if (event.req.method === 'HEAD') return answerHead(event, app);
    // An empty path segment (an empty id: `/sandbox/operations/`) matches no route, though h3 ignores a trailing slash.
    if (TABLE_PATHS.hasEmptySegment(event.url.pathname))
      return logRequest(event, () => noSuchRoute(event, ctx), routes.requestLog);
    return logRequest(event, next, routes.requestLog);
  });
  mountTable(app, endpoints, gatewayHandlers, routes);
  mountTable(app, sandboxControls, controlHandlers, routes);
  for (const site of SITE_ROUTES) app.on(site.method, site.path, (event) => site.handler(event, routes));
  // The dashboard (src/emulator/dashboard/): its own sessions per app, so per workspace.
  for (const r of createDashboard(routes).routes) app.on(r.method, r.path, r.handler);
  app.all('/**', (event) => noSuchRoute(event, ctx));
  return app;
}
