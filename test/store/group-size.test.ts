// A group write carries at most 256 transactions: thousands queued at once (a pool layout) go out in several
// writes, in order, so no one write serializes them all while every other request waits.
import { describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import { Store } from '../../src/store/store.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';

describe('group writes', () => {
  it('split 1,000 queued transactions into writes of at most 256, in commit order', async () => {
    const persistence = new FailingPersistence(new MemoryPersistence());
    const store = new Store(persistence);
    await store.open();
    const done = Array.from({ length: 1000 }, (_, i) => store.commit([{ kind: 'meta', meta: { id: `m${i}`, n: i } }]));
    await Promise.all(done);
    const sizes = persistence.written.map((w) => w.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(256);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(persistence.written.flat().map((c) => c.v.id)).toEqual(Array.from({ length: 1000 }, (_, i) => `m${i}`));
    await store.close();
  });
});
