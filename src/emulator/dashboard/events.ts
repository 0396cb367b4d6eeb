// GET <dashboard>/events: the dashboard's live feed — the operations stream itself (operations.stream, what
// `paygate ops watch` reads), run with the session's scope in place of a key: every change matching the page's
// filters, or one operation (`id=`) until it is terminal. The browser's EventSource sends the session cookie, never
// a key. Nothing listens while no dashboard page is open: the stream's write listener exists only as long as it.
import { sandboxControls } from '../../contract/controls.js';
import type { EndpointRow } from '../../contract/endpoint-row.js';
import { errorResponse, toApiError } from '../http/errors.js';
import { Call, type RouteHandler } from '../http/handler.js';
import { controlHandlers } from '../routes/sandbox/index.js';
import type { RouteContext } from '../context.js';
import type { DashRequest } from './request.js';

/** Runs the sandbox's stream control `id` on the request's own event, with the session's scope in place of a key. */
export async function streamControl(
  ctx: RouteContext,
  req: DashRequest,
  id: 'operations.stream' | 'logs.stream',
): Promise<unknown> {
  const row = sandboxControls[id] as EndpointRow;
  const handler = controlHandlers[id] as RouteHandler<EndpointRow>;
  // The request's own event: the stream writes to its socket, bounded as every stream of the sandbox is.
  const call = new Call(req.event, ctx, row, req.shop ?? '');
  try {
    return await handler(call);
  } catch (e) {
    const refusal = toApiError(e);
    if (!refusal) throw e;
    req.event.context.errorCode = refusal.code;
    return errorResponse(refusal);
  }
}

/** GET <dashboard>/events: the operations stream of the dashboard's source (the sandbox's, or the proxy's). */
export function dashboardEvents(req: DashRequest): Promise<unknown> {
  return req.d.source.operationStream(req);
}
