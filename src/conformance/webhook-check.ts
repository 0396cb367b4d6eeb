// A webhook the upstream sent to the proxy (`paygate proxy --forward-webhooks-to`), checked like an exchange: its
// signature (webhook.signature), its body against the contract's event schema (webhook.payload), its type and id
// against its operation and header (webhook.type), and the operation it carries through the rules of a state read —
// the presence rules and the state table across everything seen before (state.illegal_move, state.immutable_field).
import { endpoints, type EndpointDef } from '../contract/endpoints.js';
import { WebhookEvent } from '../contract/webhook-event.js';
import type { BoundedMap } from './bounded.js';
import { contextOf, isObject, shown } from './context.js';
import { checkPresence, checkSettlement } from './operation-check.js';
import { shapeIssues } from './shape.js';
import type { Tracker } from './tracker.js';
import type { Exchange, Violation, WebhookDelivery } from './types.js';

/** The path a delivery shows in an Exchange (the proxy's receiver). */
export const WEBHOOK_PATH = '/proxy/webhooks';

const STATE_READ = endpoints['operation.state'] as EndpointDef;

/** A delivery as an Exchange: POST /proxy/webhooks with the event as the request, the proxy's answer as the response. */
export function webhookExchange(d: WebhookDelivery): Exchange {
  const request: Exchange['request'] = { method: 'POST', path: WEBHOOK_PATH, query: {}, headers: d.headers };
  if (d.body !== undefined) request.body = d.body;
  if (d.bodyText !== undefined) request.bodyText = d.bodyText;
  return {
    seq: d.seq,
    startedAt: d.startedAt,
    durationMs: d.durationMs,
    request,
    response: { status: d.status, headers: {} },
  };
}

/**
 * The delivery's violations. `newest` remembers, per operation, the created_at of the newest event whose status was
 * taken: an older event arriving later is a retry delivered out of order (Standard Webhooks does not promise order),
 * so its payload is checked but its status is not taken as a move.
 */
export function checkWebhook(d: WebhookDelivery, tracker: Tracker, newest: BoundedMap<string, number>): Violation[] {
  const out: Violation[] = [];
  const body = isObject(d.body) ? d.body : undefined;
  const type = typeof body?.type === 'string' ? body.type : undefined;
  const ctx = contextOf(webhookExchange(d), out, { endpoint: STATE_READ, name: `webhook ${type ?? '(no type)'}` });
  const data = isObject(body?.data) ? body.data : undefined;
  const op = isObject(data?.operation) ? data.operation : undefined;
  const found = { operationId: typeof op?.operation_id === 'string' ? op.operation_id : undefined };
  if (d.signature === 'invalid') {
    ctx.report(
      'webhook.signature',
      'a valid Standard Webhooks signature',
      d.signatureError ?? 'a bad signature',
      found,
    );
    return out;
  }
  if (!body) {
    ctx.report('webhook.payload', 'a JSON event object', d.bodyText !== undefined ? shown(d.bodyText) : 'no body');
    return out;
  }
  for (const issue of shapeIssues(WebhookEvent, body)) {
    if (issue.kind === 'missing') ctx.report('webhook.payload', `${issue.path} present`, `${issue.path} absent`, found);
    else if (issue.kind === 'unknown')
      ctx.report('webhook.payload', `no field ${issue.path}`, `${issue.path} ${shown(issue.got)}`, found);
    else ctx.report('webhook.payload', `${issue.path} ${issue.expected}`, `${issue.path} ${shown(issue.got)}`, found);
  }
  if (op && typeof op.status === 'string' && type !== undefined && type !== `operation.${op.status}`)
    ctx.report('webhook.type', `type operation.${op.status} (the status of data.operation)`, `type ${type}`, found);
  const id = d.headers['webhook-id'];
  if (id !== undefined && typeof body.id === 'string' && body.id !== id)
    ctx.report('webhook.type', `id ${shown(id)} (the webhook-id header)`, `id ${shown(body.id)}`, found);
  if (!op) return out;
  checkPresence(ctx, op);
  checkSettlement(ctx, op);
  const at = typeof body.created_at === 'string' ? Date.parse(body.created_at) : NaN;
  const key = found.operationId ?? '';
  const before = newest.get(key);
  if (Number.isFinite(at) && before !== undefined && at < before) return out;
  if (Number.isFinite(at) && key) newest.set(key, at);
  tracker.sawOperation(ctx, op);
  return out;
}
