// Texts left in the snapshot file. A file store loads its operations, postings and events as handles to
// their text in the snapshot (ColdTexts), and a compaction moves what it wrote to the new snapshot, closing the old
// one once nothing points into it. A value replaced while a compaction reads the map is still read as it was.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilePersistence } from '../../src/store/file-persistence.js';
import { Store } from '../../src/store/store.js';
import { ColdTexts } from '../../src/store/cold-texts.js';
import { PackedMap } from '../../src/store/packed-map.js';
import type { Entity } from '../../src/store/persistence.js';
import type { OperationEvent } from '../../src/domain/transitions.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(`${os.tmpdir()}/paygate-cold-`);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, 'sandbox.json');
const event = (i: number, type = 'operation.pending'): OperationEvent =>
  ({
    id: `evt_${i}`,
    shop_id: 'shop_a',
    operation_id: `op_${i}`,
    type,
    created_at: '2026-01-01T00:00:00.000Z',
    operation: {},
  }) as unknown as OperationEvent;
const put = (s: Store, from: number, to: number, type?: string) =>
  Promise.all(Array.from({ length: to - from }, (_, k) => s.commit([{ kind: 'event', event: event(from + k, type) }])));

async function reopened(opts: { compactAfter?: number } = {}): Promise<{ s: Store; p: FilePersistence }> {
  const p = new FilePersistence({ path: file(), fsync: false, ...opts });
  const s = new Store(p);
  await s.open();
  return { s, p };
}

describe('texts left in the snapshot file', () => {
  it('a reopened store holds a handle for each entity of its snapshot, and reads each back as it was written', async () => {
    const first = await reopened();
    await put(first.s, 0, 2000);
    await first.s.close();
    const { s } = await reopened();
    try {
      expect(s.state.events.size).toBe(2000);
      expect(s.state.cold.handles).toBe(2000);
      expect(s.state.cold.openFiles).toBe(1);
      expect(s.state.events.get('evt_1999')).toEqual({
        id: 'evt_1999',
        shop_id: 'shop_a',
        operation_id: 'op_1999',
        type: 'operation.pending',
        created_at: '2026-01-01T00:00:00.000Z',
      });
      expect(s.state.events.raw('evt_7')).toBe(
        '{"id":"evt_7","shop_id":"shop_a","operation_id":"op_7","type":"operation.pending","created_at":"2026-01-01T00:00:00.000Z"}',
      );
    } finally {
      await s.close();
    }
    expect(s.state.cold.openFiles).toBe(0);
  });

  it('a background compaction moves what it wrote to the new snapshot and closes the old one; later changes stay', async () => {
    const first = await reopened();
    await put(first.s, 0, 2000);
    await first.s.close();
    // compactAfter counts journal lines (group writes), not transactions.
    const { s, p } = await reopened({ compactAfter: 3 });
    try {
      // 10 replaced, 1,490 new: 1,024 of the newest stay objects, the older ones become in-memory texts.
      await put(s, 0, 10, 'operation.completed');
      for (let i = 2000; i < 3490; i += 745) await put(s, i, i + 745);
      expect(p.compacting).toBe(true);
      const late = put(s, 5, 6, 'operation.rejected'); // changed while the snapshot is written: not moved
      while (p.compacting) await new Promise((r) => setImmediate(r));
      await late;
      expect(s.state.cold.openFiles).toBe(1);
      // Every entity not hot is a handle into the new snapshot: 3,490 in all, 1,024 objects; one more may be a text
      // (the object that evt_5's change pushed out of the hot set, if the snapshot had passed it).
      expect(s.state.cold.handles).toBeGreaterThanOrEqual(3490 - 1024 - 1);
      expect(s.state.cold.handles).toBeLessThanOrEqual(3490 - 1024);
      expect(s.state.events.get('evt_5')?.type).toBe('operation.rejected');
      expect(s.state.events.get('evt_3')?.type).toBe('operation.completed');
      expect(s.state.events.get('evt_11')?.type).toBe('operation.pending');
      expect(s.state.events.get('evt_2100')?.operation_id).toBe('op_2100');
    } finally {
      await s.close();
    }
    const again = await reopened();
    expect(again.s.state.events.get('evt_5')?.type).toBe('operation.rejected');
    expect(again.s.state.events.size).toBe(3490);
    await again.s.close();
  });

  it('a handle replaced while a capture is open is still read by the capture, then let go', () => {
    const f = path.join(dir, 'texts');
    fs.writeFileSync(f, '{"id":"a","n":1}{"id":"b","n":2}');
    const cold = new ColdTexts();
    const n = cold.addFile(fs.openSync(f, 'r'), f);
    const m = new PackedMap<Entity>(10, 10);
    m.cold = cold;
    m.setText('a', cold.add(n, 0, 16));
    m.setText('b', cold.add(n, 16, 16));
    const overlay = m.capture();
    m.set('a', { id: 'a', n: 3 });
    expect(m.textOf(overlay.get('a')!)).toBe('{"id":"a","n":1}');
    expect(cold.handles).toBe(2);
    m.release(overlay);
    expect(cold.handles).toBe(1);
    expect(m.get('b')).toEqual({ id: 'b', n: 2 });
    cold.clear();
  });
});
