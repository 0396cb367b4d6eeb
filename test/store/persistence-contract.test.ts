// The persistence contract every durable backend keeps, run against the file store and PostgreSQL: round trips
// (last write wins, first-appearance order), serialization at commit time, durability without close (a new owner
// after a crash has every acknowledged commit), group commit, compaction, ownership, bad input; and the backend's
// side: receipt files, secrets and workspaces that are dropped one at a time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FileBackend, type StoreBackend } from '../../src/store/backend.js';
import { StoreClosedError } from '../../src/store/errors.js';
import type { Change, Persistence } from '../../src/store/persistence.js';
import { PostgresBackend } from '../../src/store/postgres/backend.js';
import { killWriterSessions, missing, useCluster } from '../postgres/fixture.js';

interface Subject {
  name: string;
  /** A fresh, empty store; returns a way to open handles on it as another process would. */
  fresh(): Promise<{ backend(): StoreBackend; crash(b: StoreBackend): Promise<void> }>;
}

const cluster = useCluster();
const backends: StoreBackend[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close().catch(() => {});
});
afterAll(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const fileSubject: Subject = {
  name: 'file',
  async fresh() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-contract-'));
    dirs.push(dir);
    const store = path.join(dir, 'sandbox.json');
    return {
      backend: () => new FileBackend({ path: store }),
      // A dead process leaves its lock behind: the next owner takes it over.
      crash: async (b) =>
        fs.writeFileSync(`${(b as FileBackend).pathOf('default')}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345 })),
    };
  },
};

const pgSubject: Subject = {
  name: 'postgres',
  async fresh() {
    const url = await cluster.get().createDatabase();
    return {
      backend: () => {
        const b = new PostgresBackend({ url });
        backends.push(b);
        return b;
      },
      // The writer's session ends as when its process dies: the lease goes with it.
      crash: async (b) => {
        const lost = new Promise<void>((r) => (b as PostgresBackend).onLost(() => r()));
        expect(await killWriterSessions(url)).toBeGreaterThan(0);
        await lost;
      },
    };
  },
};

const subjects = missing ? [fileSubject] : [fileSubject, pgSubject];
const op = (id: string, extra: Record<string, unknown> = {}): Change => ({ c: 'operations', v: { id, ...extra } });

describe.each(subjects)('persistence contract: $name', (subject) => {
  const owned: Persistence[] = [];
  afterEach(async () => {
    for (const p of owned.splice(0)) await p.close().catch(() => {});
  });
  const open = (b: StoreBackend, ws = 'default') => {
    const p = b.workspace(ws).persistence;
    owned.push(p);
    return p;
  };

  it('round trip: last write wins, first-appearance order, every collection', async () => {
    const s = await subject.fresh();
    const p = open(s.backend());
    expect(await p.open()).toEqual({});
    await p.commit([op('a', { n: 1 }), op('b', { n: 1 })]);
    await p.commit([{ c: 'postings', v: { id: 'p1', amount: '10.00', note: 'é😀' } }]);
    await p.commit([op('c', { n: 1 }), op('a', { n: 2 })]);
    await p.commit([op('b', { n: 3, gone: undefined })]);
    await p.close();
    const all = await open(s.backend()).open();
    expect(all.operations).toEqual([
      { id: 'a', n: 2 },
      { id: 'b', n: 3 },
      { id: 'c', n: 1 },
    ]);
    expect(all.postings).toEqual([{ id: 'p1', amount: '10.00', note: 'é😀' }]);
    expect(Object.keys(all).sort()).toEqual(['operations', 'postings']);
  });

  it('close(all) keeps exactly that state', async () => {
    const s = await subject.fresh();
    const p = open(s.backend());
    await p.open();
    await p.commit([op('a')]);
    await p.close({ operations: [{ id: 'a' }], keys: [{ id: 'k1', hash: 'h' }] });
    expect(await open(s.backend()).open()).toEqual({ operations: [{ id: 'a' }], keys: [{ id: 'k1', hash: 'h' }] });
  });

  it('serializes at commit time: mutating the objects afterwards changes nothing', async () => {
    const s = await subject.fresh();
    const first = s.backend();
    const p = open(first);
    await p.open();
    const v = { id: 'a', n: 1 };
    const done = p.commit([{ c: 'operations', v }]);
    v.n = 2;
    await done;
    await s.crash(first);
    expect((await open(s.backend()).open()).operations).toEqual([{ id: 'a', n: 1 }]);
  });

  it('every acknowledged commit survives a crash of its owner; the new owner continues after it', async () => {
    const s = await subject.fresh();
    const first = s.backend();
    const p = open(first);
    await p.open();
    const acked: string[] = [];
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => p.commit([op(`o${i}`, { i })]).then(() => void acked.push(`o${i}`))),
    );
    await s.crash(first);
    const q = open(s.backend());
    const all = await q.open();
    expect(all.operations!.map((e) => e.id).sort()).toEqual(acked.sort());
    await q.commit([op('after')]);
    await q.close();
    expect((await open(s.backend()).open()).operations).toHaveLength(51);
  });

  it('a second owner is refused while the first has the store open (store_locked), and welcome after close', async () => {
    const s = await subject.fresh();
    const p = open(s.backend());
    await p.open();
    await p.commit([op('a')]);
    await expect(open(s.backend()).open()).rejects.toMatchObject({ code: 'store_locked' });
    await p.close();
    expect((await open(s.backend()).open()).operations).toEqual([{ id: 'a' }]);
  });

  it('group commit: 200 commits issued together share a few writes, all kept in order', async () => {
    const s = await subject.fresh();
    const p = open(s.backend());
    await p.open();
    await Promise.all(Array.from({ length: 200 }, (_, i) => p.commit([op(`op_${i}`, { i })])));
    expect(p.stats.commits).toBe(200);
    expect(p.stats.flushes).toBeLessThan(20);
    await p.close();
    expect((await open(s.backend()).open()).operations!.map((e) => e.id)).toEqual(
      Array.from({ length: 200 }, (_, i) => `op_${i}`),
    );
  });

  it('compaction empties the journal, keeps everything, and commits issued during it are kept', async () => {
    const s = await subject.fresh();
    const first = s.backend();
    const p = open(first);
    await p.open();
    for (let i = 0; i < 5; i++) await p.commit([op(`a${i}`)]);
    expect(p.stats.journalRecords).toBe(5);
    const compacting = p.compact({ operations: Array.from({ length: 5 }, (_, i) => ({ id: `a${i}` })) });
    const during = [p.commit([op('b0')]), p.commit([op('b1')])];
    await Promise.all([compacting, ...during]);
    expect(p.stats.journalRecords).toBe(2);
    await s.crash(first);
    expect((await open(s.backend()).open()).operations!.map((e) => e.id)).toEqual([
      'a0',
      'a1',
      'a2',
      'a3',
      'a4',
      'b0',
      'b1',
    ]);
  });

  it('rejects malformed changes without writing; closed use is StoreClosedError; close is idempotent', async () => {
    const s = await subject.fresh();
    const p = open(s.backend());
    await expect(p.commit([op('x')])).rejects.toBeInstanceOf(StoreClosedError);
    await p.open();
    await expect(p.commit([{ c: '', v: { id: 'a' } }])).rejects.toThrow(TypeError);
    await expect(p.commit([{ c: 'x', v: { id: 7 } as never }])).rejects.toThrow(/string id/);
    await expect(p.commit([{ c: 'x', v: { id: 'a', big: 1n } }])).rejects.toThrow(TypeError);
    await p.commit([]);
    await p.commit([op('ok')]);
    await p.close();
    await p.close();
    await expect(p.commit([op('late')])).rejects.toMatchObject({ code: 'store_closed' });
    expect(await open(s.backend()).open()).toEqual({ operations: [{ id: 'ok' }] });
  });

  it('workspaces are separate: their own entities, files and secrets; drop removes one only', async () => {
    const s = await subject.fresh();
    const b = s.backend();
    const one = b.workspace('ws-one');
    const two = b.workspace('ws-two');
    owned.push(one.persistence, two.persistence);
    await one.persistence.open();
    await two.persistence.open();
    await one.persistence.commit([op('in-one')]);
    await two.persistence.commit([op('in-two')]);
    await one.files.put('f1', new Uint8Array([1, 2, 3]));
    const s1 = await one.secrets();
    const s2 = await two.secrets();
    expect(s1.url.equals(s2.url)).toBe(false);
    expect((await b.workspace('ws-one').secrets()).url.equals(s1.url)).toBe(true);
    expect(await two.files.get('f1')).toBeUndefined();
    expect([...(await one.files.get('f1'))!]).toEqual([1, 2, 3]);
    await one.persistence.close();
    await two.persistence.close();
    await b.drop('ws-one');
    await expect(b.drop('default')).rejects.toThrow(/default workspace/);
    const again = s.backend();
    const reone = again.workspace('ws-one');
    const retwo = again.workspace('ws-two');
    owned.push(reone.persistence, retwo.persistence);
    expect(await reone.persistence.open()).toEqual({});
    expect(await reone.files.get('f1')).toBeUndefined();
    expect(await retwo.persistence.open()).toEqual({ operations: [{ id: 'in-two' }] });
    expect((await again.workspace('ws-two').secrets()).url.equals(s2.url)).toBe(true);
  });
});
