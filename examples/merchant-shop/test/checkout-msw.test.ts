// The same checkout with no port at all: msw answers the app's fetch() to the gateway's production base URL from an
// in-process sandbox (paygate/msw).
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaygateHandlers } from 'paygate/msw';
import { checkoutHandler } from '../src/checkout.js';
import { paymentState } from '../src/gateway.js';
import type { Orders } from '../src/orders.js';

const GATEWAY = { baseUrl: 'https://gateway.example.com', apiKey: 'pg_test_b_3Fk8Zp1YdQ6sWe5J' }; // shop B: no hosted page
const handlers = createPaygateHandlers({ baseUrl: GATEWAY.baseUrl });
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await handlers.close();
});

describe('checkout with msw', () => {
  const orders: Orders = new Map();
  const checkout = checkoutHandler(GATEWAY, orders);
  const post = (body: object) =>
    checkout(new Request('http://shop.local/checkout', { method: 'POST', body: JSON.stringify(body) }));

  it('without a hosted page, shows the requisites to transfer to', async () => {
    const res = await post({ order_id: '2001', customer_id: 'c-9', amount: '990.00' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { transfer_to: string; recipient: string; redirect?: string };
    expect(body.redirect).toBeUndefined();
    expect(body.transfer_to).toMatch(/^\d{16}$/);
    expect((await paymentState(GATEWAY, '2001')).status).toBe('pending');
  });

  it('the same order with another amount is refused by the gateway (412) and reported as a conflict', async () => {
    const res = await post({ order_id: '2001', customer_id: 'c-9', amount: '995.00' });
    expect(res.status).toBe(409);
  });
});
