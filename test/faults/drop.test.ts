// "The write lands but the response is lost" — the case idempotency exists for: a drop fault lets the request run and
// commit, then closes the connection. The client sees a connection error; the operation exists; a retry with the same
// merchant_operation_id returns the same operation; the operation's history shows the dropped answer. On a socket and
// in process alike.
import { expect, it } from 'vitest';
import { APIConnectionError, CancelOutcomeUnknownError } from '../../src/client/index.js';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { describeTransports } from '../helpers/transport.js';

describeTransports('a dropped response after commit', (transport) => {
  const sandbox = useSandbox({ transport, frozenClock: true, adminToken: 'pg_admin_faults_drop_0123456789' });
  const shopA = (maxRetries = 0) => sandbox.make({ apiKey: sandbox.keyOf('shop_a'), maxRetries });

  it('create: the client sees the connection close, the payment exists, the same merchant_operation_id returns it', async () => {
    const fault = await sandbox.admin.sandbox.faults.add({
      endpoint: 'payment.create',
      drop_response_after_commit: true,
      count: 1,
    });
    const body = paymentBody();
    const client = shopA();
    const lost = await client.payments.create(body as never).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(APIConnectionError);
    const read = await client.operations.get({ merchant_operation_id: body.merchant_operation_id as string });
    const again = await client.payments.create(body as never);
    expect(again.operation_id).toBe(read.operation_id);
    expect(again.status).toBe(read.status);
    expect((await client.sandbox.operations.list()).total).toBe(1);
    const { faults } = await client.sandbox.operations.details({ operation_id: read.operation_id });
    expect(faults).toEqual([{ at: expect.any(String), fault_id: fault.id, endpoint: 'payment.create', kind: 'drop' }]);
    expect((await sandbox.admin.sandbox.faults.list()).faults[0]).toMatchObject({ remaining: 0, fired: 1 });
  });

  it("the client's own retry (same generated merchant_operation_id) gets the operation the lost answer carried", async () => {
    await sandbox.admin.sandbox.faults.add({ endpoint: 'payout.create', drop_response_after_commit: true, count: 1 });
    const res = await shopA(2)
      .payouts.create({
        client_id: 'c1',
        method: 'WT_RUB_C2C',
        amount: '500.00',
        currency: 'RUB',
        number: '2200700000000004',
      })
      .withResponse();
    expect(res.response.attempts).toBe(2);
    const { operations, total } = await shopA().sandbox.operations.list();
    expect(total).toBe(1);
    expect(operations[0]!.operation_id).toBe(res.data.operation_id);
    const read = await shopA().sandbox.operations.details({ merchant_operation_id: res.merchant_operation_id });
    expect(read.operation.operation_id).toBe(res.data.operation_id);
  });

  it('cancel: recorded though its answer is lost; the client knows the outcome is unknown; a repeat returns the same decision', async () => {
    const client = shopA();
    const op = await client.payments.create(paymentBody() as never);
    await sandbox.admin.sandbox.faults.add({
      endpoint: 'operation.cancel',
      drop_response_after_commit: true,
      count: 1,
    });
    const lost = await client.operations.cancel({ operation_id: op.operation_id }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(CancelOutcomeUnknownError);
    expect((lost as Error).cause).toBeInstanceOf(APIConnectionError);
    expect((await client.operations.get({ operation_id: op.operation_id })).status).toBe('cancelled');
    const repeat = await client.operations.cancel({ operation_id: op.operation_id });
    expect(repeat).toMatchObject({ outcome: 'cancelled', operation: { status: 'cancelled' } });
  });

  it('only an answered request is dropped: an error answer passes and does not use up the fault', async () => {
    await sandbox.admin.sandbox.faults.add({ endpoint: 'operation.state', drop_response_after_commit: true, count: 1 });
    const missing = await sandbox.call('POST', '/v1/get_operation_state', { body: { merchant_operation_id: 'nope' } });
    expect([missing.status, missing.body.code]).toEqual([404, 'operation_not_found']);
    expect((await sandbox.admin.sandbox.faults.list()).faults[0]).toMatchObject({ matched: 0, remaining: 1 });
  });
});
