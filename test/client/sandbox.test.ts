// client.sandbox against the real emulator, in-process (createInProcessDispatcher) and over HTTP
// (a sandbox listening on 127.0.0.1:0), on a frozen clock: operation list and details, payer / provider / reviewer
// actions, clock, evidence, keys, reset, and the admin token (missing, wrong).
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  NotFoundError,
  Paygate,
  PaygateError,
  ServiceUnavailableError,
  type ClientOptions,
} from '../../src/client/index.js';
import { describeTransports } from '../helpers/transport.js';
import { timerArmed, useSandbox } from '../helpers/sandbox.js';

const START = '2026-01-01T00:00:00.000Z';
const ADMIN = 'adm';
const FAKE_PHOTOSHOP = fileURLToPath(new URL('../../fixtures/receipts/fake-photoshop.pdf', import.meta.url));

async function rejection(p: PromiseLike<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describeTransports('client.sandbox against the emulator', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, startTime: '2026-01-01T00:00:00Z', adminToken: ADMIN });
  /** Shop A's key and the admin token. */
  let client: Paygate;
  let shopAKey: string;
  const make = (options: Partial<ClientOptions>) => h.make(options);

  beforeEach(() => {
    shopAKey = h.keyOf('shop_a');
    client = make({ apiKey: shopAKey, adminToken: ADMIN });
  });

  const payment = (extra: Record<string, string> = {}) => ({
    client_id: 'cust-1',
    method: 'WT_RUB_C2C',
    amount: '500.00',
    currency: 'RUB',
    ...extra,
  });
  const payout = (extra: Record<string, string> = {}) => ({
    client_id: 'cust-2',
    method: 'WT_RUB_C2C',
    amount: '150.00',
    currency: 'RUB',
    number: '2200700000000004',
    ...extra,
  });

  describe('operations (shop key)', () => {
    it("lists the shop's operations newest first, with filters and paging", async () => {
      const p1 = await client.payments.create(payment({ merchant_operation_id: 'list-1' }));
      const p2 = await client.payments.create(payment({ merchant_operation_id: 'list-2', amount: '700.00' }));
      const out = await client.payouts.create(payout({ merchant_operation_id: 'list-3' }));
      await client.sandbox.operations.pay({ operation_id: p1.operation_id });

      const all = await client.sandbox.operations.list();
      expect(all.total).toBe(3);
      expect(all.operations.map((o) => o.operation_id)).toEqual([out.operation_id, p2.operation_id, p1.operation_id]);

      const payouts = await client.sandbox.operations.list({ type: 'payout' });
      expect(payouts.total).toBe(1);
      expect(payouts.operations[0]?.operation_id).toBe(out.operation_id);

      const completed = await client.sandbox.operations.list({ status: 'completed' });
      expect(completed.operations.map((o) => o.operation_id)).toEqual([p1.operation_id]);

      const pendingPayments = await client.sandbox.operations.list({ type: 'payment', status: 'pending' });
      expect(pendingPayments.operations.map((o) => o.operation_id)).toEqual([p2.operation_id]);

      const page = await client.sandbox.operations.list({ limit: 1, offset: 1 });
      expect(page.total).toBe(3);
      expect(page.operations.map((o) => o.operation_id)).toEqual([p2.operation_id]);

      // Shop-scoped: shop B's key sees none of shop A's operations.
      const shopB = make({ apiKey: h.sandbox.demo.shops.find((s) => s.id === 'shop_b')!.api_key });
      expect(await shopB.sandbox.operations.list()).toEqual({
        total: 0,
        operations: [],
        has_more: false,
        next_cursor: null,
      });
    });

    it('details by operation_id and by merchant_operation_id, with the status history', async () => {
      const op = await client.payments.create(payment({ merchant_operation_id: 'details-1' }));
      const byId = await client.sandbox.operations.details({ operation_id: op.operation_id });
      expect(byId.operation.operation_id).toBe(op.operation_id);
      expect(byId.operation.status).toBe('pending');
      expect(byId.merchant_operation_id).toBe('details-1');
      expect(byId.created_at).toBe(START);
      expect(byId.history.length).toBeGreaterThan(0);
      expect(byId.history.at(-1)).toMatchObject({ to: 'pending' });
      expect(byId.uploads).toEqual([]);

      const byMerchantId = await client.sandbox.operations.details({ merchant_operation_id: 'details-1' });
      expect(byMerchantId).toEqual(byId);

      await client.sandbox.operations.pay({ merchant_operation_id: 'details-1' });
      const after = await client.sandbox.operations.details({ merchant_operation_id: 'details-1' });
      expect(after.history.length).toBe(byId.history.length + 1);
      expect(after.history.at(-1)).toMatchObject({ from: 'pending', to: 'completed' });
      expect(after.history.at(-1)?.cause).toMatch(/payer transferred 500\.00 RUB/);
    });

    it('details of an unknown operation is NotFoundError; a ref with both or neither id is refused before sending', async () => {
      await expect(client.sandbox.operations.details({ merchant_operation_id: 'nope' })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      const before = h.served();
      const both = { operation_id: 'a', merchant_operation_id: 'b' } as unknown as { operation_id: string };
      await expect(client.sandbox.operations.pay(both)).rejects.toThrow(/exactly one of/);
      await expect(client.sandbox.operations.details({} as { operation_id: string })).rejects.toThrow(/exactly one of/);
      expect(h.served()).toBe(before);
    });

    it('pay: the full expected amount, or a partial amount by merchant_operation_id', async () => {
      const full = await client.payments.create(payment());
      const paid = await client.sandbox.operations.pay({ operation_id: full.operation_id });
      expect(paid.operation_id).toBe(full.operation_id);
      expect(paid.status).toBe('completed');
      expect(paid.actual_amount).toBe('500.00');

      await client.payments.create(payment({ merchant_operation_id: 'partial-1' }));
      const partial = await client.sandbox.operations.pay({ merchant_operation_id: 'partial-1' }, { amount: '250.00' });
      expect(partial.status).toBe('completed');
      expect(partial.expected_amount).toBe('500.00');
      expect(partial.actual_amount).toBe('250.00');
      expect((await client.operations.get({ merchant_operation_id: 'partial-1' })).actual_amount).toBe('250.00');
    });

    it('settle: the provider completes one payout and fails another', async () => {
      const a = await client.payouts.create(payout());
      const b = await client.payouts.create(payout({ client_id: 'cust-3' }));
      expect(a.status).toBe('pending');
      const completed = await client.sandbox.operations.settle({ operation_id: a.operation_id }, 'completed');
      expect(completed.status).toBe('completed');
      expect(completed.type).toBe('payout');
      const failed = await client.sandbox.operations.settle({ operation_id: b.operation_id }, 'failed');
      expect(failed.status).toBe('rejected');
      expect((await client.operations.get({ operation_id: b.operation_id })).status).toBe('rejected');
      // Settling twice is a state conflict, not retried.
      const again = await rejection(client.sandbox.operations.settle({ operation_id: a.operation_id }, 'failed'));
      expect(again).toMatchObject({ status: 409, code: 'invalid_state' });
    });

    it('review: a receipt that lands in manual_check is approved or declined', async () => {
      const upload = async (merchant_operation_id: string) => {
        const op = await client.payments.create(
          payment({ client_id: 'x+receipt', amount: '1500.00', merchant_operation_id }),
        );
        expect(op.status).toBe('awaiting_confirmation');
        const checked = await client.payments.confirm({ operation_id: op.operation_id, receipt: FAKE_PHOTOSHOP });
        expect(checked.status).toBe('manual_check');
        expect(checked.manual_check_reason).toBe('potential_fake');
        return op;
      };

      const a = await upload('review-a');
      const details = await client.sandbox.operations.details({ operation_id: a.operation_id });
      expect(details.uploads).toHaveLength(1);
      expect(details.uploads[0]).toMatchObject({
        filename: 'fake-photoshop.pdf',
        review: { rule: 'forgery_signal', to: 'manual_check' },
      });
      const approved = await client.sandbox.operations.review({ operation_id: a.operation_id }, 'approve');
      expect(approved.status).toBe('completed');
      expect(approved.actual_amount).toBe('1500.00');

      const b = await upload('review-b');
      const declined = await client.sandbox.operations.review({ merchant_operation_id: 'review-b' }, 'decline');
      expect(declined.operation_id).toBe(b.operation_id);
      expect(declined.status).toBe('rejected');

      const c = await upload('review-c');
      const lower = await client.sandbox.operations.review({ operation_id: c.operation_id }, 'approve', {
        amount: '1400.00',
      });
      expect(lower.actual_amount).toBe('1400.00');
    });
  });

  describe('clock (admin token)', () => {
    it('reads the frozen clock; advance("10s") and advance(ms) move now', async () => {
      expect(await client.sandbox.clock.get()).toMatchObject({ now: START, frozen: true });
      const moved = await client.sandbox.clock.advance('10s');
      expect(moved.now).toBe('2026-01-01T00:00:10.000Z');
      expect((await client.sandbox.clock.advance(500)).now).toBe('2026-01-01T00:00:10.500Z');
      expect((await client.sandbox.clock.get()).now).toBe('2026-01-01T00:00:10.500Z');
    });

    it('a slow provider (client_id y+slow) answers once the clock is advanced', async () => {
      const before = (await client.sandbox.clock.get()).pending_timers;
      let done = false;
      const pending = client.payments.create(payment({ client_id: 'y+slow' }));
      void pending.then(
        () => (done = true),
        () => (done = true),
      );
      await timerArmed(h.sandbox, before); // the slow create reached the sandbox
      expect(done).toBe(false);
      const after = await client.sandbox.clock.advance('10s');
      expect(after.now).toBe('2026-01-01T00:00:10.000Z');
      const op = await pending;
      expect(op.status).toBe('pending');
      expect((await client.sandbox.operations.details({ operation_id: op.operation_id })).created_at).toBe(START);
    });

    it('an invalid duration is a BadRequestError', async () => {
      await expect(client.sandbox.clock.advance('10 seconds')).rejects.toMatchObject({
        status: 400,
        code: 'validation_error',
      });
    });
  });

  describe('evidence (admin token)', () => {
    it('switched off: by operation_id a 503 evidence_unavailable, by merchant_operation_id "unavailable"', async () => {
      expect(await client.sandbox.evidence.get()).toEqual({ available: true });
      const op = await client.payments.create(payment({ merchant_operation_id: 'evidence-1' }));
      await client.sandbox.operations.pay({ operation_id: op.operation_id });
      expect((await client.operations.get({ operation_id: op.operation_id })).receipt_evidence_status).not.toBe(
        'unavailable',
      );

      expect(await client.sandbox.evidence.set(false)).toEqual({ available: false });
      expect(await client.sandbox.evidence.get()).toEqual({ available: false });
      const err = await rejection(client.operations.get({ operation_id: op.operation_id }));
      expect(err).toBeInstanceOf(ServiceUnavailableError);
      expect(err).toMatchObject({ status: 503, code: 'evidence_unavailable', retryAfter: 1 });
      const byMerchantId = await client.operations.get({ merchant_operation_id: 'evidence-1' });
      expect(byMerchantId.status).toBe('completed');
      expect(byMerchantId.receipt_evidence_status).toBe('unavailable');
      expect(byMerchantId.receipts).toEqual([]);

      await client.sandbox.evidence.set(true);
      expect((await client.operations.get({ operation_id: op.operation_id })).receipt_evidence_status).not.toBe(
        'unavailable',
      );
    });
  });

  describe('keys (admin token)', () => {
    it('an issued key reads balances until it is revoked', async () => {
      const issued = await client.sandbox.keys.issue({ shop_id: 'shop_b', label: 'ci' });
      expect(issued).toMatchObject({ shop_id: 'shop_b', label: 'ci', revoked: false, created_at: START });
      expect(issued.api_key).toMatch(/^pg_test_/);
      expect(issued.last4).toBe(issued.api_key.slice(-4));

      const listed = await client.sandbox.keys.list({ shop_id: 'shop_b' });
      expect(listed.keys.every((k) => k.shop_id === 'shop_b')).toBe(true);
      expect(listed.keys.find((k) => k.id === issued.id)).toMatchObject({ revoked: false, last4: issued.last4 });
      expect(JSON.stringify(listed)).not.toContain(issued.api_key);
      expect((await client.sandbox.keys.list()).keys.map((k) => k.shop_id)).toContain('shop_a');

      const shopB = make({ apiKey: issued.api_key });
      const { balances } = await shopB.balances.list();
      expect(balances.map((b) => b.currency)).toEqual(['RUB']);

      const revoked = await client.sandbox.keys.revoke(issued.id);
      expect(revoked).toMatchObject({ id: issued.id, revoked: true, revoked_at: START });
      const err = await rejection(shopB.balances.list());
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err).toMatchObject({ code: 'invalid_api_key' });
      await expect(client.sandbox.keys.revoke('key_nope')).rejects.toMatchObject({
        status: 404,
        code: 'key_not_found',
      });
      await expect(client.sandbox.keys.issue({ shop_id: 'shop_nope' })).rejects.toMatchObject({
        status: 404,
        code: 'shop_not_found',
      });
    });
  });

  describe('admin token', () => {
    it('missing: a clear error naming adminToken / PAYGATE_ADMIN_TOKEN, and nothing is sent', async () => {
      const noAdmin = make({ apiKey: shopAKey });
      const before = h.served();
      for (const call of [
        () => noAdmin.sandbox.clock.get(),
        () => noAdmin.sandbox.clock.advance('10s'),
        () => noAdmin.sandbox.evidence.set(false),
        () => noAdmin.sandbox.keys.list(),
        () => noAdmin.sandbox.reset(),
      ]) {
        const err = await rejection(call());
        expect(err).toBeInstanceOf(PaygateError);
        expect((err as Error).message).toMatch(/needs the sandbox admin token/);
        expect((err as Error).message).toContain('adminToken');
        expect((err as Error).message).toContain('PAYGATE_ADMIN_TOKEN');
      }
      expect(h.served()).toBe(before);
      // Support reads take either: the key sees its shop, the admin token every shop; shop-scoped actions need the key.
      expect((await noAdmin.sandbox.operations.list()).total).toBe(0);
      const adminOnly = make({ adminToken: ADMIN });
      expect((await adminOnly.sandbox.operations.list()).operations).toEqual([]);
      await expect(
        adminOnly.sandbox.operations.pay({ operation_id: '00000000-0000-5000-8000-000000000000' }),
      ).rejects.toThrow(/needs an API key/);
      expect(h.served()).toBe(before + 2);
      expect((await adminOnly.sandbox.clock.get()).frozen).toBe(true);
    });

    it('wrong: AuthenticationError with code invalid_admin_token, not retried', async () => {
      const wrong = make({ apiKey: shopAKey, adminToken: 'not-the-token' });
      const before = h.served();
      const err = await rejection(wrong.sandbox.clock.get().withResponse());
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err).toMatchObject({ status: 401, code: 'invalid_admin_token', endpoint: 'GET /sandbox/clock' });
      expect(h.served()).toBe(before + 1);
      await expect(wrong.sandbox.reset()).rejects.toMatchObject({ code: 'invalid_admin_token' });
    });
  });

  describe('reset (admin token)', () => {
    it("forgets earlier operations and issued keys; the fixtures' keys still work", async () => {
      const op = await client.payments.create(payment());
      const issued = await client.sandbox.keys.issue({ shop_id: 'shop_a' });
      const res = await client.sandbox.reset();
      expect(res).toEqual({ reset: true, now: START });
      await expect(client.operations.get({ operation_id: op.operation_id })).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.sandbox.operations.details({ operation_id: op.operation_id })).rejects.toBeInstanceOf(
        NotFoundError,
      );
      expect((await client.sandbox.operations.list()).total).toBe(0);
      await expect(make({ apiKey: issued.api_key }).balances.list()).rejects.toBeInstanceOf(AuthenticationError);
      expect((await client.balances.list()).balances.length).toBeGreaterThan(0);
    });
  });
});
