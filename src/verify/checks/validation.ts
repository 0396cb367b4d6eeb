// Validation (§7, 400): every refusal the spec lists that needs no state, one request each. The ids in them are
// random (no operation can be named by accident); a probe of a create endpoint with a positive amount is charged to
// the caps first (a drifting gateway might create it), and whatever a gateway creates for one is cancelled at the end.
import { randomUUID } from 'node:crypto';
import type { HttpMethod } from '../../contract/endpoint-row.js';
import { CREATE_ENDPOINTS, expectStatus, type VerifyContext } from '../context.js';

interface Probe {
  endpoint: string;
  method: HttpMethod;
  path: string;
  /** What is wrong with it, as the report says. */
  what: string;
  json?: unknown;
  raw?: string;
  query?: Record<string, string>;
}

/** The create body of a probe: a fresh key, the method and currency, and `amount` unless overridden. */
function createBody(ctx: VerifyContext, fields: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {
    merchant_operation_id: ctx.newKey(),
    client_id: 'paygate-verify',
    method: ctx.method,
    amount: '1.00',
    currency: ctx.currency,
    ...fields,
  };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return body;
}

function createProbes(ctx: VerifyContext): Probe[] {
  const p = (what: string, fields: Record<string, unknown>): Probe => ({
    endpoint: 'payment.create',
    method: 'POST',
    path: '/v1/payment',
    what,
    json: createBody(ctx, fields),
  });
  return [
    {
      endpoint: 'payment.create',
      method: 'POST',
      path: '/v1/payment',
      what: 'a body that is not JSON',
      raw: '{"amount":',
    },
    {
      endpoint: 'payout.create',
      method: 'POST',
      path: '/v1/payout',
      what: 'a body that is not JSON',
      raw: '{"amount":',
    },
    { endpoint: 'payment.link', method: 'POST', path: '/v1/payment/link', what: 'a body that is not JSON', raw: '[' },
    p('a payment without amount', { amount: undefined }),
    p('a payment without merchant_operation_id', { merchant_operation_id: undefined, amount: undefined }),
    p('a payment with amount "0.00"', { amount: '0.00' }),
    p('a payment with a negative amount', { amount: '-1.00' }),
    p('a payment with amount "abc"', { amount: 'abc' }),
    p('a payment with an amount of scale 3', { amount: '1.005' }),
    p('a payment with shop_id in the body', { shop_id: 'paygate-verify' }),
    p('a payment without client_id', { client_id: undefined }),
  ];
}

function stateProbes(): Probe[] {
  const s =
    (endpoint: string, path: string) =>
    (what: string, json?: unknown, raw?: string): Probe => ({
      endpoint,
      method: 'POST',
      path,
      what,
      ...(raw !== undefined ? { raw } : { json }),
    });
  const state = s('operation.state', '/v1/get_operation_state');
  const cancel = s('operation.cancel', '/v1/cancel_operation');
  const both = () => ({ operation_id: randomUUID(), merchant_operation_id: `paygate-verify-none-${randomUUID()}` });
  return [
    state('get_operation_state with neither id', {}),
    state('get_operation_state with both ids', both()),
    state('get_operation_state with an operation_id that is not a UUID', { operation_id: 'not-a-uuid' }),
    state('get_operation_state with a body that is not JSON', undefined, '{'),
    cancel('cancel_operation with neither id', {}),
    cancel('cancel_operation with both ids', both()),
    cancel('cancel_operation with an operation_id that is not a UUID', { operation_id: 'not-a-uuid' }),
    cancel('cancel_operation with a reason over 2048 bytes', { operation_id: randomUUID(), reason: 'r'.repeat(2049) }),
  ];
}

function amountProbes(ctx: VerifyContext): Probe[] {
  const q = (what: string, query: Record<string, string>): Probe => ({
    endpoint: 'payment.availability',
    method: 'GET',
    path: '/v1/payment/availability',
    what,
    query,
  });
  const r = (what: string, json?: unknown, raw?: string): Probe => ({
    endpoint: 'payment.recommendations',
    method: 'POST',
    path: '/v1/payment/recommendations',
    what,
    ...(raw !== undefined ? { raw } : { json }),
  });
  const base = { method: ctx.method, currency: ctx.currency, min_amount: '100.00', max_amount: '1000.00' };
  const { min_amount: _min, ...noMin } = base;
  return [
    q('availability without min_amount', noMin),
    q('availability with min_amount above max_amount', { ...base, min_amount: '1000.00', max_amount: '100.00' }),
    q('availability with a negative max_amount', { ...base, max_amount: '-1.00' }),
    r('recommendations with limit 11', { ...base, amount: '500.00', limit: 11 }),
    r('recommendations without amount', base),
    r('recommendations with a body that is not JSON', undefined, '{'),
  ];
}

export async function checkValidation(ctx: VerifyContext): Promise<void> {
  ctx.progress('validation: each 400 of §7 that needs no state');
  for (const probe of [...createProbes(ctx), ...stateProbes(), ...amountProbes(ctx)]) {
    const body = probe.json as { amount?: unknown } | undefined;
    const creates = CREATE_ENDPOINTS.has(probe.endpoint) && typeof body?.amount === 'string';
    if (creates && !ctx.budget.charge(body.amount as string)) {
      ctx.findings.skip(`400 for ${probe.what}`, 'the --max-creates / --max-amount caps are reached', [
        'response.invalid_request_status',
      ]);
      continue;
    }
    const { endpoint, what, ...rest } = probe;
    const a = await ctx.call(endpoint, { ...rest, key: ctx.key, deliberate: true });
    expectStatus(ctx, 'response.invalid_request_status', a, {
      endpoint,
      statuses: [400],
      what,
      covered: ['response.accepted_invalid_request'],
    });
  }
}
