// Property: the listing index pages exactly like a scan of every operation (filter, newest first, offset, limit),
// whatever mix of creates, status changes and undos (a failed write's rollback) came before.
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { describe, expect, it, vi } from 'vitest';
import type { OperationRecord } from '../../src/domain/operation.js';
import { OperationIndex } from '../../src/store/operation-index.js';

const STATUSES = ['admitting', 'pending', 'awaiting_confirmation', 'manual_check', 'completed', 'rejected'] as const;
const SHOPS = ['shop_a', 'shop_b'] as const;
type Row = { id: string; shop_id: string; type: 'payment' | 'payout'; status: string; merchant_operation_id?: string };

type Step =
  | { kind: 'create'; shop: number; type: 'payment' | 'payout'; status: number; moid: number }
  | { kind: 'move'; pick: number; status: number }
  | { kind: 'undo_create'; pick: number }
  | { kind: 'undo_move'; pick: number; status: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      shop: fc.nat(1),
      type: fc.constantFrom('payment' as const, 'payout' as const),
      status: fc.nat(STATUSES.length - 1),
      moid: fc.nat(3),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), status: fc.nat(STATUSES.length - 1) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('undo_create' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('undo_move' as const),
      pick: fc.nat(),
      status: fc.nat(STATUSES.length - 1),
    }),
  },
);

const asRecord = (r: Row) =>
  ({
    merchant_operation_id: r.id,
    client_id: 'c',
    method: 'WT_RUB_C2C',
    expected_amount: '100.00',
    created_at: '2026-01-01T00:00:00.000Z',
    ...r,
  }) as unknown as OperationRecord;

/** The reference: every live row in creation order, filtered, newest first. */
function scan(
  rows: Row[],
  shop: string | undefined,
  f: { status?: string | undefined; type?: string | undefined; merchant_operation_id?: string | undefined },
  offset: number,
  limit: number,
) {
  const all = rows.filter(
    (r) =>
      (shop === undefined || r.shop_id === shop) &&
      r.status !== 'admitting' &&
      (!f.status || r.status === f.status) &&
      (!f.type || r.type === f.type) &&
      (f.merchant_operation_id === undefined || (r.merchant_operation_id ?? r.id) === f.merchant_operation_id),
  );
  const newest = all.reverse();
  return {
    total: all.length,
    ids: newest.slice(offset, offset + limit).map((r) => r.id),
    has_more: newest.length > offset + limit,
  };
}

describe('OperationIndex', () => {
  it('pages like a scan after any sequence of creates, moves and undos', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 120 }),
        fc.nat(6),
        fc.integer({ min: 1, max: 8 }),
        (steps, offset, limit) => {
          const live = new Map<string, OperationRecord>();
          const index = new OperationIndex();
          const rows: Row[] = [];
          let n = 0;
          for (const s of steps) {
            if (s.kind === 'create') {
              // A few merchant ids, so that shops share them (an id is unique within a shop in the sandbox, not here: the
              // index does not rely on it).
              const row: Row = {
                id: `op-${n++}`,
                shop_id: SHOPS[s.shop]!,
                type: s.type,
                status: STATUSES[s.status]!,
                merchant_operation_id: `m-${s.moid}`,
              };
              index.put(asRecord(row), undefined);
              live.set(row.id, asRecord(row));
              rows.push(row);
            } else if (rows.length > 0) {
              const at = s.pick % rows.length;
              const cur = rows[at]!;
              if (s.kind === 'undo_create') {
                index.remove(asRecord(cur));
                live.delete(cur.id);
                rows.splice(at, 1);
              } else {
                // A move puts the new version; an undo of a move puts the old version back over the current one.
                const next = { ...cur, status: STATUSES[s.status]! };
                index.put(asRecord(next), asRecord(cur));
                live.set(next.id, asRecord(next));
                rows[at] = next;
              }
            }
          }
          for (const shop of [...SHOPS, undefined]) {
            for (const status of [undefined, ...STATUSES.slice(1)]) {
              for (const type of [undefined, 'payment', 'payout']) {
                for (const merchant_operation_id of [undefined, 'm-0', 'm-3']) {
                  const f = { status, type, merchant_operation_id };
                  expect(index.page({ shop, ...f }, { offset, limit })).toEqual(scan(rows, shop, f, offset, limit));
                }
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps creation order at 100,000 operations when an old one changes status', () => {
    const live = new Map<string, OperationRecord>();
    const index = new OperationIndex();
    const put = (r: Row, prev?: Row) => {
      index.put(asRecord(r), prev && asRecord(prev));
      live.set(r.id, asRecord(r));
    };
    for (let i = 0; i < 100_000; i++)
      put({ id: `op-${i}`, shop_id: 'shop_a', type: 'payment', status: i % 100 === 0 ? 'rejected' : 'pending' });
    // An old operation changes status: it moves between buckets and keeps its place in creation order.
    put(
      { id: 'op-5', shop_id: 'shop_a', type: 'payment', status: 'completed' },
      { id: 'op-5', shop_id: 'shop_a', type: 'payment', status: 'pending' },
    );
    expect(index.page({ shop: 'shop_a', status: 'rejected' }, { limit: 2 })).toEqual({
      total: 1000,
      ids: ['op-99900', 'op-99800'],
      has_more: true,
    });
    expect(index.page({ shop: 'shop_a', status: 'completed' }, { limit: 50 })).toEqual({
      total: 1,
      ids: ['op-5'],
      has_more: false,
    });
    expect(index.page({ shop: 'shop_a' }, { offset: 99_998, limit: 50 })).toEqual({
      total: 100_000,
      ids: ['op-1', 'op-0'],
      has_more: false,
    });
    // A cursor continues after the operation it names.
    expect(index.page({ status: 'rejected' }, { after: 'op-99800', limit: 1 }).ids).toEqual(['op-99700']);
    expect(index.page({ shop: 'shop_a', status: 'pending', type: 'payment' }, { limit: 1 }).total).toBeUndefined();
    expect(index.page({ shop: 'shop_a', status: 'rejected', type: 'payment' }, { limit: 1 }).total).toBe(1000);
  });

  it('pages like a scan with dates and amounts too: since, until (a binary search), min and max amount, with a cursor', () => {
    const AMOUNTS = ['0.01', '0.50', '1.00', '99.99', '100.00', '150.50', '1000.00', '123456.78'];
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
    const bound = fc.option(fc.nat(12), { nil: undefined });
    const amountBound = fc.option(fc.constantFrom(...AMOUNTS, '0.02', '150.49', '5000.00', '999999.99'), {
      nil: undefined,
    });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            gap: fc.nat(2),
            amount: fc.nat(AMOUNTS.length - 1),
            shop: fc.nat(1),
            status: fc.nat(STATUSES.length - 1),
          }),
          { maxLength: 60 },
        ),
        fc.record({
          since: bound,
          until: bound,
          min: amountBound,
          max: amountBound,
          status: fc.option(fc.nat(STATUSES.length - 1), { nil: undefined }),
        }),
        fc.integer({ min: 1, max: 5 }),
        (creates, f, limit) => {
          const live = new Map<string, OperationRecord>();
          const index = new OperationIndex();
          const rows: (OperationRecord & { amount: string })[] = [];
          let minute = 0;
          creates.forEach((c, n) => {
            minute += c.gap;
            const op = {
              ...asRecord({ id: `op-${n}`, shop_id: SHOPS[c.shop]!, type: 'payment', status: STATUSES[c.status]! }),
              created_at: at(minute),
              expected_amount: AMOUNTS[c.amount]!,
            } as OperationRecord;
            index.put(op, undefined);
            live.set(op.id, op);
            rows.push({ ...op, amount: AMOUNTS[c.amount]! });
          });
          const q = {
            ...(f.since !== undefined ? { since: at(f.since) } : {}),
            ...(f.until !== undefined ? { until: at(f.until) } : {}),
            ...(f.min !== undefined ? { min_amount: new Decimal(f.min) } : {}),
            ...(f.max !== undefined ? { max_amount: new Decimal(f.max) } : {}),
            ...(f.status !== undefined ? { status: STATUSES[f.status]! } : {}),
          };
          const expected = rows
            .filter((r) => r.status !== 'admitting' && (!q.status || r.status === q.status))
            .filter((r) => (!q.since || r.created_at >= q.since) && (!q.until || r.created_at < q.until))
            .filter(
              (r) =>
                (!q.min_amount || new Decimal(r.amount).gte(q.min_amount)) &&
                (!q.max_amount || new Decimal(r.amount).lte(q.max_amount)),
            )
            .reverse()
            .map((r) => r.id);
          // Walk every page with the cursor: every match once, newest first.
          const walked: string[] = [];
          let after: string | undefined;
          for (let pages = 0; pages <= rows.length + 1; pages++) {
            const page = index.page(q, { limit, after });
            walked.push(...page.ids);
            if (page.total !== undefined) expect(page.total).toBe(expected.length);
            if (!page.has_more) break;
            after = page.ids.at(-1);
          }
          expect(walked).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('answers an amount range from its bins: max_amount=100.00 at 100,000 stored reads the few rows near it, not all', () => {
    const live = new Map<string, OperationRecord>();
    const index = new OperationIndex();
    for (let i = 0; i < 100_000; i++) {
      // One payment in 5,000 is of 100.00 or less; the rest 1,000.00 to 9,999.00.
      const op = {
        ...asRecord({ id: `op-${i}`, shop_id: 'shop_a', type: 'payment', status: 'pending' }),
        expected_amount: i % 5000 === 7 ? '100.00' : `${1000 + (i % 9000)}.00`,
      } as OperationRecord;
      index.put(op, undefined);
      live.set(op.id, op);
    }
    const page = index.page({ shop: 'shop_a', max_amount: new Decimal('100.00') }, { limit: 50 });
    expect(page.ids).toEqual(Array.from({ length: 20 }, (_, k) => `op-${(19 - k) * 5000 + 7}`));
    expect(page.total).toBe(20);
    expect(index.lastChecked).toBeLessThan(100);
    // A wide range is cheaper to answer from the creation-ordered bucket: the first 50 rows match.
    expect(index.page({ shop: 'shop_a', min_amount: new Decimal('1000.00') }, { limit: 50 }).ids).toHaveLength(50);
    expect(index.lastChecked).toBe(51);
  });

  it('moves an old operation only between the buckets whose key changed (an expiry at 100,000 stored shifts 4 lists, not 24)', () => {
    const index = new OperationIndex();
    const ops = Array.from({ length: 100_000 }, (_, i) =>
      asRecord({ id: `op-${i}`, shop_id: 'shop_a', type: 'payment', status: 'pending' }),
    );
    for (const op of ops) index.put(op, undefined);
    index.put({ ...ops[99_999]!, status: 'rejected' } as OperationRecord, ops[99_999]);
    const splice = vi.spyOn(Array.prototype, 'splice');
    try {
      // The oldest pending payment expires: out of s:pending, into s:rejected, in its shop and across shops.
      index.put({ ...ops[0]!, status: 'rejected' } as OperationRecord, ops[0]);
      expect(splice).toHaveBeenCalledTimes(4);
    } finally {
      splice.mockRestore();
    }
    expect(index.page({ shop: 'shop_a', status: 'rejected' }, { limit: 5 }).ids).toEqual(['op-99999', 'op-0']);
    expect(index.page({ status: 'pending' }, { limit: 1 })).toMatchObject({ total: 99_998, ids: ['op-99998'] });
    expect(index.page({ shop: 'shop_a' }, { limit: 1, offset: 99_999 }).ids).toEqual(['op-0']);
    expect(index.page({ shop: 'shop_a' }, { limit: 1 })).toMatchObject({ total: 100_000, ids: ['op-99999'] });
  });
});
