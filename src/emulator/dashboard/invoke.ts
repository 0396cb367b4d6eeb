// The dashboard acts and reads through the same controls as the CLI: the handler of a row of the contract's tables
// (operations.list, operations.show, operations.pay, webhooks.redeliver, operation.cancel, …), run in process with
// the session's shop (the admin's: the operation's own shop) in place of a key, its query and body validated by the
// row's own schemas and under the faults in force, exactly as a request with that shop's key would be. The result
// is the control's wire answer; a refusal is the control's ApiError (code and message).
import { H3Event } from 'h3';
import { sandboxControls, type ControlId } from '../../contract/controls.js';
import { endpoints, type EndpointId } from '../../contract/endpoints.js';
import type { EndpointRow } from '../../contract/endpoint-row.js';
import type { RouteContext } from '../context.js';
import { ApiError, toApiError } from '../http/errors.js';
import { Call, type RouteHandler } from '../http/handler.js';
import { gatewayHandlers } from '../routes/gateway/index.js';
import { controlHandlers } from '../routes/sandbox/index.js';

export interface Invocation {
  /** The shop the call acts for ('' for the admin's cross-shop reads). */
  shopId: string;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

/** A control's or endpoint's row and handler, by its dotted id. */
function rowOf(id: ControlId | EndpointId): { row: EndpointRow; handler: RouteHandler<EndpointRow> } {
  if (id in sandboxControls) {
    const row = sandboxControls[id as ControlId] as EndpointRow;
    return { row, handler: controlHandlers[id as ControlId] as RouteHandler<EndpointRow> };
  }
  const row = endpoints[id as EndpointId] as EndpointRow;
  return { row, handler: gatewayHandlers[id as EndpointId] as RouteHandler<EndpointRow> };
}

/** Run the control `id` as the session may; its wire answer, or throws its ApiError. */
export async function invoke<T = unknown>(ctx: RouteContext, id: ControlId | EndpointId, inv: Invocation): Promise<T> {
  const { row, handler } = rowOf(id);
  const url = new URL(
    row.path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(inv.params?.[p] ?? '')),
    'http://dashboard.local',
  );
  for (const [k, v] of Object.entries(inv.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, v);
  const body = inv.body === undefined ? null : JSON.stringify(inv.body);
  const request = new Request(url, {
    method: row.method,
    headers: body === null ? {} : { 'content-type': 'application/json' },
    body,
  });
  const event = new H3Event(request);
  event.context.params = { ...(inv.params ?? {}) };
  const call = new Call(event, ctx, row, inv.shopId);
  try {
    return (await ctx.faults.around(row, call, () => handler(call))) as T;
  } catch (e) {
    throw toApiError(e) ?? e;
  }
}

/** The control's refusal as the dashboard shows it (`code: message`), or undefined for an unexpected error. */
export function refusalOf(e: unknown): { code: string; message: string; status: number } | undefined {
  return e instanceof ApiError ? { code: e.code, message: e.message, status: e.status } : undefined;
}
