// Property: whatever mix of commands runs and whichever writes fail, the sandbox's memory equals what reached the
// journal — a sandbox reopened from the written transactions alone has the same operations, postings, events and
// balances — and the ledger balances.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/emulator/sandbox.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import type { Change, Collections } from '../../src/store/persistence.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';
import { KEY_A } from '../helpers/harness.js';

/** Fold the written transactions into collections, as a journal replay does. */
function replay(txs: Change[][]): Collections {
  const colls = new Map<string, Map<string, Change['v']>>();
  for (const tx of txs) {
    for (const ch of tx) {
      let m = colls.get(ch.c);
      if (!m) colls.set(ch.c, (m = new Map()));
      m.set(ch.v.id, ch.v);
    }
  }
  return Object.fromEntries([...colls].map(([c, m]) => [c, [...m.values()]]));
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

describe('rollback: memory always equals what was written', () => {
  it('holds for random commands, concurrent or not, with random write failures', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cmd, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        async (rounds, coins) => {
          let i = 0;
          let armed = false; // the sandbox's own start-up writes succeed; failures begin with the commands
          const p = new FailingPersistence(new MemoryPersistence()).failWhen(() => armed && coins[i++ % coins.length]!);
          const sb = await createSandbox({ persistence: p, frozenClock: true, log: () => {} });
          armed = true;
          const call = (method: string, path: string, body?: unknown) =>
            sb.fetch(
              new Request(`http://x${path}`, {
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
            } else {
              await sb.clock.advance(c.ms);
            }
          };
          // The commands of a round run concurrently; a create that waits for acceptance answers on a later advance.
          const all: Promise<void>[] = [];
          for (const round of rounds) {
            all.push(...round.map(run));
            for (let t = 0; t < 5; t++) await new Promise((r) => setImmediate(r));
          }
          await sb.clock.advance(20_000);
          await Promise.all(all);
          armed = false;
          await sb.store.sync();

          const disk = await createSandbox({
            persistence: new MemoryPersistence(replay(p.written)),
            frozenClock: true,
            log: () => {},
          });
          const mem = sb.store.state.snapshot();
          const written = disk.store.state.snapshot();
          for (const c of ['operations', 'postings', 'events', 'keys', 'links']) {
            expect(new Map((mem[c] ?? []).map((e) => [e.id, e])), c).toEqual(
              new Map((written[c] ?? []).map((e) => [e.id, e])),
            );
          }
          expect(sb.store.state.totals.net('RUB').isZero()).toBe(true);
          await disk.close();
          await sb.close();
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);
});
