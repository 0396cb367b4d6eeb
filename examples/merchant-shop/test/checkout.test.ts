// The checkout and the webhook receiver against a real sandbox on 127.0.0.1 (paygate/testing): the app calls the
// gateway with fetch over HTTP; the sandbox's webhooks reach the app's receiver; the test plays the payer and
// moves the sandbox clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox } from 'paygate/testing';
import { checkoutHandler } from '../src/checkout.js';
import type { Orders } from '../src/orders.js';
import { webhookHandler } from '../src/webhooks.js';

const orders: Orders = new Map();
let sb: TestSandbox;
let checkout: (r: Request) => Promise<Response>;
let receiver: (r: Request) => Promise<Response> = async () => new Response(null, { status: 503 });

beforeAll(async () => {
  sb = await startSandbox({ forwardWebhooksTo: (req) => receiver(req) });
  receiver = webhookHandler(sb.webhookSecret, orders);
  checkout = checkoutHandler({ baseUrl: sb.baseUrl, apiKey: sb.keys.shop_a! }, orders);
});
afterAll(() => sb.close());

const order = (id: string, amount: string) =>
  new Request('http://shop.local/checkout', {
    method: 'POST',
    body: JSON.stringify({ order_id: id, customer_id: 'cust-1', amount }),
  });

describe('checkout', () => {
  it('sends the payer to the hosted page; the completed webhook marks the order paid', async () => {
    const res = await checkout(order('1001', '1500.00'));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { redirect: string };
    expect(body.redirect).toMatch(/\/pay\/[0-9a-f-]{36}$/);
    const { operationId } = orders.get('1001')!;

    await sb.pay(operationId);
    const event = await sb.webhooks.waitFor('operation.completed', { operationId });
    expect(event.data.operation.actual_amount).toBe('1500.00');
    expect(orders.get('1001')).toMatchObject({ status: 'paid', paidAmount: '1500.00' });
  });

  it('a payer who pays less: the order records what was paid', async () => {
    await checkout(order('1002', '2000.00'));
    await sb.pay(orders.get('1002')!.operationId, '1800.00');
    expect(orders.get('1002')).toMatchObject({ status: 'paid', paidAmount: '1800.00' });
  });

  it('an unpaid order fails when the payment window passes (30 min of sandbox time, no waiting)', async () => {
    await checkout(order('1003', '700.00'));
    await sb.clock.advance('29m');
    expect(orders.get('1003')!.status).toBe('awaiting_payment');
    await sb.clock.advance('1m');
    expect(orders.get('1003')!.status).toBe('failed');
    expect(sb.webhooks.events('operation.rejected').map((e) => e.data.operation.operation_id)).toContain(
      orders.get('1003')!.operationId,
    );
  });

  it('the receiver refuses a forged webhook', async () => {
    const forged = new Request('http://shop.local/webhooks', {
      method: 'POST',
      headers: {
        'webhook-id': 'evt_x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: JSON.stringify({
        id: 'evt_x',
        type: 'operation.completed',
        data: { operation: { operation_id: orders.get('1003')!.operationId } },
      }),
    });
    expect((await receiver(forged)).status).toBe(400);
    expect(orders.get('1003')!.status).toBe('failed');
  });
});
