// A standby keeps the state warm while it waits: it reads the snapshot once, then only the journal rows after it, and
// reads the snapshot again when the active process compacted past it. Taking over, it has every committed change.
import { afterEach, expect, it } from 'vitest';
import type { Change } from '../../src/store/persistence.js';
import { PostgresBackend } from '../../src/store/postgres/backend.js';
import { killLeaseHolder, pgDescribe, useCluster } from './fixture.js';

const cluster = useCluster();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => {});
});
const op = (id: string): Change => ({ c: 'operations', v: { id } });

/** Resolves once `cond()` holds, checking on every turn of the event loop's timers. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

pgDescribe('warm standby', () => {
  it('follows the journal and compactions while waiting; takes over with every committed change, in order', async () => {
    const url = await cluster.get().createDatabase();
    const a = new PostgresBackend({ url });
    const b = new PostgresBackend({ url, pollMs: 10 });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const pa = a.workspace('default').persistence;
    await pa.open();
    for (let i = 1; i <= 5; i++) await pa.commit([op(`a${i}`)]);
    await pa.compact({ operations: [1, 2, 3, 4, 5].map((i) => ({ id: `a${i}` })) });
    await pa.commit([op('a6')]);

    const taking = b.waitForLease(undefined, ['default'], 0);
    await until(() => b.warmedUpTo('default') === 6);
    await pa.commit([op('a7'), op('a1')]); // a1 rewritten: stays first (first appearance)
    await until(() => b.warmedUpTo('default') === 7);
    await pa.compact({ operations: [1, 2, 3, 4, 5, 6, 7].map((i) => ({ id: `a${i}` })) }); // past the warm copy
    await pa.commit([op('a8')]);
    await until(() => b.warmedUpTo('default') === 8);
    await pa.commit([op('a9')]);

    expect(await killLeaseHolder(url)).toBe(1);
    await taking;
    const pb = b.workspace('default').persistence;
    closers.push(() => pb.close());
    const all = await pb.open();
    expect(all.operations!.map((e) => e.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9']);
    expect(b.warmedUpTo('default')).toBeUndefined(); // handed over once
    await pb.commit([op('b1')]);
  });
});
