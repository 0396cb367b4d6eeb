// Shop isolation (§5, §4.6, §4.7 rule 2) with --second-key: another shop's key reads verify's payment by either id
// and cancels it by operation_id, and gets 404 each time; the payment is then unchanged for its own key. Cancels
// (§4.7) of verify's own payments only: by operation_id, repeated (the same decision), by merchant_operation_id; and
// at the end every operation verify created that is not terminal yet is cancelled.
import { describe } from '../findings.js';
import { expectStatus, noteStatus, TERMINAL, type Created, type VerifyContext } from '../context.js';
import type { Answer } from '../wire.js';

const statusOf = (a: Answer): unknown => (a.body as { status?: unknown } | undefined)?.status;
const outcomeOf = (a: Answer): unknown => (a.body as { outcome?: unknown } | undefined)?.outcome;

async function readState(ctx: VerifyContext, p: Created): Promise<Answer> {
  const json = { operation_id: p.operationId };
  const a = await ctx.call('operation.state', { method: 'POST', path: '/v1/get_operation_state', json, key: ctx.key });
  noteStatus(ctx, p.operationId, a);
  return a;
}

export async function checkIsolation(ctx: VerifyContext, p: Created | undefined): Promise<void> {
  if (!ctx.secondKey) {
    ctx.findings.skip('cross-shop 404s', 'no --second-key (the key of another shop) was given', [
      'isolation.cross_shop',
    ]);
    return;
  }
  if (!p) {
    ctx.findings.skip('cross-shop 404s', 'verify created no payment to name', ['isolation.cross_shop']);
    return;
  }
  ctx.progress("another shop's key: 404 for verify's payment, nothing changed");
  const before = p.status;
  const tries = [
    { endpoint: 'operation.state', path: '/v1/get_operation_state', json: { operation_id: p.operationId } },
    {
      endpoint: 'operation.state',
      path: '/v1/get_operation_state',
      json: { merchant_operation_id: p.merchantOperationId },
    },
    { endpoint: 'operation.cancel', path: '/v1/cancel_operation', json: { operation_id: p.operationId } },
  ];
  for (const t of tries) {
    const a = await ctx.call(t.endpoint, { method: 'POST', path: t.path, json: t.json, key: ctx.secondKey });
    expectStatus(ctx, 'isolation.cross_shop', a, {
      endpoint: t.endpoint,
      statuses: [404],
      what: `another shop's key naming the operation by ${Object.keys(t.json)[0]}`,
      operationId: p.operationId,
      covered: ['isolation.foreign_operation'],
    });
  }
  const after = await readState(ctx, p);
  ctx.findings.expect('isolation.cross_shop', after.status === 200 && statusOf(after) === before, after, {
    endpoint: 'operation.state',
    expected: `expected the operation still ${before} for its own shop`,
    got: after.status === 200 ? `got ${String(statusOf(after))}` : `got ${describe(after)}`,
    operationId: p.operationId,
  });
}

async function cancel(ctx: VerifyContext, p: Created, by: 'operation_id' | 'merchant_operation_id'): Promise<Answer> {
  const json =
    by === 'operation_id' ? { operation_id: p.operationId } : { merchant_operation_id: p.merchantOperationId };
  const a = await ctx.call('operation.cancel', { method: 'POST', path: '/v1/cancel_operation', json, key: ctx.key });
  noteStatus(ctx, p.operationId, a);
  if (a.status === 200 && typeof outcomeOf(a) === 'string') p.cancelled = outcomeOf(a) as string;
  return a;
}

/**
 * A first cancel of a payment verify last saw non-terminal (and never cancelled) is `cancelled`, unless the answer
 * shows the payment completed or rejected in the meantime: `already_terminal` with a cancelled payment is a decision
 * nobody made.
 */
function expectDecision(ctx: VerifyContext, p: Created, before: string, a: Answer): void {
  if (a.status !== 200 || TERMINAL.has(before)) return;
  const shown = (a.body as { operation?: { status?: unknown } } | undefined)?.operation?.status;
  const ok = outcomeOf(a) === 'cancelled' || shown === 'completed' || shown === 'rejected';
  ctx.findings.expect('cancel.outcome', ok, a, {
    endpoint: 'operation.cancel',
    expected: `expected outcome cancelled for a payment last seen ${before} and not cancelled before`,
    got: `got outcome ${String(outcomeOf(a))} with status ${String(shown)}`,
    operationId: p.operationId,
  });
}

export async function checkCancels(ctx: VerifyContext, payment: Created | undefined, link: Created | undefined) {
  if (payment) {
    ctx.progress('cancels: by operation_id, repeated');
    const before = payment.status;
    const first = await cancel(ctx, payment, 'operation_id');
    expectDecision(ctx, payment, before, first);
    const ok = expectStatus(ctx, 'response.valid_request_answered', first, {
      endpoint: 'operation.cancel',
      statuses: [200],
      what: "a cancel of verify's own payment",
      operationId: payment.operationId,
    });
    if (ok) {
      const again = await cancel(ctx, payment, 'operation_id');
      ctx.findings.expect(
        'cancel.same_decision',
        again.status === 200 && outcomeOf(again) === outcomeOf(first),
        again,
        {
          endpoint: 'operation.cancel',
          expected: `expected 200 with outcome ${String(outcomeOf(first))} again`,
          got: again.status === 200 ? `got outcome ${String(outcomeOf(again))}` : `got ${describe(again)}`,
          operationId: payment.operationId,
          related: [first.exchange.seq],
        },
      );
      await readState(ctx, payment);
    }
  }
  if (link) {
    ctx.progress('cancels: by merchant_operation_id');
    const before = link.status;
    const a = await cancel(ctx, link, 'merchant_operation_id');
    expectDecision(ctx, link, before, a);
    expectStatus(ctx, 'response.valid_request_answered', a, {
      endpoint: 'operation.cancel',
      statuses: [200],
      what: "a cancel of verify's own payment by merchant_operation_id",
      operationId: link.operationId,
      merchantOperationId: link.merchantOperationId,
    });
  }
}

/** Cancels, by operation_id, every payment verify created that it has not seen terminal. Reports nothing. */
export async function cleanUp(ctx: VerifyContext): Promise<void> {
  const open = ctx.created.filter(
    (c) => !TERMINAL.has(c.status) && c.cancelled === undefined && c.endpoint !== 'payout.create',
  );
  if (open.length > 0) ctx.progress(`cleaning up: cancelling ${open.length} operation(s) verify created`);
  ctx.cleaning = true;
  for (const c of open) await cancel(ctx, c, 'operation_id');
}
