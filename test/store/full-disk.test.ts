// A real full disk: a FilePersistence on a 256 KiB tmpfs, most of it taken by a filler file, commits until the
// disk is full. The failing commit rejects with ENOSPC, the journal keeps exactly the acknowledged transactions
// (whole lines: a partly written batch is cut off, numbered without a gap), and once space comes back commits succeed again.
// Mounting needs root (CAP_SYS_ADMIN): where it is not permitted the test is skipped with a loud warning.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FilePersistence } from '../../src/store/file-persistence.js';
import type { Change } from '../../src/store/persistence.js';
import { mountTmpfs, warnSkipped } from '../helpers/tmpfs.js';

const SIZE = '256k';
/** Free space left for the journal once the filler is written. */
const HEADROOM = 40 * 1024;

let mnt: string | undefined;
let mounted = false;
/** Why the test is skipped; undefined when the tmpfs is mounted. */
let notPermitted: string | undefined;
let unmount: (() => void) | undefined;
const opened: FilePersistence[] = [];

beforeAll(() => {
  const t = mountTmpfs(SIZE, 'paygate-full-disk-');
  if (!t.ok) {
    notPermitted = t.reason;
    return;
  }
  mnt = t.dir;
  mounted = true;
  unmount = t.unmount;
});

afterAll(async () => {
  for (const p of opened) await p.close().catch(() => {});
  unmount?.();
});

const op = (id: string): Change => ({ c: 'operations', v: { id, pad: 'x'.repeat(1500) } });

function journalIds(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true); // whole lines only
  const records = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { seq: number; ch: Change[] });
  // a refused write takes no seq: the lines on disk are numbered 1, 2, 3, ... without a gap
  expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
  return records.map((r) => r.ch[0]!.v.id);
}

it('on a full disk a commit rejects with ENOSPC, the journal keeps exactly the acknowledged ones, and commits work once space is back', async (ctx) => {
  if (!mounted) {
    warnSkipped('test/store/full-disk.test.ts', notPermitted!);
    ctx.skip();
    return;
  }
  const dir = mnt!;
  const store = path.join(dir, 'sandbox.json');
  const p = new FilePersistence({ path: store });
  opened.push(p);
  await p.open();

  // Take all the space but HEADROOM, so the journal fills it after a few dozen commits.
  const filler = path.join(dir, 'filler');
  const st = fs.statfsSync(dir);
  fs.writeFileSync(filler, Buffer.alloc(Math.max(0, st.bavail * st.bsize - HEADROOM)));

  // Waves of concurrent commits (group commit: a wave shares writes) until one is refused, then single commits
  // until one is refused: a refused write is cut off and the store goes on, so the smaller ones fill the rest.
  const acked: string[] = [];
  for (const width of [4, 1]) {
    let refusal: unknown;
    for (let wave = 0; refusal === undefined; wave++) {
      expect(wave).toBeLessThan(500); // the disk must fill up
      const ids = Array.from({ length: width }, (_, i) => `n${width}_${wave}_${i}`);
      const results = await Promise.allSettled(ids.map((id) => p.commit([op(id)])));
      results.forEach((r, i) => {
        if (r.status === 'fulfilled') acked.push(ids[i]!);
        else refusal ??= r.reason;
      });
    }
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal).toMatchObject({ code: 'ENOSPC' });
    expect(journalIds(p.journalPath)).toEqual(acked);
  }
  expect(acked.length).toBeGreaterThan(0);
  expect(p.stats.journalRecords).toBe(acked.length);

  // Space comes back: the same store takes commits again (a refused write does not break it) ...
  fs.rmSync(filler);
  await p.commit([op('after-1')]);
  acked.push('after-1');
  await p.close();
  // ... a new owner loads exactly the acknowledged transactions (and compacts them) and commits too.
  const q = new FilePersistence({ path: store });
  opened.push(q);
  const all = await q.open();
  expect((all.operations ?? []).map((e) => e.id)).toEqual(acked);
  await q.commit([op('after-2')]);
  await q.close();

  const r = new FilePersistence({ path: store });
  opened.push(r);
  expect(((await r.open()).operations ?? []).map((e) => e.id)).toEqual([...acked, 'after-2']);
  await r.close();
});
