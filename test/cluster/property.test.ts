// Cluster mode (issue 29) — a property test: fast-check drives random creates across workspaces on a cluster of 3
// processes while killing (SIGKILL), pausing (SIGSTOP past the lease, then SIGCONT) and restarting them. After each
// step: every acknowledged create is there exactly once (the one operation of its merchant_operation_id, with the
// id acknowledged), and no two processes wrote one workspace under the same lease epoch (the journal's rows).
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { pgDescribe, useCluster } from '../postgres/fixture.js';
import { ADMIN, create, expectOneWriterPerEpoch, kill, startProc, stopAll, until, wsBase, type Proc } from './procs.js';

const cluster = useCluster();
afterEach(stopAll);

const SPACES = ['p0', 'p1', 'p2', 'default'];
const ARGS = ['--lease-ttl', '1s'];

type Step =
  | { kind: 'create'; via: number; ws: number; n: number }
  | { kind: 'kill'; proc: number }
  | { kind: 'pause'; proc: number }
  | { kind: 'restart'; proc: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      via: fc.nat(2),
      ws: fc.nat(3),
      n: fc.integer({ min: 3, max: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('kill' as const), proc: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const), proc: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restart' as const), proc: fc.nat(2) }) },
);

/** The operations of `mop` in `ws` (admin list, filtered), through `base`; undefined while the cluster answers 503. */
async function opsOf(base: string, ws: string, mop: string): Promise<string[] | undefined> {
  const res = await fetch(`${wsBase(base, ws)}/sandbox/operations?merchant_operation_id=${mop}`, {
    headers: { 'x-admin-token': ADMIN },
  });
  if (res.status === 503) return void (await res.text());
  expect(res.status).toBe(200);
  return ((await res.json()) as { operations: { operation_id: string }[] }).operations.map((o) => o.operation_id);
}

pgDescribe('cluster: property', () => {
  it('random creates across workspaces while processes are killed, paused and restarted: nothing acknowledged lost or doubled, one writer per epoch', async () => {
    const url = await cluster.get().createDatabase();
    const procs: (Proc | undefined)[] = await Promise.all([0, 1, 2].map(() => startProc(url, ARGS)));
    const acked = new Map<string, { ws: string; mop: string; id: string }>();
    let made = 0;
    const live = () => procs.filter((p): p is Proc => p !== undefined);
    const createVia = async (via: Proc, ws: string) => {
      const mop = `prop-${made++}`;
      const r = await create(via.base, ws, mop).catch(() => undefined);
      if (r?.status === 200) acked.set(`${ws} ${mop}`, { ws, mop, id: r.body.operation_id! });
    };
    // Creates in flight on every workspace while a process is killed or paused.
    const burst = () =>
      Promise.all(SPACES.flatMap((ws, i) => [0, 1].map((k) => createVia(live()[(i + k) % live().length]!, ws))));
    const run = async (s: Step) => {
      if (s.kind === 'create') {
        const via = procs[s.via] ?? live()[0]!;
        await Promise.all(Array.from({ length: s.n }, () => createVia(via, SPACES[s.ws]!)));
      } else if (s.kind === 'kill' && procs[s.proc] && live().length > 1) {
        const p = procs[s.proc]!;
        await Promise.all([burst(), kill(p).then(() => (procs[s.proc] = undefined))]);
      } else if (s.kind === 'pause' && procs[s.proc]) {
        const p = procs[s.proc]!;
        const pause = (async () => {
          p.child.kill('SIGSTOP');
          await new Promise((r) => setTimeout(r, 1300)); // past its lease: the others may take its workspaces
          p.child.kill('SIGCONT');
        })();
        await Promise.all([burst(), pause]);
      } else if (s.kind === 'restart' && !procs[s.proc]) {
        procs[s.proc] = await startProc(url, ARGS);
      }
    };
    const check = async () => {
      for (const { ws, mop, id } of acked.values()) {
        const ops = await until(`${ws} ${mop}`, async () => {
          const p = live()[Math.floor(Math.random() * live().length)]!;
          return opsOf(p.base, ws, mop).catch(() => undefined);
        });
        expect(ops, `${ws} ${mop}`).toEqual([id]);
      }
      await expectOneWriterPerEpoch(url);
    };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 12, maxLength: 16 }), async (steps) => {
        for (const s of steps) {
          await run(s);
          await check();
        }
      }),
      {
        numRuns: 1,
        endOnFailure: true,
        ...(process.env.PAYGATE_CLUSTER_SEED ? { seed: Number(process.env.PAYGATE_CLUSTER_SEED) } : {}),
      },
    );
    expect(acked.size).toBeGreaterThan(0);
    process.stderr.write(`property: ${acked.size} creates acknowledged of ${made}, all present once\n`);
  }, 180_000);
});
