// Two workspaces driven in parallel by the scenario runner (against the server's base URL, each with its
// own keys and admin token) never see each other's operations, balances, webhooks or clock moves. fast-check draws
// what each workspace does and how the two interleave; each command is a one-step scenario run against its workspace,
// two at a time when the interleaving says so, and every step's expectation comes from a model of that workspace
// alone: a status, a balance delta, a clock time, a count that anything of the other workspace would throw off.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/testing/index.js';
import { useSandbox } from '../helpers/sandbox.js';
import { admin, createWs, type Ws } from './helpers.js';

const ADMIN = 'pg_admin_ws_property_0123456789';
const T0 = Date.parse('2026-03-01T12:00:00Z');
const EXPIRY_MS = 30 * 60_000;

type Command =
  | { kind: 'create' }
  | { kind: 'pay'; op: number }
  | { kind: 'cancel'; op: number }
  | { kind: 'advance'; minutes: number };

/** One workspace as the model sees it: its clock and its operations (when each expires, what became of it). */
class Model {
  now = T0;
  ops: { moid: string; expires: number; status: 'pending' | 'completed' | 'cancelled' }[] = [];
  constructor(readonly name: string) {}

  /** The one-step scenario of `c` with what it must answer, or undefined when `c` does not apply now. */
  step(c: Command): object | undefined {
    const op = 'op' in c ? this.ops[c.op % Math.max(1, this.ops.length)] : undefined;
    const live = op && op.status === 'pending' && this.now < op.expires;
    switch (c.kind) {
      case 'create': {
        const moid = `${this.name}-${this.ops.length}`;
        this.ops.push({ moid, expires: this.now + EXPIRY_MS, status: 'pending' });
        return {
          call: 'payment.create',
          with: {
            merchant_operation_id: moid,
            client_id: 'alice',
            method: 'WT_RUB_C2C',
            amount: '1500.00',
            currency: 'RUB',
          },
          expect: { status: 200, body: { status: 'pending' } },
        };
      }
      case 'pay':
        if (!live) return undefined;
        op.status = 'completed';
        return {
          call: 'operations.pay',
          with: { id: '-', merchant_operation_id: op.moid },
          expect: { body: { status: 'completed' }, balance_delta: { RUB: { balance: '1462.50' } } },
        };
      case 'cancel':
        if (!live) return undefined;
        op.status = 'cancelled';
        return {
          call: 'operation.cancel',
          with: { merchant_operation_id: op.moid },
          expect: { body: { outcome: 'cancelled' }, balance_delta: { RUB: { balance: '0' } } },
        };
      case 'advance':
        this.now += c.minutes * 60_000;
        return {
          call: 'clock.advance',
          with: { by: `${c.minutes}m` },
          expect: { body: { now: new Date(this.now).toISOString() } },
        };
    }
  }

  /** What the workspace must show at the end. */
  final(): object[] {
    const completed = this.ops.filter((o) => o.status === 'completed').length;
    return [
      { call: 'operations.list', with: { limit: 1000 }, expect: { body: { total: this.ops.length } } },
      { call: 'operations.list', with: { status: 'completed', limit: 1000 }, expect: { body: { total: completed } } },
      { call: 'clock.show', expect: { body: { now: new Date(this.now).toISOString() } } },
    ];
  }
}

const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'create' as const }), weight: 3 },
  { arbitrary: fc.nat(9).map((op) => ({ kind: 'pay' as const, op })), weight: 2 },
  { arbitrary: fc.nat(9).map((op) => ({ kind: 'cancel' as const, op })), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 20 }).map((minutes) => ({ kind: 'advance' as const, minutes })), weight: 1 },
);

describe('two workspaces driven in parallel by the scenario runner', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, adminToken: ADMIN });

  it('never see each other (any commands, any interleaving)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 10 }),
        fc.array(command, { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(2), { minLength: 20, maxLength: 20 }),
        async (cmdsA, cmdsB, order) => {
          run++;
          const spaces: [Ws, Model, Command[]][] = [];
          for (const [name, cmds] of [
            ['a', cmdsA],
            ['b', cmdsB],
          ] as const) {
            const ws = await createWs(h, ADMIN, { id: `${name}-${run}`, start_time: new Date(T0).toISOString() });
            spaces.push([ws, new Model(name), [...cmds]]);
          }
          const runOne = async ([ws, model]: [Ws, Model, Command[]], steps: object[]) => {
            if (steps.length === 0) return;
            const remote = { baseUrl: ws.baseUrl, keys: ws.keys, adminToken: ws.adminToken, reset: false };
            const r = await runScenario({ name: `${model.name} ${run}`, steps }, { remote });
            expect(r.ok, r.failure ?? r.error).toBe(true);
          };
          const next = (s: [Ws, Model, Command[]]) => {
            for (let c = s[2].shift(); c; c = s[2].shift()) {
              const step = s[1].step(c);
              if (step) return [step];
            }
            return [];
          };
          // 0: A then B's turn waits; 1: B alone; 2: one command of each, at the same time.
          for (let i = 0; spaces.some((s) => s[2].length > 0); i++) {
            const pick = order[i % order.length]!;
            if (pick === 2) await Promise.all(spaces.map((s) => runOne(s, next(s))));
            else await runOne(spaces[pick]!, next(spaces[pick]!));
          }
          await Promise.all(spaces.map((s) => runOne(s, s[1].final())));
          for (const [ws] of spaces)
            expect((await admin(h, ADMIN, 'DELETE', `/sandbox/workspaces/${ws.id}`)).status).toBe(200);
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
    // The default workspace saw none of it.
    expect((await admin(h, ADMIN, 'GET', '/sandbox/operations')).body.operations).toEqual([]);
  }, 120_000);
});
