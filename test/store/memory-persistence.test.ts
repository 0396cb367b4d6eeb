// MemoryPersistence: keeps nothing, commits resolve at once, open() starts from the optional initial set.
import { describe, expect, it } from 'vitest';
import { StoreClosedError } from '../../src/store/errors.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import type { Persistence } from '../../src/store/persistence.js';

describe('MemoryPersistence', () => {
  it('opens empty, accepts commits, keeps nothing across open()', async () => {
    const p: Persistence = new MemoryPersistence();
    expect(await p.open()).toEqual({});
    await p.commit([{ c: 'operations', v: { id: 'a' } }]);
    await p.sync();
    await p.compact({ operations: [{ id: 'a' }] });
    expect(p.stats).toEqual({ commits: 1, flushes: 0, journalRecords: 0 });
    await p.close();
    await p.close();
    expect(await p.open()).toEqual({});
  });

  it('returns a fresh copy of the initial set on every open()', async () => {
    const initial = { keys: [{ id: 'k1', label: 'demo' }] };
    const p = new MemoryPersistence(initial);
    const first = await p.open();
    expect(first).toEqual(initial);
    first.keys![0]!.label = 'changed';
    initial.keys[0]!.label = 'changed too';
    await p.close();
    expect(await p.open()).toEqual({ keys: [{ id: 'k1', label: 'demo' }] });
  });

  it('commit resolves without waiting for I/O (same microtask queue)', async () => {
    const p = new MemoryPersistence();
    await p.open();
    let done = false;
    const c = p.commit([{ c: 'x', v: { id: '1' } }]).then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(true);
    await c;
  });

  it('rejects malformed changes and use when not open', async () => {
    const p = new MemoryPersistence();
    await expect(p.commit([{ c: 'x', v: { id: '1' } }])).rejects.toBeInstanceOf(StoreClosedError);
    await p.open();
    await expect(p.commit([{ c: 'x', v: {} as never }])).rejects.toThrow(TypeError);
    await p.close();
    await expect(p.sync()).rejects.toMatchObject({ code: 'store_closed' });
  });
});
