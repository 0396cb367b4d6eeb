// The webhook controls under /sandbox/webhooks (shop X-API-Key): register, list, rotate and delete endpoints,
// list deliveries with their attempts, and redeliver.
import type { H3 } from 'h3';
import { z } from 'zod';
import type { WebhookEndpointRecord } from '../store/state.js';
import type { Guard } from './app.js';
import type { WebhookDelivery, WebhookOutbox } from './webhooks.js';
import { parseWith, readJson } from './body.js';
import { ApiError } from './http-errors.js';
import { maskSecret } from './webhooks.js';

const RegisterRequest = z.object({ url: z.url({ protocol: /^https?$/, message: 'url must be an absolute http(s) URL' }) });
const RedeliverRequest = z
  .object({ event_id: z.string().min(1).optional(), failed: z.literal(true).optional() })
  .refine((b) => (b.event_id !== undefined) !== (b.failed !== undefined), { message: 'send exactly one of event_id or failed: true' });
const DeliveriesQuery = z.object({ failed: z.enum(['true', 'false']).optional(), event_id: z.string().min(1).optional() });

/** An endpoint as listed: the secret masked (all but its last 4 characters). */
function listed(ep: WebhookEndpointRecord, now: number) {
  const overlap = ep.previous_secrets.filter((p) => Date.parse(p.expires_at) > now);
  return {
    id: ep.id,
    url: ep.url,
    secret: maskSecret(ep.secret),
    created_at: ep.created_at,
    ...(overlap.length > 0 ? { previous_secret_expires_at: overlap.at(-1)!.expires_at } : {}),
  };
}

function deliveryView(d: WebhookDelivery) {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    endpoint_id: d.endpoint_id,
    url: d.url,
    status: d.status,
    created_at: d.created_at,
    next_attempt_at: d.next_attempt_at,
    attempts: d.attempts,
    ...(d.error ? { error: d.error } : {}),
  };
}

export function registerWebhookControls(app: H3, outbox: WebhookOutbox, now: () => number, guarded: Guard): void {
  const param = (event: { context: { params?: Record<string, string> } }) => event.context.params?.id ?? '';
  const owned = (shopId: string, id: string) => {
    const ep = outbox.endpoint(shopId, id);
    if (!ep) throw new ApiError(404, 'webhook_not_found', `no webhook endpoint ${id}; list them with GET /sandbox/webhooks`);
    return ep;
  };

  app.get(
    '/sandbox/webhooks',
    guarded((_event, shopId) => ({ webhooks: outbox.endpointsOf(shopId).map((ep) => listed(ep, now())) })),
  );

  app.post(
    '/sandbox/webhooks',
    guarded(async (event, shopId) => {
      const { url } = await readJson(event, RegisterRequest);
      const ep = await outbox.register(shopId, url);
      event.res.status = 201;
      return { id: ep.id, url: ep.url, secret: ep.secret, created_at: ep.created_at };
    }),
  );

  app.get(
    '/sandbox/webhooks/deliveries',
    guarded((event, shopId) => {
      const q = parseWith(DeliveriesQuery, Object.fromEntries(event.url.searchParams), 'query');
      const list = outbox.deliveries(shopId, { failed: q.failed === 'true', ...(q.event_id ? { event_id: q.event_id } : {}) });
      return { deliveries: list.map(deliveryView) };
    }),
  );

  app.post(
    '/sandbox/webhooks/deliveries/redeliver',
    guarded(async (event, shopId) => {
      const body = await readJson(event, RedeliverRequest);
      const filter = body.event_id !== undefined ? { event_id: body.event_id } : { failed: true };
      const scheduled = await outbox.redeliver(shopId, filter);
      if (scheduled.length === 0 && body.event_id !== undefined) {
        throw new ApiError(404, 'delivery_not_found', `no delivery of event ${body.event_id} to this shop's endpoints`);
      }
      return { scheduled: scheduled.length, deliveries: scheduled.map(deliveryView) };
    }),
  );

  app.post(
    '/sandbox/webhooks/:id/rotate-secret',
    guarded(async (event, shopId) => {
      const ep = await outbox.rotate(owned(shopId, param(event)));
      return { id: ep.id, url: ep.url, secret: ep.secret, created_at: ep.created_at, previous_secret_expires_at: ep.previous_secrets.at(-1)!.expires_at };
    }),
  );

  app.delete(
    '/sandbox/webhooks/:id',
    guarded(async (event, shopId) => {
      await outbox.remove(owned(shopId, param(event)));
      return { id: param(event), deleted: true };
    }),
  );
}
