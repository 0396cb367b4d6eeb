// The one group-commit writer (src/store/group-writer.ts): the items of one turn go out in one write, groups are
// bounded and never empty, steps run alone in order, a full queue refuses at once, and with `cascade` a failed group
// takes back everything queued behind it. Through the Store there is one gathering turn, not two: a transaction
// reaches the backend's writeGroup in the turn after it was committed.
import { describe, expect, it } from 'vitest';
import { GroupWriter, GroupWriterFullError } from '../../src/store/group-writer.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import type { Change } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';

const turn = () => new Promise<void>((r) => setImmediate(r));

function recorder(
  opts: { maxGroup?: number; maxQueued?: number; cascade?: boolean; fail?: (g: readonly number[]) => boolean } = {},
) {
  const writes: number[][] = [];
  const settled: { items: number[]; error: unknown }[] = [];
  const w = new GroupWriter<number>({
    maxGroup: opts.maxGroup ?? 4,
    maxQueued: opts.maxQueued ?? 100,
    cascade: opts.cascade,
    write: async (g) => {
      writes.push([...g]);
      if (opts.fail?.(g)) throw new Error('disk full');
    },
    settle: (items, error) => void settled.push({ items: [...items], error }),
  });
  return { w, writes, settled };
}

describe('GroupWriter', () => {
  it('gathers one turn into groups of at most maxGroup, in order, and sync() waits for them', async () => {
    const { w, writes } = recorder({ maxGroup: 4 });
    for (let i = 0; i < 10; i++) w.submit(i);
    expect(writes).toEqual([]); // nothing before the turn ends
    await w.sync();
    expect(writes).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9],
    ]);
    expect(w.idle).toBe(true);
  });

  it('runs a step alone between the items before and after it', async () => {
    const { w, writes } = recorder();
    const seen: string[] = [];
    w.submit(1);
    const step = w.run(async () => void seen.push(`step after ${writes.flat().join(',')}`));
    w.submit(2);
    await step;
    await w.sync();
    expect(seen).toEqual(['step after 1']);
    expect(writes).toEqual([[1], [2]]);
  });

  it('refuses a submit beyond maxQueued at once, queueing nothing', async () => {
    const { w, writes } = recorder({ maxGroup: 2, maxQueued: 3 });
    w.submit(1);
    w.submit(2);
    w.submit(3);
    expect(() => w.submit(4)).toThrow(GroupWriterFullError);
    expect(w.pending).toBe(3);
    await w.sync();
    expect(writes.flat()).toEqual([1, 2, 3]);
    w.submit(5); // room again
    await w.sync();
    expect(writes.flat()).toEqual([1, 2, 3, 5]);
  });

  it('with cascade, a failed group settles together with everything queued behind it', async () => {
    const { w, settled } = recorder({ maxGroup: 2, cascade: true, fail: (g) => g.includes(1) });
    for (let i = 0; i < 5; i++) w.submit(i);
    await w.sync();
    expect(settled).toHaveLength(1);
    expect(settled[0]!.items).toEqual([0, 1, 2, 3, 4]);
    expect(String(settled[0]!.error)).toContain('disk full');
  });

  it('without cascade, each group settles alone', async () => {
    const { w, settled } = recorder({ maxGroup: 2, fail: (g) => g.includes(1) });
    for (let i = 0; i < 4; i++) w.submit(i);
    await w.sync();
    expect(settled.map((s) => [s.items, s.error === undefined])).toEqual([
      [[0, 1], false],
      [[2, 3], true],
    ]);
  });
});

describe('the Store writes through one gathering turn', () => {
  it("a commit reaches the backend's writeGroup after one turn, as one group with the others of its turn", async () => {
    const groups: Change[][] = [];
    const p = new (class extends MemoryPersistence {
      override writeGroup(changes: readonly Change[]): Promise<void> {
        groups.push([...changes]);
        return super.writeGroup(changes);
      }
    })();
    const store = new Store(p);
    await store.open();
    const done = [
      store.commit([{ kind: 'meta', meta: { id: 'a' } }]),
      store.commit([{ kind: 'meta', meta: { id: 'b' } }]),
    ];
    await turn();
    expect(groups.map((g) => g.map((c) => c.v.id))).toEqual([['a', 'b']]);
    await Promise.all(done);
    await store.close();
  });
});

describe("the Store's bound", () => {
  it('a commit beyond MAX_QUEUED waiting transactions is refused at once and changes nothing', async () => {
    const { MAX_QUEUED } = await import('../../src/store/store.js');
    const store = new Store(new MemoryPersistence());
    await store.open();
    const queued = Array.from({ length: MAX_QUEUED }, (_, i) =>
      store.commit([{ kind: 'meta', meta: { id: `m${i}` } }]),
    );
    const refused = await store.commit([{ kind: 'meta', meta: { id: 'one-too-many' } }]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GroupWriterFullError);
    expect(store.state.meta.has('one-too-many')).toBe(false);
    await Promise.all(queued);
    expect(store.state.meta.size).toBe(MAX_QUEUED);
    await store.close();
  });
});
