// The rollback property (rollback.property.test.ts) on the durable backends: whatever mix of commands runs and
// whichever writes fail, what the sandbox shows equals what a new owner loads from the store after this one dies
// (no close, no compaction) — on the file store and on PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/emulator/sandbox.js';
import { FileBackend, type StoreBackend } from '../../src/store/backend.js';
import { PostgresBackend } from '../../src/store/postgres/backend.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';
import { KEY_A } from '../helpers/harness.js';
import { killWriterSessions, missing, useCluster, writerSessionsGone } from '../postgres/fixture.js';

const cluster = useCluster();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface Subject {
  name: string;
  fresh(): Promise<{ backend(): StoreBackend; crash(b: StoreBackend): Promise<void> }>;
}
const subjects: Subject[] = [
  {
    name: 'file',
    async fresh() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-rb-'));
      dirs.push(dir);
      const store = path.join(dir, 'sandbox.json');
      return {
        backend: () => new FileBackend({ path: store }),
        crash: async () => fs.writeFileSync(`${store}.lock`, JSON.stringify({ pid: 2 ** 22 + 12345 })),
      };
    },
  },
];
if (!missing) {
  let url: string | undefined;
  subjects.push({
    name: 'postgres',
    async fresh() {
      url ??= await cluster.get().createDatabase();
      const db = url;
      await new PostgresBackend({ url: db }).reset().catch(() => {});
      return {
        backend: () => new PostgresBackend({ url: db }),
        crash: async (b) => {
          const lost = new Promise<void>((r) => (b as PostgresBackend).onLost(() => r()));
          await killWriterSessions(db);
          await lost;
          await writerSessionsGone(db);
        },
      };
    },
  });
}

type Cmd =
  | { kind: 'payment'; n: number; amount: number; tag: string }
  | { kind: 'payout'; n: number; amount: number; tag: string }
  | { kind: 'pay'; n: number }
  | { kind: 'cancel'; n: number }
  | { kind: 'advance'; ms: number };
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({
    kind: fc.constant('payment' as const),
    n: fc.nat(5),
    amount: fc.integer({ min: 100, max: 5000 }),
    tag: fc.constantFrom('', '+slow', '+receipt'),
  }),
  fc.record({
    kind: fc.constant('payout' as const),
    n: fc.nat(5),
    amount: fc.integer({ min: 100, max: 5000 }),
    tag: fc.constantFrom('', '+fail', '+slow'),
  }),
  fc.record({ kind: fc.constant('pay' as const), n: fc.nat(5) }),
  fc.record({ kind: fc.constant('cancel' as const), n: fc.nat(5) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1000, 5000, 10_000) }),
);

describe.each(subjects)('rollback on $name: memory equals what a new owner loads after a crash', (subject) => {
  it('holds for random commands, concurrent or not, with random write failures', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cmd, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 32, maxLength: 32 }),
        async (rounds, coins) => {
          const s = await subject.fresh();
          const first = s.backend();
          let i = 0;
          let armed = false;
          const p = new FailingPersistence(first.workspace('default').persistence).failWhen(
            () => armed && coins[i++ % coins.length]!,
          );
          const sb = await createSandbox({ persistence: p, frozenClock: true, log: () => {} });
          armed = true;
          const call = (method: string, url: string, body?: unknown) =>
            sb.fetch(
              new Request(`http://x${url}`, {
                method,
                headers: { 'x-api-key': KEY_A, 'content-type': 'application/json', 'x-admin-token': sb.adminToken! },
                ...(body ? { body: JSON.stringify(body) } : {}),
              }),
            );
          const ids = new Map<number, string>();
          const run = async (c: Cmd) => {
            if (c.kind === 'payment' || c.kind === 'payout') {
              const r = await call('POST', `/v1/${c.kind}`, {
                merchant_operation_id: `m-${c.kind}-${c.n}`,
                client_id: `c${c.tag}`,
                method: 'WT_RUB_C2C',
                amount: `${c.amount}.00`,
                currency: 'RUB',
                number: '2200700000000004',
              });
              const b = (await r.json()) as { operation_id?: string };
              if (b.operation_id && c.kind === 'payment') ids.set(c.n, b.operation_id);
            } else if (c.kind === 'pay' || c.kind === 'cancel') {
              const id = ids.get(c.n);
              if (!id) return;
              if (c.kind === 'pay') await (await call('POST', `/sandbox/operations/${id}/pay`, {})).text();
              else await (await call('POST', '/v1/cancel_operation', { operation_id: id })).text();
            } else await sb.clock.advance(c.ms);
          };
          const all: Promise<void>[] = [];
          for (const round of rounds) {
            all.push(...round.map(run));
            for (let t = 0; t < 5; t++) await new Promise((r) => setImmediate(r));
          }
          await sb.clock.advance(20_000);
          await Promise.all(all);
          armed = false;
          await sb.store.sync();
          const mem = sb.store.state.snapshot();
          await s.crash(first);
          const second = s.backend();
          const disk = await createSandbox({ backend: second, frozenClock: true, log: () => {} });
          const written = disk.store.state.snapshot();
          for (const c of ['operations', 'postings', 'events', 'keys', 'links']) {
            expect(new Map((mem[c] ?? []).map((e) => [e.id, e])), c).toEqual(
              new Map((written[c] ?? []).map((e) => [e.id, e])),
            );
          }
          expect(sb.store.state.totals.net('RUB').isZero()).toBe(true);
          await disk.close();
          await second.close();
          await sb.close().catch(() => {});
          await first.close();
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
