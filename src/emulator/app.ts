// The h3 application: one small handler per endpoint of the contract. Each handler authenticates, validates
// with the contract, calls the service, and maps the result to the wire shape.
import { H3, type H3Event } from 'h3';
import {
  CreateOperationRequest,
  GetOperationStateRequest,
  endpoints,
  type EndpointDef,
} from '../contract/index.js';
import type { OperationKind } from '../domain/operation.js';
import type { GatewayService } from './service.js';
import { readJson } from './body.js';
import { ApiError, errorResponse, toApiError } from './http-errors.js';
import { toWireBalance, toWireOperation, toWireState } from './wire.js';

export interface AppUrls {
  /** Base of hosted payment pages; payment_url is `${paymentPage}/<operation_id>`. */
  paymentPage: string;
  /** Base of receipt file links. */
  storage: string;
}

export interface AppContext {
  service: GatewayService;
  urls: AppUrls;
  /** Readiness: false while starting or closing. */
  ready: () => boolean;
  log?: (line: string) => void;
}

type Handler = (event: H3Event, shopId: string) => Promise<unknown> | unknown;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function createApp(ctx: AppContext): H3 {
  const { service } = ctx;
  const app = new H3();

  /** Wrap a handler: auth first (spec §5), then the handler; every failure becomes { code, message }. */
  const guarded = (fn: Handler, auth = true) => async (event: H3Event) => {
    try {
      let shopId = '';
      if (auth) {
        const a = service.authenticate(event.req.headers.get('x-api-key'));
        if (!a.ok) {
          throw a.reason === 'missing'
            ? new ApiError(401, 'missing_api_key', 'x-api-key header is required')
            : new ApiError(401, 'invalid_api_key', 'invalid api key');
        }
        shopId = a.shopId;
      }
      const out = await fn(event, shopId);
      return out instanceof Response ? out : json(out);
    } catch (e) {
      const api = toApiError(e);
      if (api) return errorResponse(api);
      ctx.log?.(`internal error on ${event.req.method} ${event.url.pathname}: ${(e as Error)?.stack ?? String(e)}`);
      return errorResponse(new ApiError(500, 'internal_error', 'the sandbox hit an unexpected error; see its log'));
    }
  };

  const route = (e: EndpointDef, fn: Handler) => {
    if (e.method === 'GET') app.get(e.path, guarded(fn, e.auth));
    else app.post(e.path, guarded(fn, e.auth));
  };

  const create = (kind: OperationKind, link: boolean): Handler => async (event, shopId) => {
    const params = await readJson(event, CreateOperationRequest);
    const op = await service.create(shopId, kind, params);
    const wire = toWireOperation(op, service.world);
    if (!link) return wire;
    const hosted = service.world.shops.get(shopId)?.hosted_page ?? false;
    return { ...wire, payment_url: hosted ? `${ctx.urls.paymentPage}/${op.id}` : null };
  };

  route(endpoints.createPayment, create('payment', false));
  route(endpoints.createPaymentLink, create('payment', true));
  route(endpoints.createPayout, create('payout', false));

  route(endpoints.getOperationState, async (event, shopId) => {
    const ref = await readJson(event, GetOperationStateRequest);
    const op = await service.get(
      shopId,
      ref.operation_id !== undefined ? { operation_id: ref.operation_id } : { merchant_operation_id: ref.merchant_operation_id! },
    );
    return toWireState(op, service.world);
  });

  route(endpoints.getBalances, async (_event, shopId) => {
    await service.store.sync();
    return { balances: service.balances(shopId).map(toWireBalance) };
  });

  for (const e of [endpoints.createFlexibleLink, endpoints.confirmPayment, endpoints.cancelOperation, endpoints.getAvailability, endpoints.getRecommendations]) {
    route(e, () => {
      throw new ApiError(501, 'not_implemented', `${e.method} ${e.path} is not implemented by this sandbox version yet`);
    });
  }

  const probe = (healthy: () => boolean) => () =>
    healthy() ? new Response(null, { status: 204 }) : errorResponse(new ApiError(503, 'unhealthy', 'the sandbox is not ready'));
  route(endpoints.livez, probe(() => true));
  route(endpoints.healthz, probe(ctx.ready));
  route(endpoints.readyz, probe(ctx.ready));

  const known = new Map<string, string>((Object.values(endpoints) as EndpointDef[]).map((e) => [e.path, e.method]));
  app.all('/**', (event) => {
    const allowed = known.get(event.url.pathname);
    if (allowed) {
      return errorResponse(new ApiError(405, 'method_not_allowed', `use ${allowed} ${event.url.pathname}`, { allow: allowed }));
    }
    return errorResponse(new ApiError(404, 'not_found', `no such endpoint: ${event.req.method} ${event.url.pathname}`));
  });

  return app;
}
