// The shop's webhook endpoints and the deliveries of its events (shop X-API-Key): list, add, rotate the secret,
// remove; list deliveries with their attempts (newest first, a page at a time), and redeliver.
import { sandboxControls } from '../../../contract/controls.js';
import type { WebhookEndpointRecord } from '../../../store/state.js';
import { ApiError } from '../../http/errors.js';
import { echo } from '../../../contract/echo.js';
import { UnknownCursorError } from '../../webhook-outbox/deliveries.js';
import { maskSecret, WebhookLimitError, type WebhookDelivery } from '../../webhook-outbox/outbox.js';
import { maskUrl } from '../../webhook-outbox/records.js';
import type { AnyCall, ControlHandler } from '../types.js';

/** An endpoint as listed: the secret masked (all but its last 4 characters). */
function listed(ep: WebhookEndpointRecord, now: number) {
  const overlap = ep.previous_secrets.filter((p) => Date.parse(p.expires_at) > now);
  return {
    id: ep.id,
    url: maskUrl(ep.url),
    secret: maskSecret(ep.secret),
    created_at: ep.created_at,
    ...(overlap.length > 0 ? { previous_secret_expires_at: overlap.at(-1)!.expires_at } : {}),
  };
}

export function deliveryView(d: WebhookDelivery) {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    endpoint_id: d.endpoint_id,
    url: maskUrl(d.url),
    status: d.status,
    created_at: d.created_at,
    next_attempt_at: d.next_attempt_at,
    attempts: d.attempts,
    ...(d.error ? { error: d.error } : {}),
  };
}

/** The endpoint of the path, if it is the shop's. */
function owned(call: AnyCall): WebhookEndpointRecord {
  const id = call.param('id');
  const ep = call.ctx.outbox.endpoint(call.shopId, id);
  if (!ep)
    throw new ApiError(
      'webhook_not_found',
      `no webhook endpoint ${echo(id)}; list them with GET ${sandboxControls['webhooks.list'].path}`,
    );
  return ep;
}

export const list: ControlHandler<'webhooks.list'> = (call) => {
  const { clock } = call.ctx.service;
  return { webhooks: call.ctx.outbox.endpointsOf(call.shopId).map((ep) => listed(ep, clock.now())) };
};

export const add: ControlHandler<'webhooks.add'> = async (call) => {
  const { url } = await call.body();
  const ep = await call.ctx.outbox.register(call.shopId, url).catch((e: unknown) => {
    throw e instanceof WebhookLimitError ? new ApiError('webhook_limit', e.message) : e;
  });
  return { id: ep.id, url: ep.url, secret: ep.secret, created_at: ep.created_at };
};

export const rotateSecret: ControlHandler<'webhooks.rotate_secret'> = async (call) => {
  const ep = await call.ctx.outbox.rotate(owned(call));
  return {
    id: ep.id,
    url: maskUrl(ep.url),
    secret: ep.secret,
    created_at: ep.created_at,
    previous_secret_expires_at: ep.previous_secrets.at(-1)!.expires_at,
  };
};

export const remove: ControlHandler<'webhooks.remove'> = async (call) => {
  await call.ctx.outbox.remove(owned(call));
  return { id: call.param('id'), deleted: true };
};

export const deliveries: ControlHandler<'webhooks.deliveries'> = (call) => {
  const q = call.query();
  const filter = { failed: q.failed === 'true', ...(q.event_id ? { event_id: q.event_id } : {}) };
  try {
    const page = call.ctx.outbox.page(call.shopId, filter, q.limit, q.cursor);
    return { deliveries: page.deliveries.map(deliveryView), has_more: page.has_more, next_cursor: page.next_cursor };
  } catch (e) {
    throw e instanceof UnknownCursorError ? new ApiError('validation_error', e.message) : e;
  }
};

export const redeliver: ControlHandler<'webhooks.redeliver'> = async (call) => {
  const body = await call.body();
  const filter = body.event_id !== undefined ? { event_id: body.event_id } : { failed: true };
  const scheduled = await call.ctx.outbox.redeliver(call.shopId, filter);
  if (scheduled.length === 0 && body.event_id !== undefined) {
    throw new ApiError('delivery_not_found', `no delivery of event ${echo(body.event_id)} to this shop's endpoints`);
  }
  return { scheduled: scheduled.length, deliveries: scheduled.map(deliveryView) };
};
