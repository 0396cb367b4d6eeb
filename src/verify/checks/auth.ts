// Authentication (§5): no key and an unknown key get the spec's two 401 messages, before anything else is read (an
// invalid JSON body without a key is still 401); the header name is accepted in any case. Read-only requests only.
import { randomBytes } from 'node:crypto';
import { expectStatus, type VerifyContext } from '../context.js';
import { describe } from '../findings.js';
import type { Answer } from '../wire.js';

const MISSING = 'x-api-key header is required';
const INVALID = 'invalid api key';

/** The 401 carries the spec's message: as the body's `message`, or in a body that is not JSON. */
function says(a: Answer, message: string): boolean {
  const body = a.body as { message?: unknown } | undefined;
  if (body && typeof body === 'object') return body.message === message;
  return (a.exchange.response.bodyText ?? '').includes(message);
}

/** 401 (under `rule`) with the spec's message for the case (under auth.message). */
function expect401(ctx: VerifyContext, rule: string, a: Answer, facts: { endpoint: string; message: string }): void {
  const got = `got ${describe(a)}`;
  if (!ctx.findings.expect(rule, a.status === 401, a, { endpoint: facts.endpoint, expected: 'expected 401', got }))
    return;
  ctx.findings.expect('auth.message', says(a, facts.message), a, {
    endpoint: facts.endpoint,
    expected: `expected the message "${facts.message}"`,
    got,
  });
}

export async function checkAuth(ctx: VerifyContext): Promise<void> {
  ctx.progress('authentication: no key, an unknown key, the header name in other cases');
  let a = await ctx.call('balances.list', { method: 'GET', path: '/v1/balances', key: null });
  expect401(ctx, 'auth.key_required', a, { endpoint: 'balances.list', message: MISSING });
  a = await ctx.call('operation.state', {
    method: 'POST',
    path: '/v1/get_operation_state',
    raw: '{',
    key: null,
    deliberate: true,
  });
  expect401(ctx, 'auth.key_required', a, { endpoint: 'operation.state', message: MISSING });

  const unknown = `paygate-verify-unknown-${randomBytes(8).toString('hex')}`;
  a = await ctx.call('balances.list', { method: 'GET', path: '/v1/balances', key: unknown });
  expect401(ctx, 'auth.unknown_key', a, { endpoint: 'balances.list', message: INVALID });
  a = await ctx.call('operation.state', {
    method: 'POST',
    path: '/v1/get_operation_state',
    json: {},
    key: unknown,
    deliberate: true,
  });
  expect401(ctx, 'auth.unknown_key', a, { endpoint: 'operation.state', message: INVALID });

  for (const header of ['X-API-KEY', 'X-Api-Key', 'x-api-key']) {
    a = await ctx.call('balances.list', { method: 'GET', path: '/v1/balances', key: ctx.key, keyHeader: header });
    expectStatus(ctx, 'auth.header_case', a, {
      endpoint: 'balances.list',
      statuses: [200],
      what: `the key sent as "${header}"`,
    });
  }
}
