// The h3 application: one small handler per endpoint of the contract. Each handler authenticates, validates
// with the contract, calls the service, and maps the result to the wire shape.
import { createHash, timingSafeEqual } from 'node:crypto';
import { H3, type H3Event } from 'h3';
import { header } from './headers.js';
import {
  CancelOperationRequest,
  ConfirmPaymentFields,
  CreateOperationRequest,
  GetOperationStateRequest,
  endpoints,
  type EndpointDef,
} from '../contract/index.js';
import type { OperationKind } from '../domain/operation.js';
import type { KeyScope } from '../domain/world.js';
import type { GatewayService } from './service.js';
import { parseWith, readJson, readLimited } from './body.js';
import { registerControls } from './controls.js';
import { registerWebhookControls } from './webhook-controls.js';
import type { WebhookOutbox } from './webhooks.js';
import { registerHostedPages } from './hosted-page.js';
import { registerAmountEndpoints } from './amount-endpoints.js';
import { registerPoolControls } from './pool-controls.js';
import { receiptCheck } from './receipts/check.js';
import { signPath, verifySignedPath } from './signed-url.js';
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
  /** Credential of the cross-shop sandbox controls (x-admin-token). */
  adminToken: string;
  /** Secret that signs receipt download links. */
  urlSecret: Uint8Array;
  /** Readiness: false while starting or closing. */
  ready: () => boolean;
  log?: (line: string) => void;
  /** The webhook outbox; without it the /sandbox/webhooks controls are absent. */
  outbox?: WebhookOutbox;
}

export type Handler = (event: H3Event, shopId: string) => Promise<unknown> | unknown;

/** How long a receipt download link stays valid (sandbox time). */
export const RECEIPT_URL_TTL_MS = 15 * 60_000;
/** Largest receipt upload accepted (bytes). */
export const RECEIPT_LIMIT = 10 * 1024 * 1024;

function safeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

export type Guard = (fn: Handler, auth?: boolean | 'admin', scope?: KeyScope) => (event: H3Event) => Promise<unknown>;

/** The optional endpoint group each endpoint belongs to; a key limited to other groups gets 403 (spec §7). */
const SCOPE_OF: Partial<Record<string, KeyScope>> = {
  createPaymentLink: 'links',
  createFlexibleLink: 'links',
  getAvailability: 'amounts',
  getRecommendations: 'amounts',
};

export type Route = (e: EndpointDef, fn: Handler) => void;

export function createApp(ctx: AppContext): H3 {
  const { service } = ctx;
  const app = new H3();

  /** Wrap a handler: auth first (spec §5), then the handler; every failure becomes { code, message }. */
  const guarded = (fn: Handler, auth: boolean | 'admin' = true, scope?: KeyScope) => async (event: H3Event) => {
    try {
      let shopId = '';
      if (auth === 'admin') {
        const token = header(event, 'x-admin-token');
        if (!token) throw new ApiError(401, 'missing_admin_token', 'x-admin-token header is required for this sandbox control (printed by paygate sandbox start)');
        if (!safeEqual(token, ctx.adminToken)) throw new ApiError(401, 'invalid_admin_token', 'invalid admin token');
      } else if (auth) {
        const a = service.authenticate(header(event, 'x-api-key'));
        if (!a.ok) {
          throw a.reason === 'missing'
            ? new ApiError(401, 'missing_api_key', 'x-api-key header is required')
            : new ApiError(401, 'invalid_api_key', 'invalid api key');
        }
        shopId = a.shopId;
        if (scope && a.scopes && !a.scopes.includes(scope)) {
          throw new ApiError(403, 'key_not_authorized', `this API key is not authorized for ${scope === 'links' ? 'payment link' : 'availability and recommendation'} endpoints; issue a key with the ${scope} scope`);
        }
      }
      // A plain object is serialized by h3 itself: about twice as fast as building a Response.
      return await fn(event, shopId);
    } catch (e) {
      let api = toApiError(e);
      if (!api) {
        ctx.log?.(`internal error on ${event.req.method} ${event.url.pathname}: ${(e as Error)?.stack ?? String(e)}`);
        api = new ApiError(500, 'internal_error', 'the sandbox hit an unexpected error; see its log');
      }
      event.res.status = api.status;
      event.res.headers.set('cache-control', 'no-store');
      for (const [k, v] of Object.entries(api.headers)) event.res.headers.set(k, v);
      return { code: api.code, message: api.message };
    }
  };

  const route: Route = (e, fn) => {
    if (e.method === 'GET') app.get(e.path, guarded(fn, e.auth, SCOPE_OF[e.id]));
    else app.post(e.path, guarded(fn, e.auth, SCOPE_OF[e.id]));
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

  const evidence = () => ({
    available: service.evidenceAvailable,
    signFile: (fileId: string) => `${ctx.urls.storage}${signPath(`/receipts/${fileId}`, service.clock.now() + RECEIPT_URL_TTL_MS, ctx.urlSecret)}`,
  });

  route(endpoints.getOperationState, async (event, shopId) => {
    const ref = await readJson(event, GetOperationStateRequest);
    const byId = ref.operation_id !== undefined;
    const op = await service.get(shopId, byId ? { operation_id: ref.operation_id! } : { merchant_operation_id: ref.merchant_operation_id! });
    const state = toWireState(op, service.world, evidence());
    if (state.receipt_evidence_status === 'unavailable' && byId) {
      // By operation_id the evidence must materialize (spec §4.6): say so instead of answering without it.
      throw new ApiError(503, 'evidence_unavailable', 'receipt evidence is temporarily unavailable; retry later, or read by merchant_operation_id', { 'retry-after': '1' });
    }
    return state;
  });

  route(endpoints.cancelOperation, async (event, shopId) => {
    const body = await readJson(event, CancelOperationRequest);
    const ref = body.operation_id !== undefined ? { operation_id: body.operation_id } : { merchant_operation_id: body.merchant_operation_id! };
    const { outcome, op } = await service.cancel(shopId, ref, body.reason ?? '');
    return { outcome, operation: toWireOperation(op, service.world) };
  });

  route(endpoints.confirmPayment, async (event, shopId) => {
    const type = header(event, 'content-type') ?? '';
    if (!/^multipart\/form-data\b/i.test(type)) {
      throw new ApiError(415, 'unsupported_media_type', 'send confirm_payment as multipart/form-data with fields operation_id, confirmation_type and the file part receipt');
    }
    const bytes = await readLimited(event, RECEIPT_LIMIT);
    let form: FormData;
    try {
      form = await new Request('http://paygate.local/', { method: 'POST', headers: { 'content-type': type }, body: bytes }).formData();
    } catch {
      throw new ApiError(400, 'invalid_multipart', 'the multipart body could not be parsed');
    }
    const fields = parseWith(ConfirmPaymentFields, { operation_id: form.get('operation_id') ?? undefined, confirmation_type: form.get('confirmation_type') ?? undefined }, 'form');
    const receipt = form.get('receipt');
    if (!receipt || typeof receipt === 'string') throw new ApiError(400, 'validation_error', 'receipt: a file part named receipt is required');
    if (receipt.size === 0) throw new ApiError(400, 'validation_error', 'receipt: the file is empty');
    const file = new Uint8Array(await receipt.arrayBuffer());
    const op = await service.uploadReceipt(shopId, fields.operation_id, { bytes: file, filename: receipt.name || 'receipt', contentType: receipt.type || 'application/octet-stream' }, receiptCheck(file));
    return toWireOperation(op, service.world);
  });

  app.get('/storage/receipts/:file', async (event) => {
    const file = event.context.params?.file ?? '';
    const check = verifySignedPath(`/receipts/${file}`, event.url.searchParams, service.clock.now(), ctx.urlSecret);
    if (!check.ok) return errorResponse(new ApiError(check.reason === 'expired' ? 410 : 404, check.reason === 'expired' ? 'link_expired' : 'not_found', check.reason === 'expired' ? 'this receipt link has expired; read the operation state again for a fresh one' : 'no such file'));
    const owner = service.state.fileOwner.get(file);
    const upload = owner ? service.state.operation(owner)?.uploads?.find((u) => u.file_id === file) : undefined;
    const bytes = upload ? await service.files.get(file) : undefined;
    if (!upload || !bytes) return errorResponse(new ApiError(404, 'not_found', 'no such file'));
    return new Response(bytes, { headers: { 'content-type': upload.content_type, 'content-disposition': `inline; filename="${upload.filename.replace(/"/g, '')}"`, 'cache-control': 'private, no-store' } });
  });

  registerControls(app, ctx, guarded, evidence);
  if (ctx.outbox) registerWebhookControls(app, ctx.outbox, () => service.clock.now(), guarded);
  registerPoolControls(app, ctx, guarded);
  registerHostedPages(app, ctx);

  route(endpoints.getBalances, async (_event, shopId) => {
    await service.store.sync();
    return { balances: service.balances(shopId).map(toWireBalance) };
  });

  registerAmountEndpoints(app, ctx, route);

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
