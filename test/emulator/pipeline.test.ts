// The write pipeline (src/emulator/runtime/pipeline.ts), top to bottom: admit → extend → write → subscribers. A
// refusal at the admit stage writes nothing and extends nothing; the extension's records ride in the same
// transaction; the subscribers run in their given order once written, before the write's caller resumes, and one
// that throws does not keep the others from running.
import { describe, expect, it } from 'vitest';
import { LiveFeed, WritePipeline, type Written } from '../../src/emulator/runtime/pipeline.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import type { StoreChange } from '../../src/store/state.js';
import { Store } from '../../src/store/store.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';

const meta = (id: string): StoreChange => ({ kind: 'meta', meta: { id } });

async function openStore(p = new MemoryPersistence()) {
  const store = new Store(p);
  await store.open();
  return store;
}

describe('WritePipeline', () => {
  it('runs admit, extend, write, then the subscribers in order, before the caller resumes', async () => {
    const store = await openStore();
    const seen: string[] = [];
    const live = new LiveFeed();
    live.add((changes) => seen.push(`live ${changes.length}`));
    const pipeline = new WritePipeline({
      store,
      admission: [{ admit: (c) => void seen.push(`admit ${c.length}`) }],
      extension: {
        extend: (c) => {
          seen.push(`extend ${c.length}`);
          return [meta('extra')];
        },
      },
      subscribers: [
        (w: Written) => seen.push(`first ${w.extra.length} written=${store.state.meta.has('extra')}`),
        () => {
          throw new Error('a broken subscriber');
        },
        live.subscriber,
        (w) => seen.push(`effects ${w.effects.length}`),
      ],
    });
    const errors: unknown[] = [];
    const onError = (e: unknown) => errors.push(e);
    process.on('uncaughtException', onError);
    try {
      await pipeline.write([meta('a')], [{ kind: 'resolve_admission', operation_id: 'op' }] as never);
      seen.push('resumed');
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(seen).toEqual(['admit 1', 'extend 1', 'first 1 written=true', 'live 1', 'effects 1', 'resumed']);
    expect(errors).toHaveLength(1);
    expect(store.state.meta.has('a')).toBe(true);
    await store.close();
  });

  it('a refusal at the admit stage writes nothing, extends nothing and tells no subscriber', async () => {
    const p = new FailingPersistence(new MemoryPersistence());
    const store = await openStore(p as never);
    let extended = 0;
    let told = 0;
    const pipeline = new WritePipeline({
      store,
      admission: [
        {
          admit: () => {
            throw new Error('over the limit');
          },
        },
      ],
      extension: { extend: () => (extended++, []) },
      subscribers: [() => told++],
    });
    await expect(pipeline.write([meta('a')])).rejects.toThrow('over the limit');
    await store.sync();
    expect([extended, told, p.written.length, store.state.meta.has('a')]).toEqual([0, 0, 0, false]);
    await store.close();
  });

  it('a failed write rejects with the store error and tells no subscriber', async () => {
    const p = new FailingPersistence(new MemoryPersistence());
    const store = await openStore(p as never);
    let told = 0;
    const pipeline = new WritePipeline({
      store,
      admission: [],
      extension: { extend: () => [meta('extra')] },
      subscribers: [() => told++],
    });
    p.failNext(1);
    await expect(pipeline.write([meta('a')])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect([told, store.state.meta.has('a'), store.state.meta.has('extra')]).toEqual([0, false, false]);
    await store.close();
  });
});
