// The one way a route of an endpoint table gets into the app: for each row, its method and path go to the handler
// of the same id, behind the guard (authentication first, then the handler; every failure becomes { code, message }).
// A row without a handler, or a handler without a row, stops the app from being built.
import type { H3, H3Event } from 'h3';
import type { EndpointScope } from '../../contract/endpoints.js';
import { type EndpointRow } from '../../contract/endpoint-row.js';
import type { RouteContext } from '../context.js';
import { authenticate } from './auth.js';
import { ApiError, toApiError } from './errors.js';
import { Call, type RouteHandler } from './handler.js';
import { isPlainJson, jsonAnswer, resUntouched } from './response.js';
import { FastResponse } from 'srvx';
import { h3Routes } from './h3-internals.js';

/** A handler for every row of the table `T`, under the row's key. */
export type HandlersOf<T extends Record<string, EndpointRow>> = { readonly [K in keyof T]: RouteHandler<T[K]> };

/** One route the app answers: its method ('' for any), path, and the dotted id of its table row if it has one. */
export interface MountedRoute {
  method: string;
  path: string;
  id: string | undefined;
}

/** The success status of a row that names none. */
const DEFAULT_STATUS = 200;

function guard<R extends EndpointRow>(
  row: R,
  handler: RouteHandler<R>,
  ctx: RouteContext,
): (event: H3Event) => Promise<unknown> {
  const credential = row.auth;
  const scope = (row as { scope?: EndpointScope }).scope;
  return async (event) => {
    try {
      const shopId = authenticate(event, credential, scope, ctx);
      event.context.shopId = shopId;
      const call = new Call(event, ctx, row, shopId);
      // Injected faults act after authentication, around the handler (src/emulator/faults/injector.ts).
      const result = await ctx.faults.around(row, call, () => handler(call));
      // A plain object is serialized here, headers as a plain list, unless the route set a status or header itself.
      if (isPlainJson(result) && resUntouched(event)) return jsonAnswer(event, result, row.status ?? DEFAULT_STATUS);
      if (row.status === undefined) return result;
      // A body-less success is a Response of its own.
      if (result === undefined) return new FastResponse(null, { status: row.status });
      event.res.status = row.status;
      return result;
    } catch (e) {
      let api = toApiError(e);
      if (!api) {
        ctx.log?.(`internal error on ${event.req.method} ${event.url.pathname}: ${(e as Error)?.stack ?? String(e)}`);
        api = new ApiError('internal_error', 'the sandbox hit an unexpected error; see its log');
      }
      event.res.status = api.status;
      event.context.errorCode = api.code;
      event.res.headers.set('cache-control', 'no-store');
      for (const [k, v] of Object.entries(api.headers)) event.res.headers.set(k, v);
      return { code: api.code, message: api.message };
    }
  };
}

/** Mount every row of `table` with its handler from `handlers`; throws when the two do not match one to one. */
export function mountTable<T extends Record<string, EndpointRow>>(
  app: H3,
  table: T,
  handlers: HandlersOf<T>,
  ctx: RouteContext,
): void {
  for (const key of Object.keys(handlers)) {
    if (!Object.hasOwn(table, key)) throw new Error(`handler ${key} has no row in the endpoint table`);
  }
  const byKey = handlers as Readonly<Record<string, RouteHandler<EndpointRow> | undefined>>;
  for (const [key, row] of Object.entries(table)) {
    const handler = byKey[key];
    if (typeof handler !== 'function') throw new Error(`no handler for ${row.method} ${row.path} (${row.id})`);
    app.on(row.method, row.path, guard(row, handler, ctx), { meta: { id: row.id } });
  }
}

/** Every route the app holds, in the order mounted (read from h3's route list). */
export function routesOf(app: H3): MountedRoute[] {
  return h3Routes(app).map((r) => ({
    method: r.method,
    path: r.route,
    id: typeof r.meta?.id === 'string' ? r.meta.id : undefined,
  }));
}
