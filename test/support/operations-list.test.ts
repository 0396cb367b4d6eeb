// GET /sandbox/operations for support staff: each filter alone and combined, the admin token across
// shops against a shop's key (its own rows only; `shop=<other>` is 400), cursor paging that returns every matching
// row once, newest first, `total`, and 400 for a bad cursor, amount or date — nothing else answered.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Paygate } from '../../src/client/index.js';
import { useSandbox } from '../helpers/sandbox.js';

const ADMIN = 'adm';
const T0 = '2026-01-01T00:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

const h = useSandbox({ frozenClock: true, startTime: T0, adminToken: ADMIN });

interface Made {
  /** operation ids by name. */
  ids: Record<string, string>;
  a: Paygate;
  b: Paygate;
  admin: Paygate;
}

const payment = (moid: string, client: string, amount: string, method = 'WT_RUB_C2C') => ({
  merchant_operation_id: moid,
  client_id: client,
  method,
  amount,
  currency: 'RUB',
});

/**
 * One minute apart on the sandbox clock:
 * p1 A payment C2C 500.00 c1 ord-1 (then paid: completed) · p2 A payment PHONE 1500.00 c2 ord-2 (awaiting_confirmation)
 * p3 B payment C2C 700.00 c1 ord-1 (pending) · p4 A payout C2C 150.00 c3 pay-1 (settled by the next minute: completed) · p5 A payment C2C 2500.00 c1+reject ord-3 (rejected)
 */
async function world(): Promise<Made> {
  const a = h.make({ apiKey: h.keyOf('shop_a') });
  const b = h.make({ apiKey: h.keyOf('shop_b') });
  const admin = h.make({ adminToken: ADMIN });
  const ids: Record<string, string> = {};
  ids.p1 = (await a.payments.create(payment('ord-1', 'c1', '500.00'))).operation_id;
  await admin.sandbox.clock.advance('1m');
  ids.p2 = (await a.payments.create(payment('ord-2', 'c2', '1500.00', 'WT_RUB_PHONE'))).operation_id;
  await admin.sandbox.clock.advance('1m');
  ids.p3 = (await b.payments.create(payment('ord-1', 'c1', '700.00'))).operation_id;
  await admin.sandbox.clock.advance('1m');
  ids.p4 = (await a.payouts.create({ ...payment('pay-1', 'c3', '150.00'), number: '2200700000000004' })).operation_id;
  await admin.sandbox.clock.advance('1m');
  ids.p5 = (await a.payments.create(payment('ord-3', 'c1+reject', '2500.00'))).operation_id;
  await a.sandbox.operations.pay({ operation_id: ids.p1 });
  return { ids, a, b, admin };
}

describe('GET /sandbox/operations: filters', () => {
  let w: Made;
  beforeEach(async () => {
    w = await world();
  });
  /** The names of the listed operations, in the order listed. */
  const names = (ops: { operation_id: string }[]) =>
    ops.map((o) => Object.entries(w.ids).find(([, id]) => id === o.operation_id)?.[0] ?? o.operation_id);

  it('the world is what the filters below assume', async () => {
    const all = await w.admin.sandbox.operations.list();
    expect(all.total).toBe(5);
    expect(names(all.operations)).toEqual(['p5', 'p4', 'p3', 'p2', 'p1']);
    expect(all.operations.map((o) => o.status)).toEqual([
      'rejected',
      'completed',
      'pending',
      'awaiting_confirmation',
      'completed',
    ]);
    expect(all.operations.map((o) => o.created_at)).toEqual([at(4), at(3), at(2), at(1), at(0)]);
    expect(all).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('rows carry shop, merchant_operation_id, client_id, created and updated times and the reason', async () => {
    const { operations } = await w.admin.sandbox.operations.list();
    const p1 = operations.find((o) => o.operation_id === w.ids.p1)!;
    expect(p1).toMatchObject({
      shop_id: 'shop_a',
      merchant_operation_id: 'ord-1',
      client_id: 'c1',
      created_at: at(0),
      updated_at: at(4),
      status: 'completed',
    });
    expect(p1.reason).toMatch(/pay/);
    const p5 = operations.find((o) => o.operation_id === w.ids.p5)!;
    expect(p5.reason).toBe('create: no_provider_accepted');
    expect(operations.find((o) => o.operation_id === w.ids.p3)).toMatchObject({
      shop_id: 'shop_b',
      merchant_operation_id: 'ord-1',
      expected_amount: '700.00',
      reason: 'create',
    });
  });

  const cases: [string, Record<string, string>, string[]][] = [
    ['status (across shops)', { status: 'completed' }, ['p4', 'p1']],
    ['status', { status: 'pending' }, ['p3']],
    ['type', { type: 'payout' }, ['p4']],
    ['method', { method: 'WT_RUB_PHONE' }, ['p2']],
    ['client_id (across shops)', { client_id: 'c1' }, ['p3', 'p1']],
    ['client_id with a tag is its own client', { client_id: 'c1+reject' }, ['p5']],
    ['merchant_operation_id (both shops use ord-1)', { merchant_operation_id: 'ord-1' }, ['p3', 'p1']],
    ['merchant_operation_id and shop', { merchant_operation_id: 'ord-1', shop: 'shop_a' }, ['p1']],
    ['shop', { shop: 'shop_b' }, ['p3']],
    ['since (inclusive)', { since: at(2) }, ['p5', 'p4', 'p3']],
    ['until (exclusive)', { until: at(2) }, ['p2', 'p1']],
    ['since and until', { since: at(1), until: at(3) }, ['p3', 'p2']],
    ['since as a date', { since: '2026-01-01' }, ['p5', 'p4', 'p3', 'p2', 'p1']],
    ['until as a date', { until: '2026-01-01' }, []],
    ['min_amount (inclusive)', { min_amount: '700.00' }, ['p5', 'p3', 'p2']],
    ['max_amount (inclusive)', { max_amount: '500.00' }, ['p4', 'p1']],
    ['min and max amount', { min_amount: '600', max_amount: '1600.00' }, ['p3', 'p2']],
    ['method and min_amount', { method: 'WT_RUB_C2C', min_amount: '600.00' }, ['p5', 'p3']],
    ['type, status and shop', { type: 'payment', status: 'pending', shop: 'shop_b' }, ['p3']],
    ['nothing matches', { client_id: 'nobody' }, []],
  ];
  for (const [what, query, expected] of cases) {
    it(`${what}: ${JSON.stringify(query)} → ${expected.join(', ') || 'none'}, with total`, async () => {
      const res = await w.admin.sandbox.operations.list(query);
      expect(names(res.operations)).toEqual(expected);
      expect(res.total).toBe(expected.length);
      expect(res.has_more).toBe(false);
    });
  }

  it("a shop's key sees its own shop only, with every filter", async () => {
    const a = await w.a.sandbox.operations.list();
    expect(names(a.operations)).toEqual(['p5', 'p4', 'p2', 'p1']);
    expect(a.operations.every((o) => o.shop_id === 'shop_a')).toBe(true);
    expect(names((await w.a.sandbox.operations.list({ client_id: 'c1' })).operations)).toEqual(['p1']);
    expect(names((await w.b.sandbox.operations.list({ merchant_operation_id: 'ord-1' })).operations)).toEqual(['p3']);
    expect(names((await w.b.sandbox.operations.list({ shop: 'shop_b' })).operations)).toEqual(['p3']);
    expect((await w.b.sandbox.operations.list({ status: 'completed' })).total).toBe(0);
  });

  it("a shop's key asking for another shop is 400, and says to use the admin token", async () => {
    const res = await h.call('GET', '/sandbox/operations?shop=shop_b', { key: h.keyOf('shop_a') });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error' });
    expect(res.body.message).toMatch(/shop: .*own shop.*admin token/);
    expect(res.text).not.toContain(w.ids.p3);
  });

  it('without a credential it is 401', async () => {
    const res = await h.call('GET', '/sandbox/operations', { key: null });
    expect(res.status).toBe(401);
    const wrong = await h.call('GET', '/sandbox/operations', { key: null, headers: { 'x-admin-token': 'not-it' } });
    expect(wrong.status).toBe(401);
  });
});

describe('GET /sandbox/operations: paging', () => {
  /** 23 operations, alternating shop A and shop B, clients c0..c2. */
  async function many(): Promise<{ admin: Paygate; ids: string[] }> {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const b = h.make({ apiKey: h.keyOf('shop_b') });
    const admin = h.make({ adminToken: ADMIN });
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const c = i % 2 === 0 ? a : b;
      ids.push((await c.payments.create(payment(`m-${i}`, `c${i % 3}`, `${100 + i}.00`))).operation_id);
      if (i % 5 === 4) await admin.sandbox.clock.advance('1s');
    }
    return { admin, ids };
  }

  async function walk(
    admin: Paygate,
    query: Record<string, string | number>,
  ): Promise<{ ids: string[]; pages: number; totals: (number | undefined)[] }> {
    const ids: string[] = [];
    const totals: (number | undefined)[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await admin.sandbox.operations.list({ ...query, ...(cursor ? { starting_after: cursor } : {}) });
      pages++;
      totals.push(page.total);
      ids.push(...page.operations.map((o) => o.operation_id));
      expect(page.next_cursor).toBe(page.has_more ? page.operations.at(-1)!.operation_id : null);
      if (!page.has_more) return { ids, pages, totals };
      cursor = page.next_cursor!;
      expect(pages).toBeLessThan(50);
    }
  }

  it('the cursor walks every operation once, newest first, across shops', async () => {
    const { admin, ids } = await many();
    const { ids: walked, pages, totals } = await walk(admin, { limit: 5 });
    expect(pages).toBe(5);
    expect(walked).toEqual([...ids].reverse());
    expect(new Set(walked).size).toBe(23);
    expect(totals.every((t) => t === 23)).toBe(true);
  });

  it('with a filter, the cursor walks every matching operation once', async () => {
    const { admin, ids } = await many();
    const c1 = ids.filter((_, i) => i % 3 === 1).reverse();
    const { ids: walked } = await walk(admin, { limit: 2, client_id: 'c1' });
    expect(walked).toEqual(c1);
    const ranged = ids.filter((_, i) => i % 3 === 1 && 100 + i >= 110).reverse();
    expect((await walk(admin, { limit: 3, client_id: 'c1', min_amount: '110.00' })).ids).toEqual(ranged);
  });

  it('operations created between pages neither repeat nor shift a cursor walk (they would with offset)', async () => {
    const { admin, ids } = await many();
    const first = await admin.sandbox.operations.list({ limit: 10 });
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    for (let i = 0; i < 3; i++) await a.payments.create(payment(`late-${i}`, 'late', '300.00'));
    const rest = await walk(admin, { limit: 10 });
    // A fresh walk sees the 3 new ones first; a walk continued from the first page's cursor sees exactly the rest.
    expect(rest.ids).toHaveLength(26);
    expect(rest.ids.slice(3)).toEqual([...ids].reverse());
    const continued: string[] = [];
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const page = await admin.sandbox.operations.list({ limit: 10, starting_after: cursor });
      continued.push(...page.operations.map((o) => o.operation_id));
      cursor = page.next_cursor;
    }
    expect([...first.operations.map((o) => o.operation_id), ...continued]).toEqual([...ids].reverse());
    // offset=10 now starts 3 rows earlier: the last 3 rows of the first page again.
    const offset = await admin.sandbox.operations.list({ limit: 10, offset: 10 });
    expect(offset.operations.slice(0, 3).map((o) => o.operation_id)).toEqual(
      first.operations.slice(7).map((o) => o.operation_id),
    );
  });

  it('a cursor whose operation changed status since still continues from its place', async () => {
    const { admin, ids } = await many();
    const first = await admin.sandbox.operations.list({ limit: 4 });
    await h.make({ apiKey: h.keyOf('shop_b') }).sandbox.operations.pay({ operation_id: first.next_cursor! });
    const next = await admin.sandbox.operations.list({ limit: 4, starting_after: first.next_cursor! });
    expect(next.operations.map((o) => o.operation_id)).toEqual([...ids].reverse().slice(4, 8));
  });
});

describe('GET /sandbox/operations: bad queries are 400 and name the parameter', () => {
  const bad: [string, RegExp][] = [
    ['starting_after=not-an-operation', /^starting_after: no such cursor/],
    ['min_amount=1,500.00', /^min_amount: /],
    ['max_amount=-5.00', /^max_amount: /],
    ['min_amount=1.234', /^min_amount: /],
    ['since=yesterday', /^since: must be an RFC 3339 timestamp or a date/],
    ['until=2026-13-45', /^until: /],
    ['since=2026-01-01T25:00:00Z', /^since: /],
    ['limit=0', /^limit: /],
    ['limit=1001', /^limit: /],
    ['limit=ten', /^limit: /],
    ['offset=-1', /^offset: /],
    ['status=lost', /^status: /],
    ['type=refund', /^type: /],
  ];
  for (const [query, message] of bad) {
    it(query, async () => {
      const res = await h.call('GET', `/sandbox/operations?${query}`, {
        key: null,
        headers: { 'x-admin-token': ADMIN },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.message).toMatch(message);
    });
  }
});
