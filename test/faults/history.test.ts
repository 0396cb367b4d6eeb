// The operation history shows the faults injected into requests on that operation (GET /sandbox/operations/:id
// `faults`, `paygate operation history`): a status answered instead of a cancel, a state read or a receipt upload of
// an existing operation (by operation_id or merchant_operation_id), a create replayed into a fault, latency and a
// dropped answer. Kept in memory; a reset forgets them.
import { describe, expect, it } from 'vitest';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { outcomeOf } from './calls.js';

const sandbox = useSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: 'pg_admin_faults_history_0123456789',
});
const shopA = () => sandbox.make({ apiKey: sandbox.keyOf('shop_a'), maxRetries: 0 });
const PDF = new TextEncoder().encode('%PDF-1.4\n%%EOF\n');

describe('faults in the operation history', () => {
  it('records status faults answered to requests that name an existing operation, oldest first', async () => {
    const client = shopA();
    const body = paymentBody({ client_id: 'hist+receipt' });
    const op = await client.payments.create(body as never);
    const ids = (
      await sandbox.admin.sandbox.faults.set([
        { endpoint: 'operation.cancel', status: 503, code: 'cancel_not_durable', count: 1 },
        { endpoint: 'operation.state', status: 503, count: 1 },
        { endpoint: 'payment.confirm', status: 429, count: 1 },
        { endpoint: 'payment.create', status: 429, count: 1 },
      ])
    ).faults.map((f) => f.id);
    expect((await outcomeOf(client.operations.cancel({ operation_id: op.operation_id }))).status).toBe(503);
    await sandbox.sandbox.clock.advance(1000);
    expect(
      (await outcomeOf(client.operations.get({ merchant_operation_id: body.merchant_operation_id as string }))).status,
    ).toBe(503);
    expect((await outcomeOf(client.payments.confirm({ operation_id: op.operation_id, receipt: PDF }))).status).toBe(
      429,
    );
    expect((await outcomeOf(client.payments.create(body as never))).status).toBe(429);
    const { faults, operation } = await client.sandbox.operations.details({ operation_id: op.operation_id });
    expect(operation.status).toBe('awaiting_confirmation');
    expect(faults).toEqual([
      {
        at: '2026-01-01T00:00:00.000Z',
        fault_id: ids[0],
        endpoint: 'operation.cancel',
        kind: 'status',
        status: 503,
        code: 'cancel_not_durable',
      },
      {
        at: '2026-01-01T00:00:01.000Z',
        fault_id: ids[1],
        endpoint: 'operation.state',
        kind: 'status',
        status: 503,
        code: 'evidence_unavailable',
      },
      {
        at: '2026-01-01T00:00:01.000Z',
        fault_id: ids[2],
        endpoint: 'payment.confirm',
        kind: 'status',
        status: 429,
        code: 'rate_limited',
      },
      {
        at: '2026-01-01T00:00:01.000Z',
        fault_id: ids[3],
        endpoint: 'payment.create',
        kind: 'status',
        status: 429,
        code: 'rate_limited',
      },
    ]);
  });

  it('a fault on a request naming no existing operation (or another shop’s) is in no history', async () => {
    const a = shopA();
    const b = sandbox.make({ apiKey: sandbox.keyOf('shop_b'), maxRetries: 0 });
    const op = await a.payments.create(paymentBody() as never);
    await sandbox.admin.sandbox.faults.set([{ endpoint: 'operation.state', status: 429 }]);
    expect((await outcomeOf(b.operations.get({ operation_id: op.operation_id }))).status).toBe(429);
    expect((await outcomeOf(a.operations.get({ merchant_operation_id: 'never-created' }))).status).toBe(429);
    expect((await a.sandbox.operations.details({ operation_id: op.operation_id })).faults).toEqual([]);
  });

  it('a reset forgets the history with the operations', async () => {
    const client = shopA();
    const body = paymentBody();
    const op = await client.payments.create(body as never);
    await sandbox.admin.sandbox.faults.add({ endpoint: 'operation.cancel', status: 503 });
    await outcomeOf(client.operations.cancel({ operation_id: op.operation_id }));
    expect((await client.sandbox.operations.details({ operation_id: op.operation_id })).faults).toHaveLength(1);
    await sandbox.admin.sandbox.reset();
    const again = await client.payments.create(body as never);
    expect(again.operation_id).toBe(op.operation_id);
    expect((await client.sandbox.operations.details({ operation_id: op.operation_id })).faults).toEqual([]);
  });
});
