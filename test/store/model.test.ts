// Model-based check of FilePersistence: random commits, compactions, clean restarts and crashes that tear the
// journal's tail (a prefix of a line, without its newline: what a crash mid-append leaves); after every restart
// open() must equal the model (last write wins, first-appearance order). A complete line that is damaged is not a
// torn write: start-up stops (test/store/file-persistence.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FilePersistence } from '../../src/store/file-persistence.js';
import type { Change, Collections } from '../../src/store/persistence.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(`${os.tmpdir()}/paygate-store-`);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

type Op = { t: 'commit'; changes: Change[] } | { t: 'compact' } | { t: 'restart' } | { t: 'crash'; torn: string };

const change = fc.record({
  c: fc.constantFrom('operations', 'postings', 'events'),
  v: fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'é😀'), n: fc.integer(), s: fc.string() }),
});
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(change, { minLength: 1, maxLength: 4 }).map((changes) => ({ t: 'commit' as const, changes })),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'compact' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'restart' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('{"seq":', '{"seq":99,"ch":[{"c":"x","v":{"id":"z"}}]}', '\u0000\u0000', '{')
      .map((torn) => ({ t: 'crash' as const, torn })),
  },
);

function modelCollections(model: Map<string, Map<string, unknown>>): Collections {
  const out: Collections = {};
  for (const [c, m] of model) out[c] = [...m.values()] as Collections[string];
  return out;
}

it('open() always returns the model after any mix of commits, compactions, restarts and torn crashes', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { maxLength: 30 }), async (ops) => {
      const file = path.join(dir, `run${run++}`, 'sandbox.json');
      const model = new Map<string, Map<string, unknown>>();
      let p = new FilePersistence({ path: file, fsync: false });
      expect(await p.open()).toEqual({});
      let lastSeq = 0;
      try {
        for (const op of ops) {
          if (op.t === 'commit') {
            const json = JSON.parse(JSON.stringify(op.changes)) as Change[];
            await p.commit(op.changes);
            for (const ch of json) {
              if (!model.has(ch.c)) model.set(ch.c, new Map());
              model.get(ch.c)!.set(ch.v.id, ch.v);
            }
            expect(p.seq).toBe(++lastSeq);
          } else if (op.t === 'compact') {
            await p.compact(modelCollections(model));
          } else {
            if (op.t === 'restart') await p.close();
            else {
              // crash: the lock stays behind with a dead pid, and a write was torn half-way
              fs.writeFileSync(p.lockPath, JSON.stringify({ pid: 2 ** 22 + 12345 }));
              fs.appendFileSync(p.journalPath, op.torn);
              await p.close(); // releases nothing that is not its own
            }
            p = new FilePersistence({ path: file, fsync: false });
            const all = await p.open();
            expect(all).toEqual(modelCollections(model));
            expect(p.seq).toBe(lastSeq);
          }
        }
      } finally {
        await p.close();
      }
      const q = new FilePersistence({ path: file, fsync: false });
      expect(await q.open()).toEqual(modelCollections(model));
      await q.close();
    }),
    { numRuns: 60 },
  );
  // 60 runs of up to 30 file operations each: about a second on a quiet machine, past 5 s on a loaded one.
}, 60_000);
