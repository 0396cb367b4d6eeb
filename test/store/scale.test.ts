// The store at scale. Entities kept as JSON text (PackedMap), the version 2 snapshot (JSON Lines, still
// reading version 1), and the background compaction: commits go on to a new journal while the snapshot is written,
// nothing acknowledged is lost whatever point it stops at, nothing unwritten gets into the snapshot.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreCorruptError } from '../../src/store/errors.js';
import { serializeSnapshot } from '../../src/store/snapshot.js';
import { loadView } from '../../src/store/state-load.js';
import { FilePersistence } from '../../src/store/file-persistence.js';
import { PackedMap } from '../../src/store/packed-map.js';
import type { Entity } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import type { OperationRecord } from '../../src/domain/operation.js';
import { TIMER_STATUSES, timersOf } from '../../src/domain/effects.js';
import type { WorldIndex } from '../../src/domain/world.js';
import { createSandbox } from '../../src/emulator/index.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(`${os.tmpdir()}/paygate-scale-`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, 'sandbox.json');
const meta = (id: string, n: number) => ({ kind: 'meta' as const, meta: { id, n } });

describe('PackedMap', () => {
  it('keeps the last hotLimit entities as objects and older ones as their JSON text, decoded on read', () => {
    const m = new PackedMap<Entity>(2, 1);
    const a = { id: 'a', n: 1 };
    m.set('a', a).set('b', { id: 'b', n: 2 }).set('c', { id: 'c', n: 3 });
    expect(m.raw('a')).toBe('{"id":"a","n":1}');
    expect(m.raw('c')).toEqual({ id: 'c', n: 3 });
    expect(m.get('a')).toEqual(a);
    expect([...m.keys()]).toEqual(['a', 'b', 'c']);
    expect([...m.values()].map((v) => v.n)).toEqual([1, 2, 3]);
  });

  it('a capture sees the map as it was when it began, whatever changes after', () => {
    const m = new PackedMap<Entity>(10, 10);
    m.set('a', { id: 'a', n: 1 });
    m.setText('b', '{"id":"b","n":1}');
    const o = m.capture();
    m.set('a', { id: 'a', n: 2 });
    m.set('a', { id: 'a', n: 3 });
    m.delete('b');
    m.set('c', { id: 'c', n: 1 });
    expect(o.get('a')).toEqual({ id: 'a', n: 1 });
    expect(o.get('b')).toBe('{"id":"b","n":1}');
    expect(o.has('c') && o.get('c') === undefined).toBe(true);
    m.release(o);
    m.set('d', { id: 'd' });
    expect(o.has('d')).toBe(false);
  });
});

describe('snapshot versions 2 and 3', () => {
  it('a version 1 snapshot (one document) still opens, and the next compaction rewrites it as JSON Lines', async () => {
    fs.writeFileSync(
      file(),
      JSON.stringify({ format: 'paygate-store', version: 1, lastSeq: 0, collections: { meta: [{ id: 'x', n: 1 }] } }),
    );
    const p = new FilePersistence({ path: file(), fsync: false });
    expect(await p.open()).toEqual({ meta: [{ id: 'x', n: 1 }] });
    await p.close({ meta: [{ id: 'x', n: 1 }] });
    expect(fs.readFileSync(file(), 'utf8')).toBe(
      '{"format":"paygate-store","version":3,"lastSeq":0}\n"meta"\t"x"\t{"id":"x","n":1}\n{"end":1}\n',
    );
  });

  it('a snapshot cut short (no end line) or with a bad line is a StoreCorruptError and is left untouched', async () => {
    const cut = '{"format":"paygate-store","version":2,"lastSeq":0}\n"meta"\t"x"\t{"id":"x","n":1}\n';
    fs.writeFileSync(file(), cut);
    const e = await new FilePersistence({ path: file(), fsync: false }).open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StoreCorruptError);
    expect((e as StoreCorruptError).message).toContain('cut short');
    expect(fs.readFileSync(file(), 'utf8')).toBe(cut);
    fs.writeFileSync(file(), '{"format":"paygate-store","version":2,"lastSeq":0}\n"meta"\tx\t{"id":"x"}\n{"end":1}\n');
    const e2 = await new FilePersistence({ path: file(), fsync: false }).open().catch((x: unknown) => x);
    expect((e2 as StoreCorruptError).message).toContain('line 2: the id is not a JSON string');
  });
});

describe('background compaction', () => {
  it('starts once the journal holds compactAfter records; commits made while it runs survive a reopen', async () => {
    const p = new FilePersistence({ path: file(), fsync: false, compactAfter: 3 });
    const s = new Store(p);
    await s.open();
    for (let i = 0; i < 3; i++) await s.commit([meta(`m${i}`, i)]);
    // The third write reached the threshold: the journal was set aside in the writer and the snapshot is written
    // in the background; these commits go to the new journal meanwhile.
    const during = [s.commit([meta('m0', 100)]), s.commit([meta('late', 1)])];
    expect(p.compacting).toBe(true);
    await Promise.all(during);
    while (p.compacting) await new Promise((r) => setImmediate(r));
    expect(fs.existsSync(`${p.journalPath}.old`)).toBe(false);
    expect(fs.readFileSync(file(), 'utf8')).toContain('"lastSeq":3}');
    // Stop without a final compaction: what is on disk is the snapshot (seq 3) plus the new journal.
    await p.close();
    const again = new Store(new FilePersistence({ path: file(), fsync: false }));
    await again.open();
    expect(again.state.meta.get('m0')).toEqual({ id: 'm0', n: 100 });
    expect(again.state.meta.get('late')).toEqual({ id: 'late', n: 1 });
    expect(again.state.meta.get('m2')).toEqual({ id: 'm2', n: 2 });
    await again.close();
  });

  it("with compactOnOpen 'background' a journal left by the last run is folded in after open, not before it", async () => {
    const p = new FilePersistence({ path: file(), fsync: false });
    await p.open();
    await p.commit([{ c: 'meta', v: { id: 'a', n: 1 } }]);
    await p.commit([{ c: 'meta', v: { id: 'b', n: 1 } }]);
    await p.close(); // no state given: the journal stays, as after a SIGKILL
    const q = new FilePersistence({ path: file(), fsync: false, compactOnOpen: 'background' });
    const s = new Store(q);
    await s.open();
    // Open wrote nothing: the state is served from the journal, and the snapshot is being written in the background.
    expect(s.state.meta.get('b')).toEqual({ id: 'b', n: 1 });
    expect(q.compacting).toBe(true);
    while (q.compacting) await new Promise((r) => setImmediate(r));
    expect(fs.readFileSync(file(), 'utf8')).toContain('"b"');
    expect(q.stats.journalRecords).toBe(0);
    await s.commit([meta('c', 1)]);
    await q.close();
    const again = new Store(new FilePersistence({ path: file(), fsync: false }));
    await again.open();
    expect([...again.state.meta.keys()].sort()).toEqual(['a', 'b', 'c']);
    await again.close();
  });

  it('a crash before the snapshot is written leaves the old journal: open replays it, then the new one', async () => {
    const p = new FilePersistence({ path: file(), fsync: false, compactOnOpen: false });
    await p.open();
    await p.commit([{ c: 'meta', v: { id: 'a', n: 1 } }]);
    await p.commit([{ c: 'meta', v: { id: 'b', n: 1 } }]);
    await p.close();
    // What a crash mid-compaction leaves: the journal set aside, a new one with the next seqs, the old snapshot.
    fs.renameSync(p.journalPath, `${p.journalPath}.old`);
    fs.writeFileSync(p.journalPath, '{"seq":3,"ch":[{"c":"meta","v":{"id":"a","n":2}}]}\n');
    const q = new FilePersistence({ path: file(), fsync: false });
    expect(await q.open()).toEqual({
      meta: [
        { id: 'a', n: 2 },
        { id: 'b', n: 1 },
      ],
    });
    expect(fs.existsSync(`${p.journalPath}.old`)).toBe(false); // folded into the snapshot on open
    expect(q.seq).toBe(3);
    await q.close();
  });

  it('the snapshot holds only written data: an operation applied but not yet written is left out', async () => {
    const p = new FilePersistence({ path: file(), fsync: false, compactAfter: 1 });
    const s = new Store(p);
    await s.open();
    const op = {
      id: 'op1',
      shop_id: 's',
      merchant_operation_id: 'm',
      status: 'pending',
      type: 'payment',
      method: 'x',
      client_id: 'c',
      expected_amount: '1.00',
      created_at: '2026-01-01T00:00:00.000Z',
      history: [],
    } as unknown as OperationRecord;
    const first = s.commit([meta('a', 1)]);
    await first;
    // The compaction began when `a` was written; op1 is applied in memory, its write queued behind the rotation.
    const second = s.commit([{ kind: 'operation', op }]);
    expect(p.compacting).toBe(true);
    while (p.compacting) await new Promise((r) => setImmediate(r));
    const snap = fs.readFileSync(file(), 'utf8');
    expect(snap).toContain('"a"');
    expect(snap).not.toContain('op1');
    await second;
    await s.close();
    const again = new Store(new FilePersistence({ path: file(), fsync: false }));
    await again.open();
    expect(again.state.operation('op1')?.status).toBe('pending');
    await again.close();
  });
});

describe('stored events', () => {
  it('keep no copy of the operation (the webhook body is rendered from it at commit), before and after a restart', async () => {
    const open = (reset: boolean) =>
      createSandbox({ store: file(), reset, fsync: false, frozenClock: true, log: () => {} });
    const sb = await open(true);
    const op = await sb.service.create('shop_a', 'payment', {
      merchant_operation_id: 'ev-1',
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: '100.00',
      currency: 'RUB',
    });
    await sb.service.pay('shop_a', { operation_id: op.id });
    const shape = (s: typeof sb) =>
      [...s.service.state.events.values()]
        .filter((e) => e.operation_id === op.id)
        .map((e) => Object.keys(e).sort().join());
    const keys = 'created_at,id,operation_id,shop_id,type';
    expect(shape(sb)).toEqual([keys, keys]);
    await sb.close();
    const stored = fs
      .readdirSync(dir)
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
      .join('\n');
    expect(stored).toContain(`evt_${op.id}_1`);
    expect(stored).not.toMatch(/"operation":\{/);
    const again = await open(false);
    try {
      expect(shape(again)).toEqual([keys, keys]);
      expect(
        [...again.service.state.events.values()].filter((e) => e.operation_id === op.id).map((e) => e.type),
      ).toEqual(['operation.pending', 'operation.completed']);
    } finally {
      await again.close();
    }
  });

  it('an event stored with a copy of the operation (before) opens without it', async () => {
    const old = {
      id: 'evt_x_0',
      shop_id: 'shop_a',
      operation_id: 'x',
      type: 'operation.pending',
      created_at: '2026-01-01T00:00:00.000Z',
      operation: {
        id: 'x',
        status: 'pending',
        destination: { number: '2200707590765230', name: 'IVAN PETROV' },
        note: 'an operation copy is 600-1,000 bytes'.repeat(12),
      },
    };
    fs.writeFileSync(file(), serializeSnapshot({ events: [old] }, 0));
    const sb = await createSandbox({ store: file(), fsync: false, frozenClock: true, log: () => {} });
    try {
      const { operation, ...rest } = old;
      expect(operation).toBeDefined();
      expect(sb.service.state.events.get('evt_x_0')).toEqual(rest);
    } finally {
      await sb.close();
    }
  });
});

describe('restart recovery reads only what can have a timer', () => {
  const STATUSES = [
    'admitting',
    'pending',
    'awaiting_confirmation',
    'manual_check',
    'completed',
    'cancelled',
    'rejected',
  ] as const;
  const opOf = (i: number, status: string, type: 'payment' | 'payout') =>
    ({
      id: `op${i}`,
      shop_id: 's',
      merchant_operation_id: `m${i}`,
      status,
      type,
      method: 'x',
      client_id: 'c',
      expected_amount: '1.00',
      provider_id: 'p',
      magic: [],
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      accept_at: '2026-01-01T00:00:01.000Z',
      expires_at: '2026-01-01T00:30:00.000Z',
      history: [],
    }) as unknown as OperationRecord;

  it('TIMER_STATUSES holds every status timersOf gives a timer in', () => {
    const world = { providers: new Map([['p', { payout_settlement_ms: 1000 }]]) } as unknown as WorldIndex;
    for (const status of STATUSES) {
      for (const type of ['payment', 'payout'] as const) {
        if (timersOf(world, opOf(0, status, type)).length > 0)
          expect(TIMER_STATUSES.has(status), `${type} ${status}`).toBe(true);
      }
    }
  });

  it("an operation's load view (written beside it in the snapshot) gives the same timers as the operation", async () => {
    const sb = await createSandbox({ store: file(), reset: true, fsync: false, frozenClock: true, log: () => {} });
    try {
      const s = sb.service;
      const body = (i: number, client: string) => ({
        merchant_operation_id: `v-${i}`,
        client_id: client,
        method: 'WT_RUB_C2C',
        amount: '100.00',
        currency: 'RUB',
      });
      for (const [i, client] of ['c', 'c+receipt', 'c+expire'].entries())
        await s.create('shop_a', 'payment', body(i, client));
      for (const [i, client] of ['c', 'c+fail'].entries())
        await s.create('shop_a', 'payout', { ...body(10 + i, client), number: '2200700000000004' });
      const world = s.world;
      const synthetic = STATUSES.flatMap((status) =>
        (['payment', 'payout'] as const).map(
          (type, i) =>
            ({
              ...opOf(i, status, type),
              history: [{ at: '2026-01-01T00:00:05.000Z', from: null, to: status, cause: 'x' }],
            }) as OperationRecord,
        ),
      );
      const world2 = { providers: new Map([['p', { payout_settlement_ms: 1000 }]]) } as unknown as WorldIndex;
      const cases: [WorldIndex, OperationRecord][] = [
        ...[...sb.service.state.operations.values()].map((op) => [world, op] as [WorldIndex, OperationRecord]),
        ...synthetic.map((op) => [world2, op] as [WorldIndex, OperationRecord]),
      ];
      let compared = 0;
      for (const [w, op] of cases) {
        const view = { ...(JSON.parse(JSON.stringify(loadView(op))) as OperationRecord & { full?: 1 }), id: op.id };
        if (view.full || !TIMER_STATUSES.has(op.status)) continue;
        expect(timersOf(w, view), `${op.type} ${op.status} ${op.client_id}`).toEqual(timersOf(w, op));
        compared++;
      }
      expect(compared).toBeGreaterThanOrEqual(5 + 6);
      expect(
        new Set(
          cases
            .filter(([w, op]) => TIMER_STATUSES.has(op.status) && timersOf(w, op).length > 0)
            .map(([, op]) => op.status),
        ).size,
      ).toBe(3);
    } finally {
      await sb.close();
    }
  });

  it('operationsWithStatus gives the load views of those statuses without decoding, then decodes only those', async () => {
    const s = new Store(new FilePersistence({ path: file(), fsync: false }));
    await s.open();
    const ops = Array.from({ length: 70 }, (_, i) =>
      opOf(i, STATUSES[i % STATUSES.length]!, i % 2 ? 'payout' : 'payment'),
    );
    await s.commit(ops.map((op) => ({ kind: 'operation' as const, op })));
    await s.close();
    const again = new Store(new FilePersistence({ path: file(), fsync: false }));
    await again.open();
    const parse = vi.spyOn(JSON, 'parse');
    const expected = ops.filter((op) => TIMER_STATUSES.has(op.status)).map((op) => op.id);
    try {
      // The snapshot holds each operation's load view: loading kept those of the timer statuses.
      expect([...again.state.operationsWithStatus(TIMER_STATUSES)].map((op) => op.id)).toEqual(expected);
      expect(parse).toHaveBeenCalledTimes(0);
      // Read once, they are let go: a second pass decodes, but only those.
      expect([...again.state.operationsWithStatus(TIMER_STATUSES)].map((op) => op.id)).toEqual(expected);
      expect(parse).toHaveBeenCalledTimes(expected.length);
    } finally {
      parse.mockRestore();
    }
    await again.close();
  });

  it('after a restart, a pending payment still expires on time and a completed one is left alone', async () => {
    const open = (reset: boolean) =>
      createSandbox({ store: file(), reset, fsync: false, frozenClock: true, log: () => {} });
    const sb = await open(true);
    const pay = (i: number) =>
      sb.service.create('shop_a', 'payment', {
        merchant_operation_id: `r-${i}`,
        client_id: 'c',
        method: 'WT_RUB_C2C',
        amount: '100.00',
        currency: 'RUB',
      });
    const pending = await pay(1);
    const done = await pay(2);
    await sb.service.pay('shop_a', { operation_id: done.id });
    await sb.close();
    const again = await open(false);
    try {
      expect(again.clock.pendingTimers()).toBeGreaterThan(0);
      await again.clock.advance(31 * 60_000);
      expect(again.service.state.operation(pending.id)?.status).toBe('rejected');
      expect(again.service.state.operation(done.id)?.status).toBe('completed');
    } finally {
      await again.close();
    }
  });
});
