// A change is visible only after it is written: a write that fails leaves state, balances, timers, webhooks and the
// next retry exactly as if the request had never come (issue: "a commit that never shows what was not written").
import { describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';
import { paymentBody, payoutBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('a failed write is never visible', () => {
  let p: FailingPersistence;
  const h = useSandbox(() => {
    p = new FailingPersistence(new MemoryPersistence());
    return { persistence: p, frozenClock: true };
  });

  const balances = async () => (await h.call('GET', '/v1/balances')).body;
  const state = async (ref: Record<string, string>) => h.call('POST', '/v1/get_operation_state', { body: ref });

  it('a payout create on a full disk: 503, then no operation, no reserve, no timer, no webhook; the retry creates it', async () => {
    const before = await balances();
    const timers = h.sandbox.clock.pendingTimers();
    const deliveries = h.sandbox.service.state.webhookDeliveries.size;
    const body = payoutBody({ amount: '500.00' });
    p.failAll();
    const r = await h.call('POST', '/v1/payout', { body });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'store_unavailable' });
    expect((r.body as { message: string }).message).toContain('ENOSPC');
    expect(p.refused).toBeGreaterThan(0);
    p.heal();

    expect((await state({ merchant_operation_id: body.merchant_operation_id as string })).status).toBe(404);
    expect(await balances()).toEqual(before);
    expect(h.sandbox.clock.pendingTimers()).toBe(timers);
    expect(h.sandbox.service.state.webhookDeliveries.size).toBe(deliveries);
    expect(h.sandbox.service.state.operationByMoid('shop_a', body.merchant_operation_id as string)).toBeUndefined();

    const retry = await h.call('POST', '/v1/payout', { body });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'pending', expected_amount: '500.00' });
    const after = (await balances()) as { balances: { reserved: string }[] };
    expect(after.balances[0]!.reserved).toBe('532.50');
    // Only the retry reached the journal.
    const ops = p.written
      .flat()
      .filter((c) => c.c === 'operations' && c.v.merchant_operation_id === body.merchant_operation_id);
    expect(ops.length).toBeGreaterThan(0);
    expect(ops.every((c) => c.v.status === 'pending')).toBe(true);
  });

  it('a payment create that fails leaves nothing to replay: the same request later is a new, successful create', async () => {
    const body = paymentBody();
    p.failAll();
    expect((await h.call('POST', '/v1/payment', { body })).status).toBe(503);
    p.heal();
    const ok = await h.call('POST', '/v1/payment', { body });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'pending' });
  });

  it('a control whose write fails changes nothing: the payment stays pending and unpaid, and can be paid after', async () => {
    const created = (await h.call('POST', '/v1/payment', { body: paymentBody({ amount: '1000.00' }) })).body as {
      operation_id: string;
    };
    const before = await balances();
    p.failAll();
    const pay = await h.call('POST', `/sandbox/operations/${created.operation_id}/pay`, { body: {} });
    expect(pay.status).toBe(503);
    p.heal();
    const s = await state({ operation_id: created.operation_id });
    expect(s.body).toMatchObject({ status: 'pending', actual_amount: '0.00' });
    expect(await balances()).toEqual(before);
    const again = await h.call('POST', `/sandbox/operations/${created.operation_id}/pay`, { body: {} });
    expect(again.body).toMatchObject({ status: 'completed', actual_amount: '1000.00' });
  });

  it('everything queued behind a failed write (planned on top of it) is taken back too', async () => {
    const body = paymentBody({ client_id: 'racer+slow' });
    p.hold();
    const create = h.call('POST', '/v1/payment', { body });
    await turns();
    const cancel = h.call('POST', '/v1/cancel_operation', {
      body: { merchant_operation_id: body.merchant_operation_id },
    });
    await turns();
    p.release(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }));
    await turns();
    // The create's write failed, and the cancel was planned on top of it: both answer 503, neither exists.
    const [c, x] = await Promise.all([create, cancel]);
    expect(c.status).toBe(503);
    expect(x.status).toBe(503);
    expect(h.sandbox.service.state.operationByMoid('shop_a', body.merchant_operation_id as string)).toBeUndefined();
    expect(h.sandbox.service.state.events.size).toBe(0);
  });

  it('a read waits for a change being written, and shows it only once written', async () => {
    const created = (await h.call('POST', '/v1/payment', { body: paymentBody({ amount: '1000.00' }) })).body as {
      operation_id: string;
    };
    p.hold();
    const pay = h.call('POST', `/sandbox/operations/${created.operation_id}/pay`, { body: {} });
    await turns();
    let answered = false;
    const read = state({ operation_id: created.operation_id }).then((r) => ((answered = true), r));
    await turns();
    expect(answered).toBe(false);
    p.release(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }));
    const r = await read;
    expect(r.body).toMatchObject({ status: 'pending', actual_amount: '0.00' });
    expect((await pay).status).toBe(503);
  });

  it('a timer whose outcome cannot be written tries again: the payout settles once the disk is back', async () => {
    const po = (await h.call('POST', '/v1/payout', { body: payoutBody({ amount: '500.00' }) })).body as {
      operation_id: string;
    };
    p.failAll();
    await h.sandbox.clock.advance(5_000);
    p.heal();
    expect((await state({ operation_id: po.operation_id })).body).toMatchObject({ status: 'pending' });
    await h.sandbox.clock.advance(1_000);
    expect((await state({ operation_id: po.operation_id })).body).toMatchObject({ status: 'completed' });
  });

  it('a create that waits for acceptance, whose outcome cannot be written, answers 503; a retry finds the outcome', async () => {
    const body = paymentBody({ client_id: 'slowpoke+slow' });
    const create = h.call('POST', '/v1/payment', { body });
    await turns();
    p.failAll();
    await h.sandbox.clock.advance(10_000);
    const r = await create;
    expect(r.status).toBe(503);
    p.heal();
    const retry = h.call('POST', '/v1/payment', { body });
    await turns();
    await h.sandbox.clock.advance(1_000);
    expect((await retry).body).toMatchObject({ status: 'pending' });
  });

  it('a key issued while the disk is full does not exist', async () => {
    const keys = h.sandbox.service.state.keys.size;
    p.failAll();
    const r = await h.call('POST', '/sandbox/keys', {
      body: { shop_id: 'shop_a' },
      headers: { 'x-admin-token': h.sandbox.adminToken! },
    });
    p.heal();
    expect(r.status).toBe(503);
    expect(h.sandbox.service.state.keys.size).toBe(keys);
  });
});
