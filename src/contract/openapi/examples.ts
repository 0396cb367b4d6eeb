// The example request of each operation, by endpoint id: what the document shows and what a Postman collection
// converted from it sends (parameter generation "Example"). They are one coherent run against the default sandbox
// (fixtures/default.json) with shop A's key, in the document's order: the payment created by createPayment needs a
// receipt (WT_RUB_PHONE), confirmPayment uploads one for it (fixtures/receipts/ok-1500.pdf), getOperationState
// reads it, cancelOperation cancels the link's payment. createFlexibleLink needs a pool-only shop (shop_pool's key).
// test/contract/openapi.test.ts parses every one with its endpoint's zod schema; postman.test.ts runs them.

/** operation_id of shop_a's order-1001: operation ids are derived from the shop and merchant_operation_id. */
export const EXAMPLE_OPERATION_ID = '1b971a67-1723-5d72-9a5c-ed5ba1404fd6';

const payment = {
  merchant_operation_id: 'order-1001',
  client_id: 'client-42',
  client_ip: '203.0.113.7',
  method: 'WT_RUB_PHONE',
  amount: '1500.00',
  currency: 'RUB',
};

export interface NamedExample {
  summary: string;
  value: unknown;
}

/** One example (`example`) or several (`examples`, the first is the one converters send). */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  'payment.create': payment,
  'payment.link': { ...payment, merchant_operation_id: 'order-1002', method: 'WT_RUB_C2C' },
  'payment.flexible_link': {
    merchant_operation_id: 'order-1003',
    client_id: 'client-42',
    method: 'WT_RUB_C2C',
    currency: 'RUB',
    recommended_amount: '1500.00',
    min_amount: '1000.00',
    max_amount: '2000.00',
  },
  'payout.create': {
    merchant_operation_id: 'payout-2001',
    client_id: 'client-42',
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
    number: '2200701234567890',
    name: 'Ivan Petrov',
  },
  'operation.state': [
    { summary: 'By operation_id', value: { operation_id: EXAMPLE_OPERATION_ID } },
    { summary: 'By merchant_operation_id', value: { merchant_operation_id: 'order-1001' } },
  ] satisfies NamedExample[],
  'operation.cancel': [
    {
      summary: 'By merchant_operation_id',
      value: { merchant_operation_id: 'order-1002', reason: 'customer changed their mind' },
    },
    { summary: 'By operation_id', value: { operation_id: EXAMPLE_OPERATION_ID } },
  ] satisfies NamedExample[],
  'payment.recommendations': {
    method: 'WT_RUB_C2C',
    currency: 'RUB',
    amount: '1500.00',
    min_amount: '1000.00',
    max_amount: '2000.00',
    limit: 3,
  },
  'operations.pay': { amount: '1500.00' },
  'operations.settle': { outcome: 'completed' },
  'operations.review': { decision: 'approve' },
  'clock.advance': { by: '15m' },
  'evidence.set': { available: false },
  'keys.issue': { shop_id: 'shop_a', label: 'ci', scopes: ['links'] },
  'webhooks.add': { url: 'http://127.0.0.1:8080/webhooks' },
  'webhooks.redeliver': { failed: true },
  'pool.layout': { method: 'WT_RUB_C2C', amounts: ['1500.00', '2500.00'] },
  'pool.update_settings': { read_latency_ms: 0, rate_limit: true },
  'links.confirm': { amount: '1500.00' },
};

/** The `example` or `examples` of a media type for an operation, if it has any. */
export function mediaExamples(id: string): Record<string, unknown> {
  const e = REQUEST_EXAMPLES[id];
  if (e === undefined) return {};
  if (!Array.isArray(e)) return { example: e };
  const named = e as NamedExample[];
  return {
    examples: Object.fromEntries(
      named.map((x) => [x.summary.replace(/[^A-Za-z]+(.)/g, (_m, c: string) => c.toUpperCase()), x]),
    ),
  };
}
