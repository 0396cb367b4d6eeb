// FailingPersistence (test/helpers): refuses the next N commits or every commit until healed, with an ENOSPC error
// by default, counts what it refused, and never forwards a refused commit to the persistence it wraps.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilePersistence } from '../../src/store/file-persistence.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import type { Change } from '../../src/store/persistence.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';

/** A MemoryPersistence that remembers every commit it received. */
class Recording extends MemoryPersistence {
  readonly received: string[] = [];
  override commit(changes: readonly Change[]): Promise<void> {
    this.received.push(...changes.map((ch) => ch.v.id));
    return super.commit(changes);
  }
}

const op = (id: string): Change => ({ c: 'operations', v: { id } });

describe('FailingPersistence', () => {
  it('failNext(n) refuses the next n commits with ENOSPC, forwards nothing of them, then lets commits through', async () => {
    const inner = new Recording();
    const p = new FailingPersistence(inner);
    await p.open();
    await p.commit([op('a')]);
    p.failNext(2);
    expect(p.failing).toBe(true);
    const e1 = await p.commit([op('b')]).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(Error);
    expect(e1).toMatchObject({ code: 'ENOSPC' });
    await expect(p.commit([op('c')])).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(p.failing).toBe(false);
    await p.commit([op('d')]);
    expect(inner.received).toEqual(['a', 'd']);
    expect(p.refused).toBe(2);
    expect(p.stats).toEqual(inner.stats);
    expect(p.stats.commits).toBe(2);
    await p.close();
  });

  it('failAll(error) refuses every commit with that error until heal(); the count is kept', async () => {
    const inner = new Recording();
    const p = new FailingPersistence(inner);
    await p.open();
    const boom = Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    p.failAll(boom);
    for (let i = 0; i < 5; i++) await expect(p.commit([op(`x${i}`)])).rejects.toBe(boom);
    await p.sync(); // not a commit: delegated
    p.heal();
    await p.commit([op('ok')]);
    expect(inner.received).toEqual(['ok']);
    expect(p.refused).toBe(5);
    p.failNext(0);
    await p.commit([op('ok2')]);
    expect(p.refused).toBe(5);
    expect(() => p.failNext(-1)).toThrow(RangeError);
    await p.close();
  });

  describe('around a FilePersistence', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(`${os.tmpdir()}/paygate-failing-`);
    });
    afterEach(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a refused commit leaves the journal untouched; reopening finds only the acknowledged ones', async () => {
      const file = new FilePersistence({ path: path.join(dir, 'sandbox.json'), compactOnOpen: false });
      const p = new FailingPersistence(file);
      await p.open();
      await p.commit([op('a')]);
      const before = fs.readFileSync(file.journalPath, 'utf8');
      p.failAll();
      await expect(Promise.all([p.commit([op('b')]), p.commit([op('c')])])).rejects.toMatchObject({ code: 'ENOSPC' });
      await p.sync();
      expect(fs.readFileSync(file.journalPath, 'utf8')).toBe(before);
      expect(file.seq).toBe(1);
      p.heal();
      await p.commit([op('d')]);
      await p.close();

      const again = new FilePersistence({ path: path.join(dir, 'sandbox.json') });
      expect((await again.open()).operations!.map((e) => e.id)).toEqual(['a', 'd']);
      await again.close();
    });
  });
});
