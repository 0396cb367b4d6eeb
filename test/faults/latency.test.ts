// A latency fault holds the request on the sandbox clock before it runs: on a frozen clock it answers only once the
// clock is advanced that far (no test waits on real time). It stacks with a status fault, and a reset releases it.
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { paymentBody } from '../helpers/harness.js';
import { timerArmed, useSandbox } from '../helpers/sandbox.js';
import { outcomeOf } from './calls.js';

const sandbox = useSandbox({ frozenClock: true, adminToken: 'pg_admin_faults_latency_0123456789' });
const shopA = () => sandbox.make({ apiKey: sandbox.keyOf('shop_a'), maxRetries: 0 });

/** A promise's state without waiting for it: settled or not after the pending callbacks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i++) await tick();
  return done;
}

describe('latency', () => {
  it('answers once sandbox time has moved by latency_ms, not before', async () => {
    const a = shopA();
    await sandbox.admin.sandbox.faults.add({ endpoint: 'balances.list', latency_ms: 1500 });
    const armed = timerArmed(sandbox.sandbox);
    const call = a.balances.list();
    await armed;
    await sandbox.sandbox.clock.advance(1499);
    expect(await settled(call)).toBe(false);
    await sandbox.sandbox.clock.advance(1);
    expect((await call).balances.length).toBeGreaterThan(0);
  });

  it('holds the request before it runs: a held create has created nothing yet', async () => {
    const a = shopA();
    await sandbox.admin.sandbox.faults.add({ endpoint: 'payment.create', latency_ms: 200 });
    const body = paymentBody();
    const armed = timerArmed(sandbox.sandbox);
    const call = a.payments.create(body as never);
    await armed;
    expect(
      (
        await sandbox.call('POST', '/v1/get_operation_state', {
          body: { merchant_operation_id: body.merchant_operation_id },
        })
      ).status,
    ).toBe(404);
    await sandbox.sandbox.clock.advance(200);
    const op = await call;
    expect(op.status).toMatch(/pending|awaiting_confirmation/);
    const { faults } = await sandbox.client.sandbox.operations.details({ operation_id: op.operation_id });
    expect(faults).toEqual([expect.objectContaining({ kind: 'latency', latency_ms: 200, endpoint: 'payment.create' })]);
  });

  it('stacks: latency faults add up, then a status fault answers', async () => {
    const a = shopA();
    await sandbox.admin.sandbox.faults.set([
      { endpoint: 'balances.list', latency_ms: 100 },
      { endpoint: 'balances.list', latency_ms: 50 },
      { endpoint: 'balances.list', status: 503, code: 'accounting_unavailable' },
    ]);
    const armed = timerArmed(sandbox.sandbox);
    const call = outcomeOf(a.balances.list());
    await armed;
    await sandbox.sandbox.clock.advance(149);
    expect(await settled(call)).toBe(false);
    await sandbox.sandbox.clock.advance(1);
    expect(await call).toMatchObject({ status: 503, code: 'accounting_unavailable' });
  });

  it('a reset releases a held request (which then runs on the reset sandbox)', async () => {
    const a = shopA();
    await sandbox.admin.sandbox.faults.add({ endpoint: 'balances.list', latency_ms: 60_000 });
    const armed = timerArmed(sandbox.sandbox);
    const call = a.balances.list();
    await armed;
    await sandbox.admin.sandbox.reset();
    expect((await call).balances.length).toBeGreaterThan(0);
    expect((await sandbox.admin.sandbox.faults.list()).faults).toEqual([]);
  });
});
