// The checkout handler: POST /checkout {order_id, customer_id, amount} → where to send the payer.
// A fetch-style handler (Request in, Response out), as Hono, Next.js route handlers or h3 take it.
import { createPayment, GatewayError, type GatewayConfig } from './gateway.js';
import type { Orders } from './orders.js';

export function checkoutHandler(cfg: GatewayConfig, orders: Orders) {
  return async (request: Request): Promise<Response> => {
    const { order_id, customer_id, amount } = (await request.json()) as {
      order_id: string;
      customer_id: string;
      amount: string;
    };
    try {
      const payment = await createPayment(cfg, { id: order_id, customerId: customer_id, amount });
      orders.set(order_id, { status: 'awaiting_payment', operationId: payment.operation_id, amount });
      // A hosted page when the gateway offers one; otherwise show the requisites ourselves.
      const next = payment.payment_url
        ? { redirect: payment.payment_url }
        : { transfer_to: payment.number, recipient: payment.name };
      return Response.json({ order_id, ...next }, { status: 201 });
    } catch (e) {
      if (e instanceof GatewayError && e.code === 'idempotency_conflict')
        return Response.json({ error: 'order already paid for with another amount' }, { status: 409 });
      throw e;
    }
  };
}
