// client.sandbox.pool and client.sandbox.links against the real emulator, in-process (createInProcessDispatcher) and
// over HTTP (a sandbox listening on 127.0.0.1:0), on a frozen clock: pool layout (shop key; 412 not_pool_route for a shop
// whose payout route is not pooled), pool show and read settings (admin token), and a flexible link read and confirmed
// by the payer (an amount within the bounds, one taken in the meantime, an expired link).
// Pool rule of the default fixtures (docs/pool.md): a slot with free remainder F gives F, or a piece in
// [500.00, F − 500.00].
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  Paygate,
  PaygateError,
  PreconditionFailedError,
  type ClientOptions,
} from '../../src/client/index.js';
import { describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';

const ADMIN = 'pg_admin_pool_test';

async function rejection(p: PromiseLike<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

describeTransports('client.sandbox.pool and .links against the emulator', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, startTime: '2026-01-01T00:00:00Z', adminToken: ADMIN });
  /** The pool shop's key and the admin token. */
  let pool: Paygate;
  /** Shop A: its payout route is not pooled. */
  let shopA: Paygate;
  /** Shop B: another merchant (isolation of links). */
  let shopB: Paygate;
  const make = (options: Partial<ClientOptions>) => h.make(options);
  const keyOf = (id: string) => h.keyOf(id);

  beforeEach(() => {
    pool = make({ apiKey: keyOf('shop_pool'), adminToken: ADMIN });
    shopA = make({ apiKey: keyOf('shop_a'), adminToken: ADMIN });
    shopB = make({ apiKey: keyOf('shop_b') });
  });

  const flexible = (extra: Record<string, string>) => ({
    client_id: 'payer-1',
    method: 'WT_RUB_C2C',
    currency: 'RUB',
    recommended_amount: '2200.00',
    ...extra,
  });

  describe('pool.layout (shop key)', () => {
    it('lays out the amounts given, in matching order: pending payouts of the shop, shown as slots', async () => {
      const res = await pool.sandbox.pool.layout({
        method: 'WT_RUB_C2C',
        amounts: ['300.00', '1500.00', '2500.00', '25000.00'],
      });
      expect(res).toMatchObject({ created: 4, rejected: 0 });
      const first = await pool.operations.get({ operation_id: res.first_operation_id! });
      const last = await pool.operations.get({ operation_id: res.last_operation_id! });
      expect(first).toMatchObject({ type: 'payout', status: 'pending', expected_amount: '300.00' });
      expect(last).toMatchObject({ type: 'payout', status: 'pending', expected_amount: '25000.00' });

      const state = await pool.sandbox.pool.show();
      expect(state.pools).toHaveLength(1);
      const w = state.pools[0]!;
      expect(w).toMatchObject({
        pool_id: 'pool_main',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        min_piece: '500.00',
        min_remainder: '500.00',
        slots: 4,
        free_total: '29300.00',
      });
      expect(w.first.map((s) => [s.payout_id, s.shop_id, s.amount, s.claimed, s.paid, s.free])).toEqual([
        [res.first_operation_id, 'shop_pool', '300.00', '0.00', '0.00', '300.00'],
        [expect.any(String), 'shop_pool', '1500.00', '0.00', '0.00', '1500.00'],
        [expect.any(String), 'shop_pool', '2500.00', '0.00', '0.00', '2500.00'],
        [res.last_operation_id, 'shop_pool', '25000.00', '0.00', '0.00', '25000.00'],
      ]);
    });

    it('generates count amounts on the step grid within [min, max]; the same seed gives the same amounts', async () => {
      const generate = { count: 30, min: '500.00', max: '50000.00', step: '100.00', seed: 7 };
      const a = await pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', generate }).withResponse();
      expect(a.data).toMatchObject({ created: 30, rejected: 0 });
      expect(a.response.status).toBe(200);
      await pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', generate });
      const { pools } = await pool.sandbox.pool.show({ method: 'WT_RUB_C2C', limit: 60 });
      const amounts = pools[0]!.first.map((s) => Number(s.amount));
      expect(amounts).toHaveLength(60);
      for (const x of amounts) {
        expect(x).toBeGreaterThanOrEqual(500);
        expect(x).toBeLessThanOrEqual(50000);
        expect((x - 500) % 100).toBe(0);
      }
      expect(amounts.slice(30)).toEqual(amounts.slice(0, 30));
      // step and seed are optional (server defaults 1.00 and 1).
      expect(
        await pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', generate: { count: 2, min: '700.00', max: '800.00' } }),
      ).toMatchObject({ created: 2 });
    });

    it('412 not_pool_route with a shop whose payout route is not pooled; nothing is laid out', async () => {
      const err = await rejection(shopA.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['1500.00'] }));
      expect(err).toBeInstanceOf(PreconditionFailedError);
      expect(err).toMatchObject({ status: 412, code: 'not_pool_route' });
      expect((err as PreconditionFailedError).detail).toContain('shop_pool');
      expect((await pool.sandbox.pool.show()).pools).toEqual([]);
    });

    it('exactly one of amounts and generate, checked before sending; a bad amount is a 400', async () => {
      const neither = await rejection(pool.sandbox.pool.layout({ method: 'WT_RUB_C2C' } as never));
      expect(neither).toBeInstanceOf(PaygateError);
      expect((neither as Error).message).toMatch(/exactly one of \{ amounts \} or \{ generate/);
      const both = await rejection(
        pool.sandbox.pool.layout({
          method: 'WT_RUB_C2C',
          amounts: ['1.00'],
          generate: { count: 1, min: '1.00', max: '2.00' },
        } as never),
      );
      expect(both).toBeInstanceOf(PaygateError);
      expect(await rejection(pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['12.345'] }))).toBeInstanceOf(
        BadRequestError,
      );
    });
  });

  describe('pool.show and pool settings (admin token)', () => {
    it('show: limit and the method filter; without an admin token it throws before sending, a wrong one is 401', async () => {
      await pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['1000.00', '2000.00', '3000.00'] });
      const two = await pool.sandbox.pool.show({ limit: 2 });
      expect(two.pools[0]).toMatchObject({ slots: 3, free_total: '6000.00' });
      expect(two.pools[0]!.first.map((s) => s.amount)).toEqual(['1000.00', '2000.00']);
      expect((await pool.sandbox.pool.show({ limit: 0 })).pools[0]!.first).toEqual([]);
      expect((await pool.sandbox.pool.show({ method: 'WT_RUB_PHONE' })).pools).toEqual([]);

      const noToken = await rejection(make({ apiKey: keyOf('shop_pool') }).sandbox.pool.show());
      expect(noToken).toBeInstanceOf(PaygateError);
      expect((noToken as Error).message).toMatch(/GET \/sandbox\/pool needs the sandbox admin token/);
      const wrong = await rejection(make({ adminToken: 'pg_admin_wrong' }).sandbox.pool.settings());
      expect(wrong).toBeInstanceOf(AuthenticationError);
      expect(wrong).toMatchObject({ code: 'invalid_admin_token' });
    });

    it('settings / updateSettings: defaults, a partial patch keeps the other field, out of range is a 400', async () => {
      expect(await pool.sandbox.pool.settings()).toEqual({ read_latency_ms: 0, rate_limit: true });
      expect(await pool.sandbox.pool.updateSettings({ rate_limit: false })).toEqual({
        read_latency_ms: 0,
        rate_limit: false,
      });
      expect(await pool.sandbox.pool.updateSettings({ read_latency_ms: 1500 })).toEqual({
        read_latency_ms: 1500,
        rate_limit: false,
      });
      expect(await pool.sandbox.pool.settings()).toEqual({ read_latency_ms: 1500, rate_limit: false });
      expect(await rejection(pool.sandbox.pool.updateSettings({ read_latency_ms: 60_001 }))).toBeInstanceOf(
        BadRequestError,
      );
      expect(await pool.sandbox.pool.updateSettings({ read_latency_ms: 0, rate_limit: true })).toEqual({
        read_latency_ms: 0,
        rate_limit: true,
      });
    });

    it('with the rate limit lifted, a shop reads availability more than 5 times in one second of sandbox time', async () => {
      await pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['2500.00'] });
      const query = { method: 'WT_RUB_C2C', currency: 'RUB', min_amount: '100.00', max_amount: '3000.00' };
      await pool.sandbox.pool.updateSettings({ rate_limit: false });
      for (let i = 0; i < 7; i++)
        expect((await pool.payments.availability(query, { maxRetries: 0 })).coverage).toBe('full');
    });
  });

  describe('links (shop key)', () => {
    beforeEach(async () => {
      // 300.00 gives only 300.00; 2,500.00 gives 500.00 … 2,000.00 and 2,500.00: 2,200.00 within [2,000.00, 2,500.00]
      // is not available, 2,000.00 and 2,500.00 are.
      await pool.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['300.00', '2500.00'] });
    });

    it('get: an amount_selection link with its bounds and deadline; confirm creates the payment for the chosen amount', async () => {
      const sel = await pool.payments.createFlexibleLink(
        flexible({ merchant_operation_id: 'link-1', min_amount: '2000.00', max_amount: '2500.00' }),
      );
      expect(sel).toMatchObject({ status: 'amount_selection' });
      const id = sel.operation_id;
      const link = await pool.sandbox.links.get(id);
      expect(link).toEqual({
        operation_id: id,
        merchant_operation_id: 'link-1',
        status: 'amount_selection',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        recommended_amount: '2200.00',
        min_amount: '2000.00',
        max_amount: '2500.00',
        expires_at: '2026-01-01T00:15:00.000Z',
        confirmed_amount: null,
        created_at: '2026-01-01T00:00:00.000Z',
      });

      const op = await pool.sandbox.links.confirm(id, { amount: '2500.00' });
      expect(op).toMatchObject({
        operation_id: id,
        type: 'payment',
        status: 'pending',
        expected_amount: '2500.00',
        currency: 'RUB',
      });
      expect(await pool.sandbox.links.get(id)).toMatchObject({ status: 'confirmed', confirmed_amount: '2500.00' });
      expect(await pool.operations.get({ operation_id: id })).toMatchObject({
        status: 'pending',
        expected_amount: '2500.00',
      });
      // Confirming again returns the payment.
      expect(await pool.sandbox.links.confirm(id, { amount: '2500.00' })).toMatchObject({
        operation_id: id,
        status: 'pending',
      });
      const slots = (await pool.sandbox.pool.show()).pools[0]!.first;
      expect(slots.map((s) => [s.amount, s.claimed, s.free])).toEqual([
        ['300.00', '0.00', '300.00'],
        ['2500.00', '2500.00', '0.00'],
      ]);
    });

    it('an amount taken in the meantime: confirm creates a rejected payment', async () => {
      const sel = await pool.payments.createFlexibleLink(flexible({ min_amount: '2000.00', max_amount: '2500.00' }));
      expect(sel.status).toBe('amount_selection');
      expect(
        await pool.payments.create({ client_id: 'payer-2', method: 'WT_RUB_C2C', amount: '2500.00', currency: 'RUB' }),
      ).toMatchObject({ status: 'pending' });
      const op = await pool.sandbox.links.confirm(sel.operation_id, { amount: '2500.00' });
      expect(op).toMatchObject({ operation_id: sel.operation_id, status: 'rejected', expected_amount: '2500.00' });
    });

    it('an amount outside the bounds is a 400; another shop and an unknown id are 404; an expired link is 409', async () => {
      const sel = await pool.payments.createFlexibleLink(flexible({ min_amount: '2000.00', max_amount: '2500.00' }));
      const id = sel.operation_id;
      const outside = await rejection(pool.sandbox.links.confirm(id, { amount: '2600.00' }));
      expect(outside).toBeInstanceOf(BadRequestError);
      expect((outside as BadRequestError).detail).toContain('max_amount 2500.00');
      expect(await rejection(shopB.sandbox.links.get(id))).toBeInstanceOf(NotFoundError);
      expect(await rejection(shopB.sandbox.links.confirm(id, { amount: '2500.00' }))).toBeInstanceOf(NotFoundError);
      expect(await rejection(pool.sandbox.links.get('00000000-0000-4000-8000-000000000000'))).toMatchObject({
        status: 404,
        code: 'operation_not_found',
      });
      expect(await rejection(pool.sandbox.links.get('not-a-uuid'))).toBeInstanceOf(BadRequestError);

      await pool.sandbox.clock.advance('15m');
      expect(await pool.sandbox.links.get(id)).toMatchObject({ status: 'expired', confirmed_amount: null });
      const expired = await rejection(pool.sandbox.links.confirm(id, { amount: '2500.00' }));
      expect(expired).toBeInstanceOf(ConflictError);
      expect(expired).toMatchObject({ status: 409, code: 'invalid_state' });
    });

    it('a link with nothing available is rejected: get says so, confirm is 409', async () => {
      const sel = await pool.payments.createFlexibleLink(
        flexible({ recommended_amount: '10000.00', min_amount: '9000.00', max_amount: '11000.00' }),
      );
      expect(sel).toMatchObject({ status: 'rejected', payment_url: null });
      expect(await pool.sandbox.links.get(sel.operation_id)).toMatchObject({ status: 'rejected' });
      expect(await rejection(pool.sandbox.links.confirm(sel.operation_id, { amount: '10000.00' }))).toBeInstanceOf(
        ConflictError,
      );
    });
  });
});
