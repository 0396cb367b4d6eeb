// Creates (§2.2, §4.1, §4.2, §4.6): a payment of the small amount, its replay with the same body (the same
// operation), the same key with another body (412), reads of it by both ids; a payment link. Each create is charged
// to the caps first; when a cap is reached the check is skipped and says so.
import { expectStatus, noteStatus, type Created, type VerifyContext } from '../context.js';
import { describe } from '../findings.js';
import type { Answer } from '../wire.js';

function createBody(ctx: VerifyContext, key: string): Record<string, string> {
  return {
    merchant_operation_id: key,
    client_id: 'paygate-verify',
    method: ctx.method,
    amount: ctx.amount,
    currency: ctx.currency,
  };
}

const CAPS = 'the --max-creates / --max-amount caps are reached';

const idOf = (a: Answer): unknown => (a.body as { operation_id?: unknown } | undefined)?.operation_id;

/** Creates one payment at `path`; its record, or undefined (cap reached, or refused: reported). */
async function createPayment(ctx: VerifyContext, endpoint: string, path: string): Promise<Created | undefined> {
  if (!ctx.budget.charge(ctx.amount)) {
    ctx.findings.skip(`${endpoint} of ${ctx.amount} ${ctx.currency}`, CAPS, [
      'idempotency.replay',
      'idempotency.conflict',
      'state.wrong_operation',
      'cancel.outcome',
      'cancel.same_decision',
      'isolation.cross_shop',
    ]);
    return undefined;
  }
  const key = ctx.newKey();
  const a = await ctx.call(endpoint, { method: 'POST', path, json: createBody(ctx, key), key: ctx.key });
  const ok = expectStatus(ctx, 'response.valid_request_answered', a, {
    endpoint,
    statuses: [200],
    what: `a ${ctx.method} payment of ${ctx.amount} ${ctx.currency}`,
    merchantOperationId: key,
  });
  if (!ok) return undefined;
  return ctx.created.find((c) => c.merchantOperationId === key);
}

async function replays(ctx: VerifyContext, p: Created): Promise<void> {
  const body = createBody(ctx, p.merchantOperationId);
  if (!ctx.budget.charge(ctx.amount)) {
    ctx.findings.skip('the replay of a create with the same body', CAPS, ['idempotency.replay']);
  } else {
    const a = await ctx.call('payment.create', { method: 'POST', path: '/v1/payment', json: body, key: ctx.key });
    ctx.findings.expect('idempotency.replay', a.status === 200 && idOf(a) === p.operationId, a, {
      endpoint: 'payment.create',
      expected: `expected 200 with the original operation ${p.operationId}`,
      got: a.status === 200 ? `got operation ${String(idOf(a))}` : `got ${describe(a)}`,
      operationId: p.operationId,
      merchantOperationId: p.merchantOperationId,
    });
  }
  if (!ctx.budget.charge(ctx.amount)) {
    ctx.findings.skip('the same key with another body', CAPS, ['idempotency.conflict']);
    return;
  }
  const other = { ...body, client_id: 'paygate-verify-other' };
  const a = await ctx.call('payment.create', { method: 'POST', path: '/v1/payment', json: other, key: ctx.key });
  ctx.findings.expect('idempotency.conflict', a.status === 412, a, {
    endpoint: 'payment.create',
    expected: 'expected 412 for the same merchant_operation_id with another client_id',
    got: `got ${describe(a)}`,
    operationId: p.operationId,
    merchantOperationId: p.merchantOperationId,
  });
}

/** get_operation_state by each id returns the operation created. */
export async function readBoth(ctx: VerifyContext, p: Created): Promise<void> {
  const ids = [{ operation_id: p.operationId }, { merchant_operation_id: p.merchantOperationId }];
  for (const json of ids) {
    const a = await ctx.call('operation.state', {
      method: 'POST',
      path: '/v1/get_operation_state',
      json,
      key: ctx.key,
    });
    noteStatus(ctx, p.operationId, a);
    const by = Object.keys(json)[0]!;
    ctx.findings.expect('state.wrong_operation', a.status === 200 && idOf(a) === p.operationId, a, {
      endpoint: 'operation.state',
      expected: `expected 200 with operation ${p.operationId} when read by ${by}`,
      got: a.status === 200 ? `got operation ${String(idOf(a))}` : `got ${describe(a)}`,
      operationId: p.operationId,
      merchantOperationId: p.merchantOperationId,
    });
  }
}

/** The payments the later checks (isolation, cancels) work on: [payment, link payment], either may be missing. */
export async function checkCreates(ctx: VerifyContext): Promise<(Created | undefined)[]> {
  ctx.progress(`creates: a payment of ${ctx.amount} ${ctx.currency}, its replay, another body under its key`);
  const payment = await createPayment(ctx, 'payment.create', '/v1/payment');
  if (payment) {
    await replays(ctx, payment);
    ctx.progress('state reads by operation_id and merchant_operation_id');
    await readBoth(ctx, payment);
  }
  ctx.progress('a payment link');
  const link = await createPayment(ctx, 'payment.link', '/v1/payment/link');
  if (link) await readBoth(ctx, link);
  return [payment, link];
}
