// The group writer pipelined (issue 29, `depth` 2: what the PostgreSQL store uses): the next group is sent while one
// is in flight; groups settle in order whatever order their writes answer in; a failed group takes back every group
// sent after it even if that one's write answered "written" (it was planned on top of the failed one); a step waits
// until nothing is in flight; after a failure nothing new is sent until the groups in flight have all answered.
import { describe, expect, it } from 'vitest';
import { GroupWriter } from '../../src/store/group-writer.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import type { Change } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';

const turn = () => new Promise<void>((r) => setImmediate(r));

/** A pipelining persistence whose group writes answer only when the test says so. */
class ManualPersistence extends FailingPersistence {
  readonly pipelineDepth = 2;
  readonly calls: { ok(): void; fail(e: Error): void }[] = [];
  override writeGroup(changes: readonly Change[]): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      this.calls.push({ ok: () => void super.writeGroup(changes).then(resolve, reject), fail: reject }),
    );
  }
}

/** A writer whose writes answer only when the test says so. */
function manual(depth = 2) {
  const writes: { items: number[]; ok(): void; fail(e: Error): void }[] = [];
  const settled: { items: number[]; error: unknown }[] = [];
  const w = new GroupWriter<number>({
    maxGroup: 4,
    maxQueued: 100,
    cascade: true,
    depth: () => depth,
    write: (g) => new Promise<void>((resolve, reject) => writes.push({ items: [...g], ok: resolve, fail: reject })),
    settle: (items, error) => void settled.push({ items: [...items], error }),
  });
  return { w, writes, settled };
}

describe('GroupWriter, pipelined (depth 2)', () => {
  it('sends the next group while one is in flight, never more than depth, and settles them in order', async () => {
    const { w, writes, settled } = manual();
    w.submit(1);
    await turn();
    w.submit(2);
    await turn();
    w.submit(3);
    await turn();
    expect(writes.map((x) => x.items)).toEqual([[1], [2]]); // 3 waits: two groups in flight
    writes[1]!.ok(); // the second answers first: it waits for the first
    await turn();
    expect(settled).toEqual([]);
    writes[0]!.ok();
    await turn();
    expect(settled.map((s) => s.items)).toEqual([[1], [2]]);
    expect(writes.map((x) => x.items)).toEqual([[1], [2], [3]]);
    writes[2]!.ok();
    await w.sync();
    expect(settled.map((s) => [s.items, s.error])).toEqual([
      [[1], undefined],
      [[2], undefined],
      [[3], undefined],
    ]);
  });

  it('a group in flight that fails takes back the group sent after it, even if that one answered written', async () => {
    const { w, writes, settled } = manual();
    w.submit(1);
    await turn();
    w.submit(2); // built and sent while 1 is in flight
    await turn();
    w.submit(3); // queued
    await turn();
    expect(writes.map((x) => x.items)).toEqual([[1], [2]]);
    writes[1]!.ok();
    const boom = new Error('the first group failed');
    writes[0]!.fail(boom);
    await w.sync();
    expect(settled).toEqual([{ items: [1, 2, 3], error: boom }]);
    expect(w.idle).toBe(true);
    // Then it goes on: a new group is sent alone.
    w.submit(4);
    await turn();
    expect(writes.map((x) => x.items)).toEqual([[1], [2], [4]]);
    writes[2]!.ok();
    await w.sync();
    expect(settled.at(-1)).toEqual({ items: [4], error: undefined });
  });

  it('after a failure sends nothing new until the groups sent after it have answered', async () => {
    const { w, writes, settled } = manual();
    w.submit(1);
    await turn();
    w.submit(2);
    await turn();
    writes[0]!.fail(new Error('no'));
    await turn();
    expect(settled.map((s) => s.items)).toEqual([[1, 2]]);
    w.submit(3);
    await turn();
    expect(writes.map((x) => x.items)).toEqual([[1], [2]]); // 2's write has not answered yet
    writes[1]!.fail(new Error('chained to a failed group'));
    await turn();
    expect(writes.map((x) => x.items)).toEqual([[1], [2], [3]]);
    expect(settled).toHaveLength(1); // 2's own answer is ignored: it was settled with 1
    writes[2]!.ok();
    await w.sync();
    expect(settled.map((s) => s.items)).toEqual([[1, 2], [3]]);
  });

  it('runs a step only once nothing is in flight', async () => {
    const { w, writes } = manual();
    const order: string[] = [];
    w.submit(1);
    await turn();
    const step = w.run(async () => void order.push('step'));
    w.submit(2);
    await turn();
    expect(order).toEqual([]);
    expect(writes.map((x) => x.items)).toEqual([[1]]); // 2 is behind the step
    writes[0]!.ok();
    await step;
    expect(order).toEqual(['step']);
    await turn();
    expect(writes.map((x) => x.items)).toEqual([[1], [2]]);
    writes[1]!.ok();
    await w.sync();
  });

  it('through the Store: a failed group in flight takes back the one sent after it; neither is shown', async () => {
    const persistence = new ManualPersistence(new MemoryPersistence());
    const store = new Store(persistence);
    await store.open();
    const a = store.commit([{ kind: 'meta', meta: { id: 'a', n: 1 } }]);
    await turn();
    const b = store.commit([{ kind: 'meta', meta: { id: 'b', n: 2 } }]);
    await turn();
    expect(persistence.calls).toHaveLength(2); // b's group was sent while a's was in flight
    expect(store.durable('meta', 'b', store.state.meta.get('b'))).toBeUndefined(); // not shown as written
    persistence.calls[1]!.ok();
    persistence.calls[0]!.fail(new Error('write failed'));
    await expect(a).rejects.toThrow('write failed');
    await expect(b).rejects.toThrow('write failed');
    expect(store.state.meta.get('a')).toBeUndefined();
    expect(store.state.meta.get('b')).toBeUndefined();
  });
});
