// Every client method against the real emulator, in-process (createInProcessDispatcher) and over HTTP
// (a sandbox listening on 127.0.0.1:0).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, expect, it } from 'vitest';
import { layOutPool } from '../../src/emulator/runtime/pool-layouts.js';
import { describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';
import {
  AuthenticationError,
  BadRequestError,
  IdempotencyConflictError,
  NotFoundError,
  Paygate,
} from '../../src/client/index.js';

async function rejection(p: PromiseLike<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describeTransports('against the emulator', (transport) => {
  const h = useSandbox({ transport, per: 'file' });
  let client: Paygate;
  let shopB: Paygate;
  let pool: Paygate;
  const make = (apiKey: string | undefined) => h.make({ apiKey });

  beforeAll(async () => {
    const [a, b, p] = h.sandbox.demo.shops;
    client = make(a!.api_key);
    shopB = make(b!.api_key);
    pool = make(p!.api_key);
    await layOutPool(
      h.sandbox.service,
      'shop_pool',
      { method: 'WT_RUB_C2C', amounts: ['1500.00', '2500.00', '5000.00', '20000.00', '25000.00'], batch: 'client' },
      false,
    );
  });

  const payment = (extra: Record<string, string> = {}) => ({
    client_id: 'cust-1',
    method: 'WT_RUB_C2C',
    amount: '500.00',
    currency: 'RUB',
    ...extra,
  });

  it('health probes answer without a key', async () => {
    const anonymous = make(undefined);
    expect(await anonymous.health.check()).toEqual({ ok: true, status: 204 });
    expect(await anonymous.health.check('livez')).toEqual({ ok: true, status: 204 });
    expect(await anonymous.health.check('healthz')).toEqual({ ok: true, status: 204 });
  });

  it('creates a payment with a generated id and reads it back by both ids', async () => {
    const { data: op, merchant_operation_id } = await client.payments.create(payment()).withResponse();
    expect(op.type).toBe('payment');
    expect(['pending', 'awaiting_confirmation']).toContain(op.status);
    expect(op.expected_amount).toBe('500.00');
    const byId = await client.operations.get({ operation_id: op.operation_id });
    const byMerchantId = await client.operations.get({ merchant_operation_id });
    expect(byId.operation_id).toBe(op.operation_id);
    expect(byMerchantId.operation_id).toBe(op.operation_id);
    expect(byId.receipt_evidence_status).toBeDefined();
    expect(Array.isArray(byId.receipts)).toBe(true);
  });

  it('replays an idempotent create and refuses a changed body with IdempotencyConflictError', async () => {
    const merchant_operation_id = `m-${randomUUID()}`;
    const first = await client.payments.create(payment({ merchant_operation_id }));
    const again = await client.payments.create(payment({ merchant_operation_id }));
    expect(again.operation_id).toBe(first.operation_id);
    const err = await client.payments
      .create(payment({ merchant_operation_id, amount: '600.00' }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect((err as IdempotencyConflictError).status).toBe(412);
    expect((err as IdempotencyConflictError).code).toBe('idempotency_conflict');
    expect((err as IdempotencyConflictError).merchantOperationId).toBe(merchant_operation_id);
  });

  it('creates a payment link (hosted page on shop A, null on shop B)', async () => {
    const link = await client.payments.createLink(payment());
    expect(typeof link.payment_url).toBe('string');
    expect(link.payment_url).toContain(link.operation_id);
    const noPage = await shopB.payments.createLink(payment());
    expect(noPage.payment_url).toBeNull();
  });

  it('creates a payout', async () => {
    const { data: op, merchant_operation_id } = await client.payouts
      .create({
        client_id: 'cust-2',
        method: 'WT_RUB_C2C',
        amount: '150.00',
        currency: 'RUB',
        number: '4111111111111111',
      })
      .withResponse();
    expect(op.type).toBe('payout');
    expect(merchant_operation_id).toMatch(/^[0-9a-f-]{36}$/);
    const state = await client.operations.get({ merchant_operation_id });
    expect(state.type).toBe('payout');
  });

  it('lists balances', async () => {
    const { balances } = await client.balances.list();
    expect(balances.map((b) => b.currency)).toContain('RUB');
    for (const row of balances) expect(row.balance).toMatch(/^-?\d+\.\d{2}$/);
  });

  it('401 for a missing, an invalid and a revoked key', async () => {
    const missing = await client.balances.list({ headers: { 'x-api-key': '' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AuthenticationError);
    expect((missing as AuthenticationError).detail).toBe('x-api-key header is required');
    const invalid = await make('pg_test_not_a_real_key_000')
      .balances.list()
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(AuthenticationError);
    expect((invalid as AuthenticationError).detail).toBe('invalid api key');
    const revokedKey = h.sandbox.demo.revoked_api_key;
    if (revokedKey)
      await expect(make(revokedKey).payments.create(payment())).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('400 for an invalid body', async () => {
    const err = await client.payments.create(payment({ amount: '0' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).detail).toMatch(/amount/);
    await expect(client.operations.get({ operation_id: 'not-a-uuid' })).rejects.toBeInstanceOf(BadRequestError);
  });

  it("404 for an unknown operation and for another shop's operation", async () => {
    await expect(client.operations.get({ operation_id: randomUUID() })).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.operations.get({ merchant_operation_id: `nope-${randomUUID()}` })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const mine = await client.payments.create(payment());
    await expect(shopB.operations.get({ operation_id: mine.operation_id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('cancels a payment by merchant_operation_id', async () => {
    const { merchant_operation_id } = await client.payments.create(payment()).withResponse();
    const cancelled = await client.operations.cancel({ merchant_operation_id, reason: 'customer left' });
    expect(cancelled.outcome).toBe('cancelled');
    expect(cancelled.operation.status).toBe('cancelled');
    const again = await client.operations.cancel({ merchant_operation_id });
    expect(again.outcome).toBe('cancelled');
  });

  it("cancelling another shop's payment is 404, not an unknown outcome", async () => {
    const mine = await client.payments.create(payment());
    expect(await rejection(shopB.operations.cancel({ operation_id: mine.operation_id }))).toBeInstanceOf(NotFoundError);
  });

  it('confirms a receipt for a payment awaiting confirmation', async () => {
    const op = await client.payments.create(payment({ client_id: 'cust-3+receipt' }));
    expect(op.status).toBe('awaiting_confirmation');
    const confirmed = await client.payments.confirm({
      operation_id: op.operation_id,
      receipt: Buffer.from('%PDF-1.4\n%%EOF\n'),
    });
    expect(confirmed.operation_id).toBe(op.operation_id);
    expect(confirmed.status).not.toBe('awaiting_confirmation');
  });

  it('uploads a receipt from a one-shot stream and from a path', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    const a = await client.payments.create(payment({ client_id: 'cust-5+receipt' }));
    const streamed = await client.payments.confirm({
      operation_id: a.operation_id,
      receipt: Readable.from([pdf.subarray(0, 4), pdf.subarray(4)]),
    });
    expect(streamed.operation_id).toBe(a.operation_id);
    const dir = await mkdtemp(join(tmpdir(), 'paygate-client-'));
    try {
      const path = join(dir, 'receipt-b.pdf');
      await writeFile(path, pdf);
      const b = await client.payments.create(payment({ client_id: 'cust-6+receipt' }));
      expect((await client.payments.confirm({ operation_id: b.operation_id, receipt: path })).operation_id).toBe(
        b.operation_id,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a receipt for another shop's payment is 404", async () => {
    const mine = await client.payments.create(payment({ client_id: 'cust-7+receipt' }));
    expect(
      await rejection(shopB.payments.confirm({ operation_id: mine.operation_id, receipt: Buffer.from('%PDF-1.4\n') })),
    ).toBeInstanceOf(NotFoundError);
  });

  it('the flexible link creates a pool payment when the recommended amount is available, with a k credential in payment_url', async () => {
    const moid = randomUUID();
    const op = await pool.payments.createFlexibleLink({
      merchant_operation_id: moid,
      client_id: 'cust-4',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '1000.00',
    });
    expect(op).toMatchObject({ status: 'pending', expected_amount: '1000.00' });
    expect('payment_url' in op && op.payment_url).toMatch(/\/pay\/[0-9a-f-]{36}\?k=[A-Za-z0-9_-]{43}$/);
    const again = await pool.payments.createFlexibleLink({
      merchant_operation_id: moid,
      client_id: 'cust-4',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '1000.00',
    });
    expect(again).toEqual(op);
  });

  it('the flexible link answers amount_selection when only other amounts are available, and the state read says 404', async () => {
    const sel = await pool.payments.createFlexibleLink({
      client_id: 'cust-5',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '24800.00',
      min_amount: '20000.00',
      max_amount: '30000.00',
    });
    expect(sel).toMatchObject({ status: 'amount_selection', recommended_amount: '24800.00' });
    expect(await rejection(pool.operations.get({ operation_id: sel.operation_id }))).toBeInstanceOf(NotFoundError);
  });

  it('availability and recommendations read the pool', async () => {
    const query = { method: 'WT_RUB_C2C', currency: 'RUB', min_amount: '20000.00', max_amount: '30000.00' };
    const a = await pool.payments.availability(query);
    expect(a).toMatchObject({ coverage: 'full', reserved: false, truncated: false });
    expect(a.intervals.length).toBeGreaterThan(0);
    const r = await pool.payments.recommendations({ ...query, amount: '26000.00', limit: 2 });
    expect(r.recommendations).toEqual([
      { amount: '25000.00', delta: '-1000.00' },
      { amount: '20000.00', delta: '-6000.00' },
    ]);
  });
});
