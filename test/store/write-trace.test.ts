// The write path's trace (src/store/write-trace.ts): with a subscriber on its diagnostics channels, every group the
// Store writes is reported (transactions, changes, wait, serializing, write time) and every journal append of a file
// store (bytes, write, fdatasync); test/bench/probe.cjs builds the benchmarks' breakdown of a tail from them.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FilePersistence } from '../../src/store/file-persistence.js';
import { Store } from '../../src/store/store.js';
import type { GroupTrace, JournalTrace } from '../../src/store/write-trace.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the write trace', () => {
  it.each([false, true])('reports each group write and each journal append (fsync %s)', async (fsync) => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-trace-'));
    dirs.push(dir);
    const groups: GroupTrace[] = [];
    const appends: JournalTrace[] = [];
    const onGroup = (m: unknown) => groups.push(m as GroupTrace);
    const onAppend = (m: unknown) => appends.push(m as JournalTrace);
    subscribe('paygate:store.group', onGroup);
    subscribe('paygate:store.journal', onAppend);
    const store = new Store(new FilePersistence({ path: join(dir, 'sandbox.json'), fsync }));
    try {
      await store.open();
      // Three commits in one turn: one group; then one alone: a second group.
      await Promise.all([0, 1, 2].map((i) => store.commit([{ kind: 'meta', meta: { id: `m${i}`, n: i } }])));
      await store.commit([{ kind: 'meta', meta: { id: 'm3', n: 3 } }]);
    } finally {
      unsubscribe('paygate:store.group', onGroup);
      unsubscribe('paygate:store.journal', onAppend);
      await store.close();
    }
    expect(groups.map((g) => [g.transactions, g.changes, g.failed])).toEqual([
      [3, 3, false],
      [1, 1, false],
    ]);
    for (const g of groups) {
      for (const k of ['waited_ms', 'encode_ms', 'written_ms'] as const) expect(g[k]).toBeGreaterThanOrEqual(0);
    }
    expect(appends).toHaveLength(2);
    expect(appends[0]!.bytes).toBeGreaterThan(appends[1]!.bytes);
    for (const a of appends) {
      expect(a.write_ms).toBeGreaterThanOrEqual(0);
      expect(a.sync_ms).toBeGreaterThanOrEqual(0);
      expect(a.fsync).toBe(fsync);
    }
  });
});
