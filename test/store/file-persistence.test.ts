// FilePersistence: round trips, durability without close, torn and corrupt files, the lock, group commit,
// compaction, and write failures.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreClosedError, StoreCorruptError, StoreFailedError, StoreLockedError } from '../../src/store/errors.js';
import { FilePersistence, replayJournal, type FilePersistenceOptions } from '../../src/store/file-persistence.js';
import type { Change, Collections, Entity } from '../../src/store/persistence.js';
import { parseSnapshot, toCollections, type EntityMaps } from '../../src/store/snapshot.js';

/** A snapshot file read back as one document (version 2 is JSON Lines). */
function readSnapshot(file: string): { format: string; version: number; lastSeq: number; collections: Collections } {
  const text = fs.readFileSync(file, 'utf8');
  const maps: EntityMaps = new Map();
  const lastSeq = parseSnapshot(text, file, maps);
  const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { format: string; version: number };
  return { format: header.format, version: header.version, lastSeq, collections: toCollections(maps) };
}

const DEAD_PID = 2 ** 22 + 12345; // above Linux's pid_max ceiling: never a live process

let dir: string;
let opened: FilePersistence[];

beforeEach(() => {
  dir = fs.mkdtempSync(`${os.tmpdir()}/paygate-store-`);
  opened = [];
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const p of opened) await p.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

function store(opts: Partial<FilePersistenceOptions> = {}): FilePersistence {
  const p = new FilePersistence({ path: path.join(dir, '.paygate', 'sandbox.json'), ...opts });
  opened.push(p);
  return p;
}

const op = (id: string, extra: Record<string, unknown> = {}): Change => ({ c: 'operations', v: { id, ...extra } });
const readJournal = (p: FilePersistence) => fs.readFileSync(p.journalPath, 'utf8');
const journalLines = (p: FilePersistence) =>
  readJournal(p)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { seq: number; ch: Change[] });

/** A FileHandle's prototype, to make write/datasync fail on demand. */
async function fileHandleProto(): Promise<{
  write: (...a: unknown[]) => Promise<{ bytesWritten: number }>;
  datasync: () => Promise<void>;
}> {
  const fh = await fsp.open(path.join(dir, 'probe'), 'w');
  await fh.close();
  return Object.getPrototypeOf(fh);
}

describe('round trip', () => {
  it('returns committed entities after close and reopen: last write wins, first-appearance order', async () => {
    const p = store();
    expect(await p.open()).toEqual({});
    await p.commit([op('a', { n: 1 }), op('b', { n: 1 })]);
    await p.commit([{ c: 'postings', v: { id: 'p1', amount: '10.00' } }]);
    await p.commit([op('c', { n: 1 }), op('a', { n: 2 })]);
    await p.commit([op('b', { n: 3 })]);
    await p.close();

    const q = store();
    const all = await q.open();
    expect(all.operations).toEqual([
      { id: 'a', n: 2 },
      { id: 'b', n: 3 },
      { id: 'c', n: 1 },
    ]);
    expect(all.postings).toEqual([{ id: 'p1', amount: '10.00' }]);
    expect(Object.keys(all)).toEqual(['operations', 'postings']);
  });

  it('close(all) writes a snapshot with that state and empties the journal', async () => {
    const p = store();
    await p.open();
    await p.commit([op('a')]);
    await p.close({ operations: [{ id: 'a' }], keys: [{ id: 'k1', hash: 'h' }] });
    expect(fs.statSync(p.journalPath).size).toBe(0);
    const doc = readSnapshot(p.path);
    expect(doc).toMatchObject({ format: 'paygate-store', version: 3, lastSeq: 1 });
    expect(await store().open()).toEqual({ operations: [{ id: 'a' }], keys: [{ id: 'k1', hash: 'h' }] });
  });

  it('an empty store creates no snapshot, and close releases the lock', async () => {
    const p = store();
    await p.open();
    expect(fs.existsSync(p.lockPath)).toBe(true);
    expect(JSON.parse(fs.readFileSync(p.lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await p.close();
    expect(fs.existsSync(p.path)).toBe(false);
    expect(fs.existsSync(p.lockPath)).toBe(false);
    await p.close(); // idempotent
    expect(await store().open()).toEqual({});
  });

  it('serializes at commit time: mutating the objects afterwards changes nothing', async () => {
    const p = store();
    await p.open();
    const v: Entity = { id: 'a', status: 'new' };
    const done = p.commit([{ c: 'operations', v }]);
    v.status = 'mutated';
    await done;
    await p.close();
    expect((await store().open()).operations).toEqual([{ id: 'a', status: 'new' }]);
  });
});

describe('durability', () => {
  it('an awaited commit is in the journal file, and a new owner after a dead one loads it', async () => {
    const p = store();
    await p.open();
    await p.commit([op('a', { amount: '1.00' })]);
    // no close: read what is on disk now
    expect(journalLines(p)).toEqual([{ seq: 1, ch: [op('a', { amount: '1.00' })] }]);

    // the owner "dies" (SIGKILL): its lock stays behind with a pid that no longer exists
    fs.writeFileSync(p.lockPath, JSON.stringify({ pid: DEAD_PID, startedAt: new Date().toISOString() }));
    const q = store();
    expect(await q.open()).toEqual({ operations: [{ id: 'a', amount: '1.00' }] });
    expect(JSON.parse(fs.readFileSync(q.lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a commit never resolves before its bytes are in the file', async () => {
    const p = store();
    await p.open();
    const seen: boolean[] = [];
    const all: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      all.push(p.commit([op(`op_${i}`)]).then(() => void seen.push(readJournal(p).includes(`"id":"op_${i}"`))));
      if (i % 7 === 0) await new Promise((r) => setImmediate(r)); // let some writes start in between
    }
    await Promise.all(all);
    expect(seen).toHaveLength(60);
    expect(seen.every(Boolean)).toBe(true);
  });

  it('sync() resolves once everything committed before it is in the file', async () => {
    const p = store();
    await p.open();
    for (let i = 0; i < 10; i++) void p.commit([op(`s${i}`)]);
    await p.sync();
    expect(journalLines(p)).toHaveLength(10);
    await p.sync(); // idle: resolves at once
  });
});

describe('torn and corrupt journal', () => {
  const line = (seq: number, id: string, n = seq) => `${JSON.stringify({ seq, ch: [op(id, { n })] })}\n`;

  function writeJournal(p: FilePersistence, text: string | Buffer): Buffer {
    fs.mkdirSync(path.dirname(p.journalPath), { recursive: true });
    fs.writeFileSync(p.journalPath, text);
    return fs.readFileSync(p.journalPath);
  }

  it('drops an incomplete final line and truncates the file to the last newline', async () => {
    const p = store({ compactOnOpen: false });
    const good = line(1, 'a') + line(2, 'b');
    writeJournal(p, `${good}{"seq":3,"ch":[{"c":"operations","v":{"id":"c"`);
    expect(await p.open()).toEqual({
      operations: [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ],
    });
    expect(readJournal(p)).toBe(good);
    expect(p.stats.journalRecords).toBe(2);
    await p.commit([op('d')]); // appends on a clean line boundary, seq continues after the last good one
    expect(journalLines(p).map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it('a torn tail is cut off before new appends: after a second restart every line is whole and in order', async () => {
    const p = store({ compactOnOpen: false });
    writeJournal(p, `${line(1, 'a')}{"seq":2,"ch":[{"c":"oper`);
    await p.open();
    await p.commit([op('b')]);
    await p.commit([op('c')]);
    await p.close(); // no state given: no compaction, the journal stays as written
    expect(readJournal(p)).toBe(
      `${line(1, 'a')}${JSON.stringify({ seq: 2, ch: [op('b')] })}\n${JSON.stringify({ seq: 3, ch: [op('c')] })}\n`,
    );
    const q = store({ compactOnOpen: false });
    expect(await q.open()).toEqual({ operations: [{ id: 'a', n: 1 }, { id: 'b' }, { id: 'c' }] });
  });

  it('a complete (newline-terminated) last line that does not parse is corruption, not a torn write: named, file unchanged', async () => {
    const p = store();
    const before = writeJournal(p, `${line(1, 'a')}${line(2, 'b')}\u0000\u0000{"seq":3,"ch":[\n`);
    const e = (await p.open().catch((x: unknown) => x)) as StoreCorruptError;
    expect(e).toBeInstanceOf(StoreCorruptError);
    expect(e).toMatchObject({ code: 'store_corrupt', file: p.journalPath, line: 3 });
    expect(e.message).toContain(`${p.journalPath} at line 3`);
    expect(e.reason).toMatch(/not valid JSON \(.+\)/);
    expect(fs.readFileSync(p.journalPath).equals(before)).toBe(true);
    expect(fs.existsSync(p.path)).toBe(false);
    expect(fs.existsSync(p.lockPath)).toBe(false);
  });

  it('a missing middle line (a gap in seq) is corruption naming the missing seq; the file is unchanged', async () => {
    const p = store();
    const before = writeJournal(p, line(1, 'a') + line(2, 'b') + line(4, 'd') + line(5, 'e'));
    const e = (await p.open().catch((x: unknown) => x)) as StoreCorruptError;
    expect(e).toBeInstanceOf(StoreCorruptError);
    expect(e).toMatchObject({ code: 'store_corrupt', file: p.journalPath, line: 3 });
    expect(e.reason).toBe('"seq" jumps from 2 to 4: the line with seq 3 is missing');
    expect(e.message).toContain(`${p.journalPath} at line 3`);
    expect(fs.readFileSync(p.journalPath).equals(before)).toBe(true);
    expect(fs.existsSync(p.path)).toBe(false);

    const q = store();
    writeJournal(q, line(1, 'a') + line(5, 'e'));
    await expect(q.open()).rejects.toMatchObject({
      line: 2,
      reason: '"seq" jumps from 1 to 5: the lines with seq 2 to 4 are missing',
    });
  });

  it("a first new record that does not follow the snapshot's lastSeq is a gap too", async () => {
    const p = store();
    fs.mkdirSync(path.dirname(p.path), { recursive: true });
    fs.writeFileSync(
      p.path,
      JSON.stringify({ format: 'paygate-store', version: 1, lastSeq: 2, collections: { operations: [{ id: 'a' }] } }),
    );
    const before = writeJournal(p, line(4, 'd'));
    await expect(p.open()).rejects.toMatchObject({
      code: 'store_corrupt',
      line: 1,
      reason: '"seq" is 4 but the snapshot ends at seq 2: the line with seq 3 is missing',
    });
    expect(fs.readFileSync(p.journalPath).equals(before)).toBe(true);
  });

  it('with compactOnOpen (the default) the replayed records move into the snapshot and the journal is emptied', async () => {
    const p = store();
    writeJournal(p, `${line(1, 'a')}${line(2, 'b')}{"seq":3,"ch":[`);
    expect((await p.open()).operations).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ]);
    expect(fs.statSync(p.journalPath).size).toBe(0);
    expect(readSnapshot(p.path)).toMatchObject({ lastSeq: 2, collections: { operations: [{ id: 'a' }, { id: 'b' }] } });
    await p.commit([op('c')]);
    expect(journalLines(p).map((r) => r.seq)).toEqual([3]);
  });

  it('a corrupt middle line is a StoreCorruptError with its line number; nothing is written and the lock is released', async () => {
    const p = store();
    const before = writeJournal(p, `${line(1, 'a')}${line(2, 'b')}{"seq":3,"ch":[oops\n${line(4, 'd')}`);
    const err = await p.open().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreCorruptError);
    const e = err as StoreCorruptError;
    expect(e.code).toBe('store_corrupt');
    expect(e.line).toBe(3);
    expect(e.file).toBe(p.journalPath);
    expect(e.message).toContain(`${p.journalPath} at line 3`);
    expect(e.message).toMatch(/not valid JSON \(.+\)/);
    expect(fs.readFileSync(p.journalPath).equals(before)).toBe(true);
    expect(fs.existsSync(p.path)).toBe(false);
    expect(fs.existsSync(p.lockPath)).toBe(false);
    expect(p.isOpen).toBe(false);
    await expect(p.commit([op('x')])).rejects.toBeInstanceOf(StoreClosedError);
  });

  it('a final line with the wrong shape is corruption, not a torn write', async () => {
    const p = store();
    const before = writeJournal(p, `${line(1, 'a')}{"seq":2,"ch":[{"c":"operations","v":{"no_id":true}}]}\n`);
    await expect(p.open()).rejects.toMatchObject({
      code: 'store_corrupt',
      line: 2,
      reason: expect.stringContaining('"id"'),
    });
    expect(fs.readFileSync(p.journalPath).equals(before)).toBe(true);
  });

  it('a seq that goes backwards is corruption', async () => {
    const p = store();
    writeJournal(p, `${line(1, 'a')}${line(2, 'b')}${line(1, 'c')}`);
    await expect(p.open()).rejects.toMatchObject({
      code: 'store_corrupt',
      line: 3,
      reason: expect.stringContaining('two writers'),
    });
  });

  it("ignores records at or below the snapshot's lastSeq (a compaction that crashed before truncating the journal)", async () => {
    const p = store({ compactOnOpen: false });
    fs.mkdirSync(path.dirname(p.path), { recursive: true });
    const snapshot = {
      format: 'paygate-store',
      version: 1,
      lastSeq: 2,
      collections: { operations: [{ id: 'a', n: 9 }] },
    };
    fs.writeFileSync(p.path, JSON.stringify(snapshot));
    writeJournal(p, line(1, 'a', 1) + line(2, 'a', 2) + line(3, 'b', 3));
    expect(await p.open()).toEqual({
      operations: [
        { id: 'a', n: 9 },
        { id: 'b', n: 3 },
      ],
    });
    expect(p.seq).toBe(3);
  });

  it('a journal the snapshot fully covers is emptied without rewriting the snapshot', async () => {
    const p = store();
    fs.mkdirSync(path.dirname(p.path), { recursive: true });
    const snapshot = JSON.stringify(
      { format: 'paygate-store', version: 1, lastSeq: 2, collections: { operations: [{ id: 'a', n: 2 }] } },
      null,
      2,
    );
    fs.writeFileSync(p.path, snapshot);
    writeJournal(p, line(1, 'a', 1) + line(2, 'a', 2));
    expect(await p.open()).toEqual({ operations: [{ id: 'a', n: 2 }] });
    expect(fs.readFileSync(p.path, 'utf8')).toBe(snapshot);
    expect(fs.statSync(p.journalPath).size).toBe(0);
    await p.commit([op('b')]);
    expect(journalLines(p).map((r) => r.seq)).toEqual([3]);
  });

  it('replayJournal reports the end of the last good line as a byte offset (multi-byte text)', () => {
    const text = `${line(1, 'é€😀')}${line(2, 'b')}{"seq":3`;
    const colls = new Map();
    const r = replayJournal(Buffer.from(text), 'j', 0, colls);
    expect(r).toEqual({
      goodEnd: Buffer.byteLength(text) - Buffer.byteLength('{"seq":3'),
      records: 2,
      applied: 2,
      maxSeq: 2,
    });
  });
});

describe('corrupt snapshot', () => {
  async function openFails(p: FilePersistence, content: string): Promise<StoreCorruptError> {
    fs.mkdirSync(path.dirname(p.path), { recursive: true });
    fs.writeFileSync(p.path, content);
    const err = await p.open().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect(fs.readFileSync(p.path, 'utf8')).toBe(content); // untouched
    expect(fs.existsSync(p.lockPath)).toBe(false); // released
    const e = err as StoreCorruptError;
    expect(e.file).toBe(p.path);
    expect(e.message).toContain(p.path);
    return e;
  }

  it('invalid JSON: names the file and the parse error; a fixed file then opens', async () => {
    const p = store();
    let parseMessage = '';
    try {
      JSON.parse('{"format":"paygate-store",');
    } catch (e) {
      parseMessage = (e as Error).message;
    }
    const e = await openFails(p, '{"format":"paygate-store",');
    expect(e.message).toContain('not valid JSON');
    expect(e.message).toContain(parseMessage);

    fs.writeFileSync(
      p.path,
      JSON.stringify({ format: 'paygate-store', version: 1, lastSeq: 7, collections: { keys: [{ id: 'k' }] } }),
    );
    expect(await p.open()).toEqual({ keys: [{ id: 'k' }] });
    await p.commit([{ c: 'keys', v: { id: 'k2' } }]);
    expect(journalLines(p)[0]!.seq).toBe(8);
  });

  it('wrong format, unsupported version, bad collections, an entity without id, an empty file', async () => {
    expect((await openFails(store(), JSON.stringify({ operations: [] }))).reason).toContain('"format" is missing');
    expect(
      (await openFails(store(), JSON.stringify({ format: 'other', version: 1, collections: {} }))).reason,
    ).toContain('"other"');
    expect(
      (await openFails(store(), JSON.stringify({ format: 'paygate-store', version: 3, collections: {} }))).reason,
    ).toContain('version');
    expect(
      (await openFails(store(), JSON.stringify({ format: 'paygate-store', version: 1, collections: [] }))).reason,
    ).toContain('"collections"');
    expect(
      (await openFails(store(), JSON.stringify({ format: 'paygate-store', version: 1, collections: { ops: {} } })))
        .reason,
    ).toContain('collections.ops');
    const noId = JSON.stringify({
      format: 'paygate-store',
      version: 1,
      collections: { ops: [{ id: 'a' }, { amount: 1 }] },
    });
    expect((await openFails(store(), noId)).reason).toContain('collections.ops[1]');
    expect((await openFails(store(), '')).reason).toContain('empty');
    expect((await openFails(store(), 'null')).reason).toContain('null');
  });

  it('a corrupt snapshot leaves the journal alone too', async () => {
    const p = store();
    fs.mkdirSync(path.dirname(p.path), { recursive: true });
    fs.writeFileSync(p.journalPath, `${JSON.stringify({ seq: 1, ch: [op('a')] })}\n`);
    const journal = fs.readFileSync(p.journalPath);
    await openFails(p, '[');
    expect(fs.readFileSync(p.journalPath).equals(journal)).toBe(true);
  });
});

describe('lock', () => {
  it('a second open on the same path while the first is open is StoreLockedError naming the pid; after close it works', async () => {
    const p = store();
    await p.open();
    await p.commit([op('a')]);
    const q = store();
    const err = await q.open().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreLockedError);
    expect(err).toMatchObject({ code: 'store_locked', pid: process.pid, lockFile: p.lockPath });
    expect((err as Error).message).toContain(`pid ${process.pid}`);
    expect((err as Error).message).toContain('already has it open');
    await p.close();
    expect((await q.open()).operations).toEqual([{ id: 'a' }]);
  });

  it('a lock held by another live process is respected; once that process is gone it is taken over', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const p = store();
      fs.mkdirSync(path.dirname(p.lockPath), { recursive: true });
      fs.writeFileSync(
        p.lockPath,
        JSON.stringify({ pid: child.pid, startedAt: '2020-01-01T00:00:00.000Z', hostname: 'box' }),
      );
      const err = (await p.open().catch((e: unknown) => e)) as StoreLockedError;
      expect(err).toBeInstanceOf(StoreLockedError);
      expect(err.pid).toBe(child.pid);
      expect(err.message).toContain(
        `another paygate sandbox (pid ${child.pid} on box since 2020-01-01T00:00:00.000Z) owns it`,
      );
      expect(err.message).toContain('--store <other path> or --in-memory');
      expect(fs.readFileSync(p.lockPath, 'utf8')).toContain(`"pid":${child.pid}`); // not touched
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const q = store();
    expect(await q.open()).toEqual({});
    expect(JSON.parse(fs.readFileSync(q.lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a stale lock (dead pid) is taken over, and the new owner removes it on close', async () => {
    const p = store();
    fs.mkdirSync(path.dirname(p.lockPath), { recursive: true });
    fs.writeFileSync(p.lockPath, JSON.stringify({ pid: DEAD_PID, startedAt: new Date().toISOString() }));
    await p.open();
    expect(JSON.parse(fs.readFileSync(p.lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await p.close();
    expect(fs.existsSync(p.lockPath)).toBe(false);
  });

  it('a lock with our own pid that this process does not hold is stale (a restarted container where we are pid 1 again)', async () => {
    const p = store();
    fs.mkdirSync(path.dirname(p.lockPath), { recursive: true });
    fs.writeFileSync(
      p.lockPath,
      JSON.stringify({ pid: process.pid, startedAt: '2020-01-01T00:00:00.000Z', nonce: 'previous-life' }),
    );
    await expect(p.open()).resolves.toEqual({});
  });

  it('an unreadable lock is respected while fresh and taken over when old', async () => {
    const p = store();
    fs.mkdirSync(path.dirname(p.lockPath), { recursive: true });
    fs.writeFileSync(p.lockPath, '');
    await expect(p.open()).rejects.toMatchObject({ code: 'store_locked', pid: undefined });
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(p.lockPath, old, old);
    await expect(p.open()).resolves.toEqual({});
  });

  it('close does not remove a lock that another owner has taken over meanwhile', async () => {
    const p = store();
    await p.open();
    fs.writeFileSync(p.lockPath, JSON.stringify({ pid: DEAD_PID }));
    const q = store();
    await q.open();
    await p.close();
    expect(JSON.parse(fs.readFileSync(q.lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await q.close();
    expect(fs.existsSync(q.lockPath)).toBe(false);
  });
});

describe('group commit', () => {
  it('200 commits issued together share a few writes, and every record is in the journal in order', async () => {
    const p = store();
    await p.open();
    const pending = Array.from({ length: 200 }, (_, i) => p.commit([op(`op_${i}`, { i })]));
    await Promise.all(pending);
    expect(p.stats.commits).toBe(200);
    expect(p.stats.flushes).toBeLessThan(10);
    const lines = journalLines(p);
    expect(lines).toHaveLength(200);
    expect(lines.map((l) => l.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(lines.map((l) => l.ch[0]!.v.id)).toEqual(Array.from({ length: 200 }, (_, i) => `op_${i}`));
  });

  it('commits that arrive while a write is in flight go into the next write', async () => {
    const p = store();
    await p.open();
    const first = p.commit([op('first')]);
    await new Promise((r) => setImmediate(r)); // the first write is now in flight
    const later = Array.from({ length: 50 }, (_, i) => p.commit([op(`later_${i}`)]));
    await Promise.all([first, ...later]);
    expect(p.stats.flushes).toBeLessThanOrEqual(3);
    expect(journalLines(p)).toHaveLength(51);
  });

  it('concurrent committers (each awaiting its own commits) are batched', async () => {
    const p = store();
    await p.open();
    await Promise.all(
      Array.from({ length: 20 }, async (_, w) => {
        for (let i = 0; i < 10; i++) await p.commit([op(`w${w}_${i}`)]);
      }),
    );
    expect(p.stats.commits).toBe(200);
    expect(p.stats.flushes).toBeLessThan(100);
  });
});

describe('compaction', () => {
  it('compact empties the journal; reopen returns everything; seq keeps increasing', async () => {
    const p = store({ compactAfter: 5 });
    await p.open();
    const state: Collections = { operations: [] };
    for (let i = 0; i < 6; i++) {
      await p.commit([op(`op_${i}`)]);
      state.operations!.push({ id: `op_${i}` });
    }
    expect(p.shouldCompact).toBe(true);
    await p.compact(state);
    expect(fs.statSync(p.journalPath).size).toBe(0);
    expect(p.stats.journalRecords).toBe(0);
    expect(p.shouldCompact).toBe(false);
    await p.commit([op('op_6')]);
    expect(journalLines(p).map((l) => l.seq)).toEqual([7]);
    await p.close();

    const q = store();
    const all = await q.open();
    expect(all.operations!.map((e) => e.id)).toEqual(['op_0', 'op_1', 'op_2', 'op_3', 'op_4', 'op_5', 'op_6']);
    await q.commit([op('op_7')]);
    expect(journalLines(q).map((l) => l.seq)).toEqual([8]);
  });

  it('commits issued during a compaction are not lost with the old journal', async () => {
    const p = store();
    await p.open();
    const state: Collections = { operations: [] };
    for (let i = 0; i < 5; i++) {
      void p.commit([op(`a${i}`)]);
      state.operations!.push({ id: `a${i}` });
    }
    const compacted = p.compact(state); // covers a0..a4 (still in flight)
    const after = [p.commit([op('b0')]), p.commit([op('b1')])];
    await Promise.all([compacted, ...after]);
    expect(journalLines(p).map((l) => l.ch[0]!.v.id)).toEqual(['b0', 'b1']);
    expect(readSnapshot(p.path).lastSeq).toBe(5);
    await p.close();
    expect((await store().open()).operations!.map((e) => e.id)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1']);
  });

  it('compact copies the state when called', async () => {
    const p = store();
    await p.open();
    const state: Collections = { operations: [{ id: 'a', n: 1 }] };
    const done = p.compact(state);
    state.operations![0]!.n = 2;
    await done;
    expect(readSnapshot(p.path).collections.operations).toEqual([{ id: 'a', n: 1 }]);
  });

  it('rejects a state that would not load again', async () => {
    const p = store();
    await p.open();
    await expect(p.compact({ operations: [{ nope: 1 } as unknown as Entity] })).rejects.toThrow(TypeError);
    expect(fs.existsSync(p.path)).toBe(false);
  });
});

describe('bad input and failures', () => {
  it('rejects malformed or unserializable changes without consuming a seq', async () => {
    const p = store();
    await p.open();
    await expect(p.commit([{ c: '', v: { id: 'a' } }])).rejects.toThrow(TypeError);
    await expect(p.commit([{ c: 'x', v: { id: 7 } as unknown as Entity }])).rejects.toThrow(/string id/);
    await expect(p.commit([{ c: 'x', v: { id: 'a', big: 1n } }])).rejects.toThrow(TypeError);
    await p.commit([op('ok')]);
    expect(journalLines(p).map((l) => l.seq)).toEqual([1]);
    await p.commit([]); // empty: like sync()
    expect(journalLines(p)).toHaveLength(1);
  });

  it('commit before open and after close is StoreClosedError; close is idempotent', async () => {
    const p = store();
    await expect(p.commit([op('a')])).rejects.toMatchObject({ code: 'store_closed' });
    await p.open();
    const c1 = p.close();
    const c2 = p.close();
    await expect(p.commit([op('a')])).rejects.toBeInstanceOf(StoreClosedError);
    await Promise.all([c1, c2]);
    await p.close();
    await expect(p.compact({})).rejects.toBeInstanceOf(StoreClosedError);
  });

  it('a failed (partial) write rejects its batch, is cut from the file, and the store goes on', async () => {
    const proto = await fileHandleProto();
    const p = store();
    await p.open();
    await p.commit([op('before')]);
    const realWrite = proto.write;
    vi.spyOn(proto, 'write').mockImplementationOnce(async function (
      this: unknown,
      buf: unknown,
      off: unknown,
      len: unknown,
    ) {
      await realWrite.call(this, buf, off, Math.floor((len as number) / 2)); // half of it lands in the file
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    await expect(p.commit([op('lost', { pad: 'x'.repeat(200) })])).rejects.toMatchObject({ code: 'ENOSPC' });
    await p.commit([op('after')]);
    expect(journalLines(p).map((l) => l.ch[0]!.v.id)).toEqual(['before', 'after']);
    await p.close();
    expect((await store().open()).operations!.map((e) => e.id)).toEqual(['before', 'after']);
  });

  it('a failed write leaves no gap in seq: later commits take its numbers, and a new owner after a crash opens cleanly', async () => {
    const proto = await fileHandleProto();
    const p = store();
    await p.open();
    await p.commit([op('before')]);
    vi.spyOn(proto, 'write').mockRejectedValueOnce(
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
    );
    const lost = await Promise.allSettled([p.commit([op('lost1')]), p.commit([op('lost2')])]); // one group write
    expect(lost.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await p.commit([op('after1')]);
    await p.commit([op('after2')]);
    expect(journalLines(p).map((l) => [l.seq, l.ch[0]!.v.id])).toEqual([
      [1, 'before'],
      [2, 'after1'],
      [3, 'after2'],
    ]);
    expect(p.seq).toBe(3);
    // the owner "dies" (no close, no compaction): its lock stays behind with a pid that no longer exists
    fs.writeFileSync(p.lockPath, JSON.stringify({ pid: DEAD_PID, startedAt: new Date().toISOString() }));
    const q = store();
    expect((await q.open()).operations!.map((e) => e.id)).toEqual(['before', 'after1', 'after2']);
  });

  it('a compaction queued behind a failed write records only the written seqs, so the next commit is not taken as folded', async () => {
    const proto = await fileHandleProto();
    const p = store({ compactOnOpen: false });
    await p.open();
    await p.commit([op('a')]);
    vi.spyOn(proto, 'write').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }));
    const lost = p.commit([op('lost')]);
    const compacted = p.compact({ operations: [{ id: 'a' }] });
    await expect(lost).rejects.toMatchObject({ code: 'EIO' });
    await compacted;
    expect(readSnapshot(p.path).lastSeq).toBe(1);
    await p.commit([op('b')]);
    expect(journalLines(p).map((l) => l.seq)).toEqual([2]);
    fs.writeFileSync(p.lockPath, JSON.stringify({ pid: DEAD_PID, startedAt: new Date().toISOString() }));
    expect((await store().open()).operations!.map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('a failed fdatasync makes the store refuse further commits (store_failed) but close still releases the lock', async () => {
    const proto = await fileHandleProto();
    const p = store();
    await p.open();
    vi.spyOn(proto, 'datasync').mockRejectedValueOnce(
      Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }),
    );
    const err = await p.commit([op('a')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreFailedError);
    expect((err as Error).message).toContain(p.journalPath);
    await expect(p.commit([op('b')])).rejects.toMatchObject({ code: 'store_failed' });
    await expect(p.sync()).rejects.toMatchObject({ code: 'store_failed' });
    await p.close({ operations: [] });
    expect(fs.existsSync(p.lockPath)).toBe(false);
  });
});
