// The webhook receiver: verifies the gateway's signature (paygate/webhooks, Standard Webhooks), then marks the order
// paid or failed. Deduplicates on the event id: delivery is at least once.
import { verifyWebhook, WebhookVerificationError } from 'paygate/webhooks';
import type { Orders } from './orders.js';

export function webhookHandler(secret: string, orders: Orders, opts: { now?: () => number } = {}) {
  const seen = new Set<string>();
  return async (request: Request): Promise<Response> => {
    const raw = new Uint8Array(await request.arrayBuffer());
    let event;
    try {
      event = verifyWebhook(raw, request.headers, secret, opts.now ? { now: opts.now() } : {});
    } catch (e) {
      if (e instanceof WebhookVerificationError) return new Response('bad signature', { status: 400 });
      throw e;
    }
    if (seen.has(event.id)) return new Response(null, { status: 204 });
    seen.add(event.id);
    const op = event.data.operation;
    const order = [...orders.values()].find((o) => o.operationId === op.operation_id);
    if (order && event.type === 'operation.completed')
      Object.assign(order, { status: 'paid', paidAmount: op.actual_amount });
    if (order && (event.type === 'operation.rejected' || event.type === 'operation.cancelled')) order.status = 'failed';
    return new Response(null, { status: 204 });
  };
}
