// The lifecycle through the public API and the sandbox controls: cancellation (all eight rules of §4.7),
// payer transfers, payout settlement, expiry, receipt evidence, key lifecycle, history and reset.
import { describe, expect, it } from 'vitest';
import { OperationState } from '../../src/contract/index.js';
import { KEY_A, KEY_B, paymentBody, payoutBody } from '../helpers/harness.js';
import { describeTransports } from '../helpers/transport.js';
import { timerArmed, useSandbox } from '../helpers/sandbox.js';

const ADMIN = 'pg_admin_test_token';
const T0 = '2026-03-01T12:00:00.000Z';

describeTransports('lifecycle', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, startTime: T0, adminToken: ADMIN });

  const admin = { 'x-admin-token': ADMIN };
  const create = async (over: Record<string, unknown> = {}, kind = 'payment') => {
    const body = kind === 'payout' ? payoutBody(over) : paymentBody(over);
    const r = await h.call('POST', `/v1/${kind}`, { body });
    expect(r.status, r.text).toBe(200);
    return { ...r.body, moid: body.merchant_operation_id as string };
  };
  const state = async (ref: Record<string, string>, key = KEY_A) =>
    h.call('POST', '/v1/get_operation_state', { body: ref, key });
  const cancel = (body: Record<string, unknown>, key = KEY_A) => h.call('POST', '/v1/cancel_operation', { body, key });
  const advance = (by: string) => h.call('POST', '/sandbox/clock/advance', { body: { by }, key: null, headers: admin });
  const balance = async (key = KEY_A) => (await h.call('GET', '/v1/balances', { key })).body.balances[0];

  describe('cancel_operation', () => {
    it('cancels a pending payment, durably and idempotently, keeping the reason in history', async () => {
      const op = await create();
      const r = await cancel({ operation_id: op.operation_id, reason: 'customer left' });
      expect(r.status).toBe(200);
      expect(r.body.outcome).toBe('cancelled');
      expect(r.body.operation).toMatchObject({ operation_id: op.operation_id, type: 'payment', status: 'cancelled' });
      const again = await cancel({ merchant_operation_id: op.moid });
      expect(again.body.outcome).toBe('cancelled');
      const details = await h.call('GET', `/sandbox/operations/${op.operation_id}`);
      expect(details.body.history.map((e: { cause: string }) => e.cause)).toContain('cancel: customer left');
      expect(details.body.history.filter((e: { to: string }) => e.to === 'cancelled')).toHaveLength(1);
    });

    it('an empty reason is recorded as "cancel"; reasons are limited to 2048 bytes, not characters', async () => {
      const op = await create();
      const tooLong = await cancel({ operation_id: op.operation_id, reason: 'й'.repeat(1025) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.message).toContain('2048 bytes');
      const ok = await cancel({ operation_id: op.operation_id, reason: '' });
      expect(ok.body.outcome).toBe('cancelled');
      const history = (await h.call('GET', `/sandbox/operations/${op.operation_id}`)).body.history;
      expect(history.at(-1).cause).toBe('cancel: cancel');
      const op2 = await create();
      expect((await cancel({ operation_id: op2.operation_id, reason: 'й'.repeat(1024) })).body.outcome).toBe(
        'cancelled',
      );
    });

    it('terminal payments answer already_terminal with no change; payouts and reviews are 412', async () => {
      const paid = await create();
      await h.call('POST', `/sandbox/operations/${paid.operation_id}/pay`, { body: {} });
      const before = await balance();
      const r = await cancel({ operation_id: paid.operation_id });
      expect([r.status, r.body.outcome, r.body.operation.status]).toEqual([200, 'already_terminal', 'completed']);
      expect(await balance()).toEqual(before);
      const rejected = await create({ client_id: 'x+reject' });
      expect((await cancel({ operation_id: rejected.operation_id })).body.outcome).toBe('already_terminal');
      const payout = await create({}, 'payout');
      const p = await cancel({ operation_id: payout.operation_id });
      expect([p.status, p.body.code]).toEqual([412, 'payout_not_cancellable']);
    });

    it('needs exactly one identifier, a UUID, and answers 404 for another shop without revealing it', async () => {
      const op = await create();
      expect((await cancel({})).status).toBe(400);
      expect((await cancel({ operation_id: op.operation_id, merchant_operation_id: op.moid })).status).toBe(400);
      expect((await cancel({ operation_id: 'nope' })).status).toBe(400);
      const other = await cancel({ operation_id: op.operation_id }, KEY_B);
      const unknown = await cancel({ operation_id: '00000000-0000-4000-8000-000000000000' });
      expect(other.status).toBe(404);
      expect(other.body).toEqual(unknown.body);
      expect((await state({ operation_id: op.operation_id })).body.status).toBe('pending');
    });

    it('the race: a cancel by merchant_operation_id during the provider wait wins; the create answers cancelled without requisites', async () => {
      const body = paymentBody({ client_id: 'racer+slow' });
      const armed = timerArmed(h.sandbox);
      const createP = h.call('POST', '/v1/payment', { body });
      await armed;
      for (
        let i = 0;
        i < 5 && !h.sandbox.store.state.operationByMoid('shop_a', body.merchant_operation_id as string);
        i++
      )
        await new Promise((r) => setImmediate(r));
      const id = h.sandbox.store.state.operationByMoid('shop_a', body.merchant_operation_id as string)!.id;
      expect((await cancel({ operation_id: id })).status).toBe(404);
      expect((await state({ merchant_operation_id: body.merchant_operation_id as string })).status).toBe(404);
      const c = await cancel({ merchant_operation_id: body.merchant_operation_id });
      expect([c.status, c.body.outcome]).toEqual([200, 'cancelled']);
      expect(c.body.operation).not.toHaveProperty('number');
      const created = await createP;
      expect(created.status).toBe(200);
      expect(created.body.status).toBe('cancelled');
      expect(created.body).not.toHaveProperty('number');
      await advance('20s');
      const later = await state({ operation_id: id });
      expect(later.body.status).toBe('cancelled');
      expect(later.body).not.toHaveProperty('number');
      const dup = await h.call('POST', '/v1/payment', { body });
      expect(dup.body.status).toBe('cancelled');
    });

    it('the race: when the create finished first, the cancel applies to the real payment', async () => {
      const body = paymentBody({ client_id: 'racer+slow' });
      const armed = timerArmed(h.sandbox);
      const createP = h.call('POST', '/v1/payment', { body });
      await armed;
      await advance('10s');
      const created = await createP;
      expect(created.body.status).toBe('pending');
      expect(created.body.number).toBeDefined();
      const c = await cancel({ merchant_operation_id: body.merchant_operation_id });
      expect(c.body.outcome).toBe('cancelled');
      expect(c.body.operation.number).toBe(created.body.number);
    });

    it('a cancel for a create that never reached the sandbox is a final 404', async () => {
      expect((await cancel({ merchant_operation_id: 'never-sent' })).status).toBe(404);
    });
  });

  describe('controls', () => {
    it('the payer pays in full, partially or more: the payment settles to the captured amount', async () => {
      const full = await create({ amount: '1000.00' });
      const r = await h.call('POST', `/sandbox/operations/${full.operation_id}/pay`, { body: {} });
      expect(r.body).toMatchObject({
        status: 'completed',
        actual_amount: '1000.00',
        commission_amount: '25.00',
        settlement_amount: '975.00',
        recorded_amount: '1000.00',
        recorded_currency: 'RUB',
      });
      const part = await create({ amount: '1000.00' });
      const p = await h.call('POST', `/sandbox/operations/${part.operation_id}/pay`, { body: { amount: '400.00' } });
      expect(p.body).toMatchObject({
        status: 'completed',
        expected_amount: '1000.00',
        actual_amount: '400.00',
        settlement_amount: '390.00',
      });
      const more = await create({ amount: '1000.00' });
      const m = await h.call('POST', `/sandbox/operations/${more.operation_id}/pay`, { body: { amount: '1200.00' } });
      expect(m.body.settlement_amount).toBe('1170.00');
      expect((await balance()).balance).toBe('1002535.00');
      const s = OperationState.parse((await state({ operation_id: full.operation_id })).body);
      expect(s.receipt_evidence_status).toBe('partial');
      expect(s.receipts).toEqual([
        { id: expect.any(String), amount: 1000, completed_at: T0.replace('.000Z', '.000Z'), receipt_url: null },
      ]);
      const again = await h.call('POST', `/sandbox/operations/${full.operation_id}/pay`, { body: {} });
      expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
    });

    it('the provider completes or fails a payout; the reserve is consumed or returned', async () => {
      const a = await create({ amount: '1000.00' }, 'payout');
      const b = await create({ amount: '1000.00' }, 'payout');
      expect(await balance()).toEqual({
        currency: 'RUB',
        balance: '997920.00',
        current_minus: '0.00',
        reserved: '2080.00',
      });
      const ok = await h.call('POST', `/sandbox/operations/${a.operation_id}/settle`, {
        body: { outcome: 'completed' },
      });
      expect(ok.body.status).toBe('completed');
      const bad = await h.call('POST', `/sandbox/operations/${b.operation_id}/settle`, { body: { outcome: 'failed' } });
      expect(bad.body.status).toBe('rejected');
      expect(await balance()).toEqual({
        currency: 'RUB',
        balance: '998960.00',
        current_minus: '0.00',
        reserved: '0.00',
      });
      const bogus = await h.call('POST', `/sandbox/operations/${a.operation_id}/settle`, {
        body: { outcome: 'maybe' },
      });
      expect(bogus.status).toBe(400);
    });

    it('expiry: when the clock passes expires_at an unpaid payment is rejected', async () => {
      const op = await create();
      expect(op.expires_at).toBe('2026-03-01T12:30:00.000Z');
      const t = await advance('29m');
      expect(t.body.now).toBe('2026-03-01T12:29:00.000Z');
      expect((await state({ operation_id: op.operation_id })).body.status).toBe('pending');
      await advance('1m');
      expect((await state({ operation_id: op.operation_id })).body.status).toBe('rejected');
    });

    it('evidence unavailable: by operation_id 503, by merchant_operation_id 200 with unavailable and []', async () => {
      const op = await create();
      await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
      const off = await h.call('PUT', '/sandbox/evidence', { body: { available: false }, key: null, headers: admin });
      expect(off.body).toEqual({ available: false });
      const byId = await state({ operation_id: op.operation_id });
      expect([byId.status, byId.body.code]).toEqual([503, 'evidence_unavailable']);
      const byMoid = await state({ merchant_operation_id: op.moid });
      expect(byMoid.status).toBe(200);
      expect(byMoid.body).toMatchObject({ status: 'completed', receipts: [], receipt_evidence_status: 'unavailable' });
      const pending = await create();
      expect((await state({ operation_id: pending.operation_id })).body.receipt_evidence_status).toBe('not_ready');
      await h.call('PUT', '/sandbox/evidence', { body: { available: true }, key: null, headers: admin });
      expect((await state({ operation_id: op.operation_id })).status).toBe(200);
    });

    it('keys: issued once in plaintext, stored hashed, revoked keys get 401', async () => {
      const noAdmin = await h.call('POST', '/sandbox/keys', { body: { shop_id: 'shop_b' } });
      expect([noAdmin.status, noAdmin.body.code]).toEqual([401, 'missing_admin_token']);
      const wrong = await h.call('POST', '/sandbox/keys', {
        body: { shop_id: 'shop_b' },
        key: null,
        headers: { 'x-admin-token': 'nope' },
      });
      expect(wrong.status).toBe(401);
      const issued = await h.call('POST', '/sandbox/keys', {
        body: { shop_id: 'shop_b', label: 'ci' },
        key: null,
        headers: admin,
      });
      expect(issued.status).toBe(200);
      const token = issued.body.api_key as string;
      expect(issued.body.last4).toBe(token.slice(-4));
      expect((await balance(token)).currency).toBe('RUB');
      const list = await h.call('GET', '/sandbox/keys?shop_id=shop_b', { key: null, headers: admin });
      expect(list.text).not.toContain(token);
      expect(list.body.keys.map((k: { id: string }) => k.id)).toContain(issued.body.id);
      expect(JSON.stringify(h.sandbox.store.state.snapshot())).not.toContain(token);
      const revoked = await h.call('POST', `/sandbox/keys/${issued.body.id}/revoke`, { key: null, headers: admin });
      expect(revoked.body.revoked).toBe(true);
      const after = await h.call('GET', '/v1/balances', { key: token });
      expect([after.status, after.body.message]).toEqual([401, 'invalid api key']);
    });

    it("lists a shop's operations with filters, newest first, never another shop's", async () => {
      const a = await create();
      await create({}, 'payout');
      await create({ client_id: 'z+reject' });
      await h.call('POST', '/v1/payment', { body: paymentBody(), key: KEY_B });
      const all = await h.call('GET', '/sandbox/operations');
      expect(all.body.total).toBe(3);
      const payments = await h.call('GET', '/sandbox/operations?type=payment&status=pending');
      expect(payments.body.operations.map((o: { operation_id: string }) => o.operation_id)).toEqual([a.operation_id]);
      expect((await h.call('GET', '/sandbox/operations?limit=0')).status).toBe(400);
      expect((await h.call('GET', `/sandbox/operations/${a.operation_id}`, { key: KEY_B })).status).toBe(404);
    });

    it('history lists every transition with its time and cause', async () => {
      const body = paymentBody({ client_id: 'h+slow' });
      const armed = timerArmed(h.sandbox);
      const created = h.call('POST', '/v1/payment', { body });
      await armed;
      await advance('10s');
      const op = (await created).body;
      await advance('1m');
      await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: { amount: '1499.00' } });
      const d = await h.call('GET', `/sandbox/operations/-?merchant_operation_id=${body.merchant_operation_id}`);
      expect(d.status).toBe(200);
      expect(d.body.merchant_operation_id).toBe(body.merchant_operation_id);
      expect(d.body.history).toEqual([
        {
          at: '2026-03-01T12:00:00.000Z',
          from: null,
          to: 'admitting',
          cause: 'create: waiting for provider acceptance',
        },
        { at: '2026-03-01T12:00:10.000Z', from: 'admitting', to: 'pending', cause: 'provider accepted' },
        { at: '2026-03-01T12:01:10.000Z', from: 'pending', to: 'completed', cause: 'payer transferred 1499.00 RUB' },
      ]);
      expect(d.body.operation.status).toBe('completed');
    });

    it('reset returns the sandbox to its fixtures', async () => {
      const op = await create();
      await create({ amount: '1000.00' }, 'payout');
      const r = await h.call('POST', '/sandbox/reset', { key: null, headers: admin });
      expect(r.status).toBe(200);
      expect((await state({ operation_id: op.operation_id })).status).toBe(404);
      expect((await balance()).balance).toBe('1000000.00');
    });
  });
});
