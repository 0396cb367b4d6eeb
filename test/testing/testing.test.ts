// paygate/testing and paygate/msw as a merchant's test suite uses them: a sandbox on 127.0.0.1 with typed controls
// and recorded webhooks, runScenario from code, and msw handlers that answer fetch() from an in-process sandbox.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/emulator/index.js';
import { createPaygateHandlers } from '../../src/msw/index.js';
import { runScenario, startSandbox, type TestSandbox } from '../../src/testing/index.js';

describe('paygate/testing startSandbox', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ startTime: '2026-03-01T12:00:00Z' });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('listens on 127.0.0.1 with the fixture keys, a typed client and the admin token', async () => {
    expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.keys).toMatchObject({ shop_a: 'pg_test_a_7Hq2Lm9XwR4tNc8V', default: 'pg_test_a_7Hq2Lm9XwR4tNc8V' });
    const res = await fetch(`${sb.baseUrl}/v1/balances`, { headers: { 'x-api-key': sb.keys.shop_b! } });
    expect(((await res.json()) as { balances: { balance: string }[] }).balances[0]!.balance).toBe('250000.00');
    const clock = await sb.client.sandbox.clock.get();
    expect(clock).toMatchObject({ frozen: true, now: '2026-03-01T12:00:00.000Z' });
  });

  it('pay, settle and the clock drive operations; webhooks are recorded, verified and waited for', async () => {
    const payment = await sb.client.payments.create({
      client_id: 'alice',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    });
    const paid = await sb.pay(payment.operation_id, '1400.00');
    expect(paid).toMatchObject({ status: 'completed', actual_amount: '1400.00', settlement_amount: '1365.00' });
    const done = await sb.webhooks.waitFor('operation.completed', { operationId: payment.operation_id });
    expect(done.data.operation.actual_amount).toBe('1400.00');

    const payout = await sb.client.payouts.create({
      client_id: 'bob',
      method: 'WT_RUB_C2C',
      amount: '1000.00',
      currency: 'RUB',
      number: '2200700000000004',
    });
    await sb.clock.advance('4s');
    expect(sb.webhooks.events('operation.completed').map((e) => e.data.operation.operation_id)).toEqual([
      payment.operation_id,
    ]);
    await sb.clock.advance(1000);
    expect(
      (await sb.webhooks.waitFor('operation.completed', { operationId: payout.operation_id })).data.operation.status,
    ).toBe('completed');
    expect(sb.clock.now()).toBe(Date.parse('2026-03-01T12:00:05Z'));
    await expect(sb.webhooks.waitFor('operation.manual_check', { timeoutMs: 50 })).rejects.toThrow(
      /no operation.manual_check webhook arrived \(received: operation.pending, operation.completed/,
    );
  });

  it('review decides a receipt under manual check; settle fails a payout', async () => {
    const p = await sb.client.payments.create({
      client_id: 'carol+receipt',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    });
    await sb.client.payments.confirm({ operation_id: p.operation_id, receipt: 'fixtures/receipts/fake-photoshop.pdf' });
    expect(await sb.review(p.operation_id, 'decline')).toMatchObject({ status: 'rejected' });
    const o = await sb.client.payouts.create({
      client_id: 'dan',
      method: 'WT_RUB_C2C',
      amount: '1000.00',
      currency: 'RUB',
      number: '2200700000000004',
    });
    expect(await sb.settle(o.operation_id, 'failed')).toMatchObject({ status: 'rejected' });
  });
});

describe('paygate/testing runScenario', () => {
  it('runs an object, YAML text or a file, and says why it failed', async () => {
    const ok = await runScenario({
      name: 'obj',
      steps: [{ call: 'balances.list', expect: { body: { balances: { length: 2 } } } }],
    });
    expect(ok).toMatchObject({ ok: true, status: 'passed' });
    const file = await runScenario('scenarios/payments/card-payment-paid.yaml');
    expect(file.ok).toBe(true);
    const bad = await runScenario('name: text\nsteps:\n  - call: balances.list\n    expect: { status: 418 }\n');
    expect(bad.ok).toBe(false);
    expect(bad.failure).toContain('- status: 418');
    await expect(
      runScenario('name: t\nsteps:\n  - call: balances.list\n    expect: { status: 418 }\n', { throwOnFailure: true }),
    ).rejects.toThrow(/scenario "t" failed:[\s\S]*\+ status: 200/);
    await expect(runScenario({ name: 'x', steps: [{ call: 'no.such' }] })).rejects.toThrow(
      /unknown endpoint id "no.such"/,
    );
  });
});

describe('paygate/msw', () => {
  const handlers = createPaygateHandlers({ baseUrl: 'https://gateway.example.com/api' });
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(async () => {
    server.close();
    await handlers.close();
  });

  it('answers fetch() to the base URL (path prefix kept) from an in-process sandbox', async () => {
    const res = await fetch('https://gateway.example.com/api/v1/payment', {
      method: 'POST',
      headers: { 'x-api-key': 'pg_test_a_7Hq2Lm9XwR4tNc8V', 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant_operation_id: 'msw-1',
        client_id: 'alice',
        method: 'WT_RUB_C2C',
        amount: '1500.00',
        currency: 'RUB',
      }),
    });
    expect(res.status).toBe(200);
    const op = (await res.json()) as { operation_id: string; status: string };
    expect(op.status).toBe('pending');
    const state = await fetch('https://gateway.example.com/api/v1/get_operation_state', {
      method: 'POST',
      headers: { 'x-api-key': 'pg_test_a_7Hq2Lm9XwR4tNc8V', 'content-type': 'application/json' },
      body: JSON.stringify({ merchant_operation_id: 'msw-1' }),
    });
    expect(((await state.json()) as { operation_id: string }).operation_id).toBe(op.operation_id);
    const missing = await fetch('https://gateway.example.com/api/v1/balances');
    expect(missing.status).toBe(401);
  });

  it('uses a sandbox it is given', async () => {
    const sandbox = await createSandbox({ frozenClock: true });
    const own = setupServer(...createPaygateHandlers({ baseUrl: 'https://other.example.com', sandbox }));
    server.close();
    own.listen();
    try {
      await fetch('https://other.example.com/v1/payment', {
        method: 'POST',
        headers: { 'x-api-key': 'pg_test_b_3Fk8Zp1YdQ6sWe5J', 'content-type': 'application/json' },
        body: JSON.stringify({
          merchant_operation_id: 'own-1',
          client_id: 'bob',
          method: 'WT_RUB_C2C',
          amount: '700.00',
          currency: 'RUB',
        }),
      });
      expect(sandbox.service.state.operationByMoid('shop_b', 'own-1')?.status).toBe('pending');
    } finally {
      own.close();
      server.listen({ onUnhandledRequest: 'error' });
      await sandbox.close();
    }
  });
});
