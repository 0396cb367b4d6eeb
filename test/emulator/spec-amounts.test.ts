// The amounts of the operation object as spec §2.3 words them, through the client and in webhook payloads:
// fx_rate is a quote (expected amount × rate, scale 2); settlement_amount and commission_amount settle to what was
// captured at a terminal status (zero for rejected, cancelled and failed operations); a pool payout that payers have
// partly paid shows that as its actual_amount while pending, without recorded_*.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/contract/index.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';
import { KEY_POOL, paymentBody, payoutBody } from '../helpers/harness.js';
import { useSandbox, useSandboxes } from '../helpers/sandbox.js';
import { useCleanup } from '../helpers/cleanup.js';
import { startReceiver } from '../webhooks/receiver.js';

const ADMIN = 'adm';
const SCALE2 = /^\d+\.\d{2}$/;

const OPTIONS = { frozenClock: true, startTime: '2026-03-01T12:00:00Z', adminToken: ADMIN } as const;

describe('spec §2.3 amounts', () => {
  const h = useSandbox(OPTIONS);
  const pool = () => h.make({ apiKey: KEY_POOL });
  const state = (operation_id: string) => h.client.operations.get({ operation_id });

  describe('fx_rate is the quote, expected amount × rate at scale 2', () => {
    const fxPayout = (amount: string) =>
      h.client.payouts.create(
        payoutBody({ method: 'WT_RUB_PHONE', number: '+79001234567', bankname: 'sber', amount }) as never,
      );

    it('1000.00 RUB at 0.0108 shows fx_rate "10.80" on create, on the state read and once completed', async () => {
      const op = await fxPayout('1000.00');
      expect(op).toMatchObject({
        status: 'pending',
        fx_source: 'sandbox_fx',
        fx_rate: '10.80',
        settlement_currency: 'USDT',
      });
      expect(op).not.toHaveProperty('recorded_amount');
      expect((await state(op.operation_id)).fx_rate).toBe('10.80');
      await h.admin.sandbox.clock.advance('10s');
      const done = await state(op.operation_id);
      expect(done).toMatchObject({
        status: 'completed',
        actual_amount: '1000.00',
        fx_rate: '10.80',
        recorded_currency: 'USDT',
        recorded_amount: '10.80',
      });
    });

    it('rounds the quote half up to scale 2, like every other response decimal', async () => {
      // 1500.55 × 0.0108 = 16.20594 → 16.21
      const op = await fxPayout('1500.55');
      expect(op.fx_rate).toBe('16.21');
      expect(op.fx_rate).toMatch(SCALE2);
    });
  });

  describe('a terminal operation that captured nothing settles to 0.00', () => {
    const zero = { actual_amount: '0.00', settlement_amount: '0.00', commission_amount: '0.00' };

    it('a payment rejected at create', async () => {
      const op = await h.client.payments.create(paymentBody({ client_id: 'dan+reject', amount: '1500.00' }) as never);
      expect(op).toMatchObject({ status: 'rejected', expected_amount: '1500.00', ...zero });
      expect(await state(op.operation_id)).toMatchObject(zero);
    });

    it('a payment rejected after the 15 s acceptance wait', async () => {
      const created = h.client.payments.create(paymentBody({ client_id: 'dan+timeout' }) as never);
      for (let i = 0; i < 20 && h.sandbox.clock.pendingTimers() === 0; i++) await new Promise((r) => setImmediate(r));
      await h.admin.sandbox.clock.advance('15s');
      expect(await created).toMatchObject({ status: 'rejected', ...zero });
    });

    it('a cancelled payment (the cancel answer, the state read)', async () => {
      const op = await h.client.payments.create(paymentBody({ amount: '1500.00' }) as never);
      expect(op).toMatchObject({ status: 'pending', settlement_amount: '1462.50', commission_amount: '37.50' });
      const c = await h.client.operations.cancel({ operation_id: op.operation_id });
      expect(c.operation).toMatchObject({ status: 'cancelled', ...zero });
      expect(await state(op.operation_id)).toMatchObject({ status: 'cancelled', ...zero });
    });

    it('an expired payment', async () => {
      const op = await h.client.payments.create(paymentBody({ client_id: 'eve+expire' }) as never);
      await h.admin.sandbox.clock.advance('16m');
      expect(await state(op.operation_id)).toMatchObject({ status: 'rejected', ...zero });
    });

    it('a payment whose receipt the reviewer declined', async () => {
      const op = await h.client.payments.create(paymentBody({ client_id: 'payer+receipt' }) as never);
      const png = readFileSync(new URL('../../fixtures/receipts/not-a-pdf.png', import.meta.url));
      const review = await h.client.payments.confirm({
        operation_id: op.operation_id,
        receipt: png,
        filename: 'r.png',
        contentType: 'image/png',
      });
      expect(review).toMatchObject({ status: 'manual_check', settlement_amount: '1462.50' });
      const declined = await h.client.sandbox.operations.review({ operation_id: op.operation_id }, 'decline');
      expect(declined).toMatchObject({ status: 'rejected', ...zero });
    });

    it('a failed payout: its reserve went back, so it shows nothing charged', async () => {
      const before = await h.client.balances.list();
      const op = await h.client.payouts.create(payoutBody({ amount: '1000.00' }) as never);
      expect(op).toMatchObject({ status: 'pending', settlement_amount: '1040.00', commission_amount: '40.00' });
      const failed = await h.client.sandbox.operations.settle({ operation_id: op.operation_id }, 'failed');
      expect(failed).toMatchObject({ status: 'rejected', ...zero });
      expect(await state(op.operation_id)).toMatchObject({ status: 'rejected', ...zero });
      expect(await h.client.balances.list()).toEqual(before);
    });

    it('a completed operation still settles to its captured amount', async () => {
      const op = await h.client.payments.create(paymentBody({ amount: '1500.00' }) as never);
      const paid = await h.client.sandbox.operations.pay({ operation_id: op.operation_id }, { amount: '1000.00' });
      expect(paid).toMatchObject({
        status: 'completed',
        actual_amount: '1000.00',
        commission_amount: '25.00',
        settlement_amount: '975.00',
      });
    });
  });

  describe('a partly paid pool payout', () => {
    it('is pending with actual_amount = what payers paid so far, without recorded_*; completes for the whole', async () => {
      const c = pool();
      const layout = await c.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['1500.00'] });
      const payoutId = layout.first_operation_id!;
      const a = await c.payments.create(paymentBody({ amount: '1000.00' }) as never);
      const b = await c.payments.create(paymentBody({ amount: '500.00' }) as never);
      expect([a.status, b.status]).toEqual(['pending', 'pending']);
      const untouched = await c.operations.get({ operation_id: payoutId });
      expect(untouched).toMatchObject({ status: 'pending', actual_amount: '0.00' });

      await c.sandbox.operations.pay({ operation_id: a.operation_id });
      const partly = await c.operations.get({ operation_id: payoutId });
      expect(partly).toMatchObject({
        status: 'pending',
        expected_amount: '1500.00',
        actual_amount: '1000.00',
        receipts: [],
        receipt_evidence_status: 'not_ready',
      });
      expect(partly).not.toHaveProperty('recorded_amount');
      expect(partly).not.toHaveProperty('recorded_currency');

      await c.sandbox.operations.pay({ operation_id: b.operation_id });
      const done = await c.operations.get({ operation_id: payoutId });
      expect(done).toMatchObject({
        status: 'completed',
        actual_amount: '1500.00',
        recorded_amount: '1500.00',
        recorded_currency: 'RUB',
      });
      expect(done.receipts.map((r) => r.amount).sort((x, y) => x - y)).toEqual([500, 1000]);
    });

    it('a payer who paid less leaves the payout pending for that much; closing it short completes it for it', async () => {
      const c = pool();
      const layout = await c.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['1500.00'] });
      const a = await c.payments.create(paymentBody({ amount: '1500.00' }) as never);
      await c.sandbox.operations.pay({ operation_id: a.operation_id }, { amount: '1450.00' });
      const partly = await c.operations.get({ operation_id: layout.first_operation_id! });
      expect(partly).toMatchObject({ status: 'pending', actual_amount: '1450.00' });
      expect(partly).not.toHaveProperty('recorded_amount');
      const closed = await c.sandbox.operations.settle({ operation_id: layout.first_operation_id! }, 'completed');
      expect(closed).toMatchObject({ status: 'completed', actual_amount: '1450.00', recorded_amount: '1450.00' });
    });
  });
});

describe('spec §2.3 amounts in webhook payloads (the same operation view)', () => {
  const defer = useCleanup();
  const open = useSandboxes(defer);

  /** A receiver every shop's webhooks go to, and a sandbox that posts to it. */
  async function receiving() {
    const rx = await startReceiver();
    defer(() => rx.close());
    const h = await open({ ...OPTIONS, webhookUrl: rx.url });
    /** The webhook of `operationId` with type `type` (skipping the others): its operation as delivered. */
    const webhookOf = async (operationId: string, type: string): Promise<Operation> => {
      const match = (e: WebhookEvent) => e.data.operation.operation_id === operationId && e.type === type;
      const seen = rx.received.map((r) => JSON.parse(r.body) as WebhookEvent).find(match);
      if (seen) return seen.data.operation;
      for (;;) {
        const e = JSON.parse((await rx.next()).body) as WebhookEvent;
        if (match(e)) return e.data.operation;
      }
    };
    return { h, rx, webhookOf };
  }

  it('a pending auto-converted payout: fx_rate is the quote', async () => {
    const { h, webhookOf } = await receiving();
    const op = await h.client.payouts.create(
      payoutBody({ method: 'WT_RUB_PHONE', number: '+79001234567', bankname: 'sber', amount: '1000.00' }) as never,
    );
    expect(await webhookOf(op.operation_id, 'operation.pending')).toMatchObject({
      fx_rate: '10.80',
      settlement_currency: 'USDT',
    });
  });

  it('operation.cancelled and operation.rejected carry 0.00 settlement and commission', async () => {
    const { h, webhookOf } = await receiving();
    const zero = { settlement_amount: '0.00', commission_amount: '0.00' };
    const cancelled = await h.client.payments.create(paymentBody() as never);
    await h.client.operations.cancel({ operation_id: cancelled.operation_id });
    expect(await webhookOf(cancelled.operation_id, 'operation.pending')).toMatchObject({
      settlement_amount: '1462.50',
      commission_amount: '37.50',
    });
    expect(await webhookOf(cancelled.operation_id, 'operation.cancelled')).toMatchObject(zero);
    const failed = await h.client.payouts.create(payoutBody({ client_id: 'bob+fail' }) as never);
    await h.admin.sandbox.clock.advance('5s');
    expect(await webhookOf(failed.operation_id, 'operation.rejected')).toMatchObject(zero);
  });

  it('a partly paid pool payout sends no webhook (its status did not change); the completed one carries the whole', async () => {
    const { h, rx, webhookOf } = await receiving();
    const c = h.make({ apiKey: KEY_POOL });
    const layout = await c.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['1500.00'] });
    const a = await c.payments.create(paymentBody({ amount: '1000.00' }) as never);
    const b = await c.payments.create(paymentBody({ amount: '500.00' }) as never);
    await c.sandbox.operations.pay({ operation_id: a.operation_id });
    await c.sandbox.operations.pay({ operation_id: b.operation_id });
    const done = await webhookOf(layout.first_operation_id!, 'operation.completed');
    expect(done).toMatchObject({ actual_amount: '1500.00', recorded_amount: '1500.00' });
    await h.sandbox.webhooks.idle();
    const types = rx.received
      .map((r) => JSON.parse(r.body) as WebhookEvent)
      .filter((e) => e.data.operation.operation_id === layout.first_operation_id! && e.type !== 'operation.pending')
      .map((e) => e.type);
    expect(types).toEqual(['operation.completed']);
  });
});
