// GET /sandbox/operations/:id for support staff: the operation with its history (each transition with
// its cause), its receipt uploads with the amount found on each, its webhook deliveries with every attempt, and its
// ledger postings; the admin token reads any shop's, a key only its own; a merchant_operation_id used by two shops
// is 409 ambiguous_reference for the admin token until `shop=` says which.
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/client/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { deadPort } from '../helpers/transport.js';

const ADMIN = 'adm';
const T0 = '2026-01-01T00:00:00.000Z';
const receipt = (name: string) => fileURLToPath(new URL(`../../fixtures/receipts/${name}`, import.meta.url));
const phonePayment = (moid: string) => ({
  merchant_operation_id: moid,
  client_id: 'payer-1',
  method: 'WT_RUB_PHONE',
  amount: '1500.00',
  currency: 'RUB',
});

describe('GET /sandbox/operations/:id', () => {
  let port = 0;
  beforeAll(async () => {
    port = await deadPort();
  });
  const h = useSandbox(() => ({
    frozenClock: true,
    startTime: T0,
    adminToken: ADMIN,
    webhookUrl: `http://127.0.0.1:${port}/hooks`,
  }));

  it('a receipt-confirmed payment: history with causes, the upload with its amount, webhook attempts, postings', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const created = await a.payments.create(phonePayment('order-77'));
    expect(created.status).toBe('awaiting_confirmation');
    const confirmed = await a.payments.confirm({ operation_id: created.operation_id, receipt: receipt('ok-1500.pdf') });
    expect(confirmed.status).toBe('completed');
    await h.sandbox.webhooks.idle();

    const d = await h.admin.sandbox.operations.details({ operation_id: created.operation_id });
    expect(d).toMatchObject({
      shop_id: 'shop_a',
      merchant_operation_id: 'order-77',
      client_id: 'payer-1',
      created_at: T0,
    });
    expect(d.operation).toMatchObject({
      operation_id: created.operation_id,
      status: 'completed',
      actual_amount: '1500.00',
    });
    expect(d.history.map((e) => [e.from, e.to])).toEqual([
      [null, 'awaiting_confirmation'],
      ['awaiting_confirmation', 'completed'],
    ]);
    expect(d.history[1]!.cause).toMatch(/amount_matches/);
    expect(d.reason).toBe(d.history.at(-1)!.cause);

    expect(d.uploads).toHaveLength(1);
    expect(d.uploads[0]).toMatchObject({
      filename: 'ok-1500.pdf',
      content_type: 'application/pdf',
      amount: '1500.00',
      review: { rule: 'amount_matches', to: 'completed' },
    });

    // One delivery per event of the operation, each tried at the dead port once so far, the error recorded.
    expect(d.webhooks.map((w) => w.event_type).sort()).toEqual([
      'operation.awaiting_confirmation',
      'operation.completed',
    ]);
    for (const w of d.webhooks) {
      expect(w.event_id.startsWith(`evt_${created.operation_id}_`)).toBe(true);
      expect(w.status).toBe('pending');
      expect(w.attempts).toHaveLength(1);
      expect(w.attempts[0]!.error).toBeTruthy();
      expect(w.attempts[0]!.status_code).toBeUndefined();
      expect(w.url).toBe(`http://127.0.0.1:${port}/hooks`);
    }

    // The postings move the payment's money: what was credited is the amount paid, less the commission.
    expect(d.postings.length).toBeGreaterThan(0);
    for (const p of d.postings) expect(p).toMatchObject({ currency: 'RUB', at: T0 });
    const credited = d.postings
      .filter((p) => p.destination.includes('shop_a'))
      .reduce((s, p) => s.plus(p.amount), new Decimal(0));
    expect(credited.toFixed(2)).toBe(new Decimal(d.operation.settlement_amount).toFixed(2));
    const moved = d.postings.reduce((s, p) => s.plus(p.amount), new Decimal(0));
    expect(moved.toFixed(2)).toBe('1500.00');

    // A later attempt is added to the same delivery.
    await h.admin.sandbox.clock.advance('10m');
    await h.sandbox.webhooks.idle();
    const later = await h.admin.sandbox.operations.details({ operation_id: created.operation_id });
    for (const w of later.webhooks) expect(w.attempts.length).toBeGreaterThan(1);
  });

  it('a receipt whose amount differs: manual_check, and the upload shows the amount found', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const created = await a.payments.create(phonePayment('order-78'));
    await a.payments.confirm({ operation_id: created.operation_id, receipt: receipt('mismatch-1499.pdf') });
    const d = await a.sandbox.operations.details({ merchant_operation_id: 'order-78' });
    expect(d.operation.status).toBe('manual_check');
    expect(d.uploads[0]).toMatchObject({ amount: '1499.00', review: { rule: 'amount_differs', to: 'manual_check' } });
    expect(d.history.at(-1)).toMatchObject({ from: 'awaiting_confirmation', to: 'manual_check' });
    expect(d.postings).toEqual([]);
  });

  it("a key reads its own shop's operations only; the admin token any shop's", async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const b = h.make({ apiKey: h.keyOf('shop_b') });
    const created = await a.payments.create(phonePayment('order-79'));
    await expect(b.sandbox.operations.details({ operation_id: created.operation_id })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(b.sandbox.operations.details({ merchant_operation_id: 'order-79' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await h.admin.sandbox.operations.details({ merchant_operation_id: 'order-79' })).shop_id).toBe('shop_a');
    await expect(
      h.admin.sandbox.operations.details({ operation_id: '00000000-0000-5000-8000-000000000000' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      h.admin.sandbox.operations.details({ merchant_operation_id: 'nobody-used-this' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a merchant_operation_id two shops used: 409 ambiguous_reference for the admin token, naming both shops; shop= picks one', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const b = h.make({ apiKey: h.keyOf('shop_b') });
    const inA = await a.payments.create({ ...phonePayment('shared-1'), method: 'WT_RUB_C2C' });
    const inB = await b.payments.create({ ...phonePayment('shared-1'), method: 'WT_RUB_C2C', amount: '900.00' });

    const res = await h.call('GET', '/sandbox/operations/-?merchant_operation_id=shared-1', {
      key: null,
      headers: { 'x-admin-token': ADMIN },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('ambiguous_reference');
    expect(res.body.message).toContain('shop_a');
    expect(res.body.message).toContain('shop_b');
    expect(res.body.message).toMatch(/shop=/);

    expect(
      (await h.admin.sandbox.operations.details({ merchant_operation_id: 'shared-1' }, { shop: 'shop_b' })).operation
        .operation_id,
    ).toBe(inB.operation_id);
    expect(
      (await h.admin.sandbox.operations.details({ merchant_operation_id: 'shared-1' }, { shop: 'shop_a' })).operation
        .operation_id,
    ).toBe(inA.operation_id);
    // By operation_id there is nothing to choose.
    expect((await h.admin.sandbox.operations.details({ operation_id: inB.operation_id })).shop_id).toBe('shop_b');
    // A key needs no shop=: its own shop's is meant.
    expect((await b.sandbox.operations.details({ merchant_operation_id: 'shared-1' })).operation.operation_id).toBe(
      inB.operation_id,
    );
    // …and may not name another.
    const other = await h.call('GET', '/sandbox/operations/-?merchant_operation_id=shared-1&shop=shop_b', {
      key: h.keyOf('shop_a'),
    });
    expect(other.status).toBe(400);
    expect(other.text).not.toContain(inB.operation_id);
  });
});
