// The sandbox's operation controls end to end: the CLI as a subprocess against a sandbox started in this process on a
// frozen clock. time / time advance, pay, settle, review, operations, operation history, evidence and the receipts of
// `paygate state`. Keys, the admin token and reset: commands/sandbox/sandbox-admin.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { timerArmed } from '../helpers/sandbox.js';
import { json, ok, useLiveSandbox } from './live-sandbox.js';
import { runCli, transcript } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_cli_test';
const START = '2026-01-01T00:00:00.000Z';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const live = useLiveSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: ADMIN,
  shop: 'shop_a',
});
const api = live.api;
let baseUrl: string;
let key: string;
/** Shop A's key and the admin token from the environment. */
let env: Record<string, string>;

beforeAll(() => {
  baseUrl = live.h.baseUrl;
  key = live.h.keyOf('shop_a');
  env = live.env;
});

const PAYMENT = ['--method', 'WT_RUB_C2C', '--amount', '1500.00', '--currency', 'RUB'];
const PAYOUT = ['--method', 'WT_RUB_C2C', '--amount', '500.00', '--currency', 'RUB', '--number', '4111111111111111'];

async function createPayment(clientId: string, moid?: string): Promise<string> {
  const r = await runCli(
    [
      'payment',
      'create',
      ...PAYMENT,
      '--client-id',
      clientId,
      ...(moid ? ['--merchant-operation-id', moid] : []),
      '--json',
    ],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { operation_id: string }).operation_id;
}

async function createPayout(clientId: string): Promise<string> {
  const r = await runCli(['payout', 'create', ...PAYOUT, '--client-id', clientId, '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { operation_id: string }).operation_id;
}

interface Clock {
  now: string;
  frozen: boolean;
  pending_timers: number;
}

// First, while the clock still reads the start time.
describe('sandbox time', () => {
  it('human: now, frozen, pending timers', async () => {
    const out = ok(await runCli(['sandbox', 'time'], { env }));
    expect(out).toMatch(new RegExp(`^now +${START}$`, 'm'));
    expect(out).toMatch(/^frozen +true\b/m);
    expect(out).toMatch(/^pending_timers +\d+$/m);
    expect(out).not.toContain('\x1b[');
  });

  it('--json is exactly the body of GET /sandbox/clock', async () => {
    const body = json<Clock>(await runCli(['sandbox', 'time', '--json'], { env }));
    expect(body).toEqual(await api('GET', '/sandbox/clock', 'admin'));
    expect(body).toMatchObject({ now: START, frozen: true });
  });

  it('a +slow create started in the background completes after `sandbox time advance 10s`', async () => {
    const before = json<Clock>(await runCli(['sandbox', 'time', '--json'], { env }));
    const armed = timerArmed(live.h.sandbox, before.pending_timers);
    const create = runCli(
      ['payment', 'create', ...PAYMENT, '--client-id', 'slow+slow', '--merchant-operation-id', 'cli-slow-1', '--json'],
      { env },
    );
    // Wait until the create reached the sandbox and armed the provider's 10 s timer (an event of the clock, no polling).
    await Promise.race([
      armed,
      create.then((r) => Promise.reject(new Error(`the create ended before arming a timer: ${r.stdout}${r.stderr}`))),
    ]);
    const clock = json<Clock>(await runCli(['sandbox', 'time', '--json'], { env }));
    expect(clock.pending_timers).toBeGreaterThan(before.pending_timers);

    const advanced = await runCli(['sandbox', 'time', 'advance', '10s'], { env });
    expect(ok(advanced)).toMatch(/^now +2026-01-01T00:00:10\.000Z$/m);

    const r = await create;
    expect(r.timedOut).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { status: string }).status).toBe('pending');
    // Unanswered for 1 s, the create says on stderr that the clock is frozen (whether it waited that long is timing).
    expect(r.stderr).toMatch(
      /^(|Waiting for the provider: the sandbox clock is frozen, .* paygate sandbox time advance 15s\n)$/,
    );
  });

  it('advance --json (milliseconds) is the new clock; a bad duration is a usage error', async () => {
    const body = json<Clock>(await runCli(['sandbox', 'time', 'advance', '1000', '--json'], { env }));
    expect(body.now).toBe('2026-01-01T00:00:11.000Z');
    expect(body).toEqual(await api('GET', '/sandbox/clock', 'admin'));
    const bad = await runCli(['sandbox', 'time', 'advance', '10 seconds'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('duration');
  });
});

describe('sandbox pay', () => {
  it('human: pays in full; the operation is shown like `paygate state`', async () => {
    const id = await createPayment('payer-1');
    const out = ok(await runCli(['sandbox', 'pay', id], { env }));
    expect(out).toMatch(new RegExp(`^operation_id +${id}$`, 'm'));
    expect(out).toMatch(/^status +completed$/m);
    expect(out).toMatch(/^actual_amount +1500\.00 RUB$/m);
  });

  it('--amount, by --merchant-operation-id, --json', async () => {
    const moid = `cli-pay-${Date.now()}`;
    const id = await createPayment('payer-2', moid);
    const body = json<{ operation_id: string; status: string; actual_amount: string; expected_amount: string }>(
      await runCli(['sandbox', 'pay', '--merchant-operation-id', moid, '--amount', '900.00', '--json'], { env }),
    );
    expect(body).toMatchObject({
      operation_id: id,
      status: 'completed',
      actual_amount: '900.00',
      expected_amount: '1500.00',
    });
    const human = ok(await runCli(['state', id], { env }));
    expect(human).toMatch(/^actual_amount +900\.00 RUB$/m);
  });

  it('a bad --amount is a usage error; paying twice is 409 invalid_state (exit 1)', async () => {
    const id = await createPayment('payer-3');
    expect((await runCli(['sandbox', 'pay', id, '--amount', '9.999'], { env })).code).toBe(2);
    ok(await runCli(['sandbox', 'pay', id], { env }));
    const again = await runCli(['sandbox', 'pay', id], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('invalid_state');
  });
});

describe('sandbox settle', () => {
  it('--completed (human) and --failed (--json) on payouts', async () => {
    const a = await createPayout('settle-1');
    const out = ok(await runCli(['sandbox', 'settle', a, '--completed'], { env }));
    expect(out).toMatch(/^type +payout$/m);
    expect(out).toMatch(/^status +completed$/m);

    const b = await createPayout('settle-2');
    const body = json<{ operation_id: string; status: string }>(
      await runCli(['sandbox', 'settle', b, '--failed', '--json'], { env }),
    );
    expect(body).toMatchObject({ operation_id: b, status: 'rejected' });
  });

  it('exactly one of --completed and --failed, else a usage error', async () => {
    const id = await createPayout('settle-3');
    const neither = await runCli(['sandbox', 'settle', id], { env });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--completed or --failed');
    const both = await runCli(['sandbox', 'settle', id, '--completed', '--failed'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
  });
});

describe('sandbox review', () => {
  async function toManualCheck(clientId: string): Promise<string> {
    const id = await createPayment(clientId);
    const confirm = await runCli(
      ['payment', 'confirm', id, '--receipt', 'fixtures/receipts/fake-photoshop.pdf', '--json'],
      { env },
    );
    expect(json<{ status: string }>(confirm).status).toBe('manual_check');
    return id;
  }

  it('--approve completes a payment sent to manual_check by a fake receipt', async () => {
    const id = await toManualCheck('x+receipt');
    const out = ok(await runCli(['sandbox', 'review', id, '--approve'], { env }));
    expect(out).toMatch(/^status +completed$/m);
    expect(out).toMatch(/^actual_amount +1500\.00 RUB$/m);
  });

  it('--decline --json rejects it; --amount with --decline and no decision are usage errors', async () => {
    const id = await toManualCheck('x2+receipt');
    expect((await runCli(['sandbox', 'review', id, '--decline', '--amount', '10.00'], { env })).code).toBe(2);
    expect((await runCli(['sandbox', 'review', id], { env })).code).toBe(2);
    expect(
      json<{ status: string }>(await runCli(['sandbox', 'review', id, '--decline', '--json'], { env })).status,
    ).toBe('rejected');
  });
});

describe('state shows receipts and the evidence status', () => {
  let id: string;
  const moid = `cli-receipt-${Date.now()}`;
  beforeAll(async () => {
    id = await createPayment('y+receipt', moid);
    const confirm = await runCli(['payment', 'confirm', id, '--receipt', 'fixtures/receipts/ok-1500.pdf', '--json'], {
      env,
    });
    expect(json<{ status: string }>(confirm).status).toBe('completed');
  });

  it('human: status, evidence complete, a receipts table with the signed receipt_url', async () => {
    const out = ok(await runCli(['state', id], { env }));
    expect(out).toMatch(/^status +completed$/m);
    expect(out).toMatch(/^receipt_evidence_status +complete$/m);
    const lines = out.split('\n');
    const head = lines.findIndex((l) => /^receipts$/.test(l));
    expect(head).toBeGreaterThan(0);
    expect(lines[head + 1]).toMatch(/^id +amount +completed_at +receipt_url$/);
    expect(lines[head + 2]).toMatch(
      new RegExp(`^${UUID.source} +1500\\.00 RUB +\\S+Z +${baseUrl.replace(/[.]/g, '\\.')}/storage/\\S+$`),
    );
  });

  it('--json is unchanged: exactly the body of get_operation_state', async () => {
    const body = json(await runCli(['state', id, '--json'], { env }));
    expect(body).toEqual(await api('POST', '/v1/get_operation_state', 'key', { operation_id: id }));
    expect(body).toMatchObject({ receipt_evidence_status: 'complete', receipts: [{ amount: 1500 }] });
  });

  it('a payer transfer has partial evidence: receipt_url shown as —', async () => {
    const paid = await createPayment('payer-4');
    ok(await runCli(['sandbox', 'pay', paid], { env }));
    const out = ok(await runCli(['state', paid], { env }));
    expect(out).toMatch(/^receipt_evidence_status +partial$/m);
    expect(out).toMatch(new RegExp(`^${UUID.source} +1500\\.00 RUB +\\S+Z +—$`, 'm'));
  });

  describe('evidence switched off', () => {
    afterAll(async () => {
      await runCli(['sandbox', 'evidence', '--on'], { env });
    });

    it('evidence: show, --off, then state by id exits 1 (evidence_unavailable) and by merchant id shows unavailable', async () => {
      expect(ok(await runCli(['sandbox', 'evidence'], { env }))).toMatch(/^available +true\b/m);
      expect(json(await runCli(['sandbox', 'evidence', '--json'], { env }))).toEqual({ available: true });

      expect(ok(await runCli(['sandbox', 'evidence', '--off'], { env }))).toMatch(/^available +false\b/m);
      expect(await api('GET', '/sandbox/evidence', 'admin')).toEqual({ available: false });

      const byId = await runCli(['state', id], { env });
      expect(byId.code).toBe(1);
      expect(byId.stderr).toContain('evidence_unavailable');

      const byMoid = ok(await runCli(['state', '--merchant-operation-id', moid], { env }));
      expect(byMoid).toMatch(/^receipt_evidence_status +unavailable$/m);
      expect(byMoid).toMatch(/^receipts\n.*evidence is unavailable/m);

      expect(json(await runCli(['sandbox', 'evidence', '--on', '--json'], { env }))).toEqual({ available: true });
      expect((await runCli(['state', id], { env })).code).toBe(0);
    });

    it('--on with --off is a usage error', async () => {
      expect((await runCli(['sandbox', 'evidence', '--on', '--off'], { env })).code).toBe(2);
    });
  });
});

describe('sandbox operations', () => {
  it('human: an aligned table, statuses, amounts with currency, and "N of TOTAL"', async () => {
    const total = json<{ total: number }>(await runCli(['sandbox', 'operations', '--json'], { env })).total;
    expect(total).toBeGreaterThan(3);
    const out = ok(await runCli(['sandbox', 'operations', '--limit', '3'], { env }));
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^operation_id +type +status +method +expected_amount +actual_amount$/);
    const rows = lines.slice(1, 4);
    for (const row of rows)
      expect(row).toMatch(
        new RegExp(`^${UUID.source} +(payment|payout) +\\w+ +WT_RUB_C2C +\\d+\\.\\d{2} RUB +\\d+\\.\\d{2} RUB$`),
      );
    // Amounts right-aligned: every row (and the header) ends at the same column.
    expect(new Set([lines[0]!.length, ...rows.map((r) => r.length)]).size).toBe(1);
    expect(lines.at(-1)).toBe(`3 of ${total}`);
  });

  it('--type and --status filter; --json is exactly the body', async () => {
    const payouts = json<{ total: number; operations: { type: string; status: string }[] }>(
      await runCli(['sandbox', 'operations', '--type', 'payout', '--status', 'completed', '--json'], { env }),
    );
    expect(payouts.total).toBeGreaterThanOrEqual(1);
    expect(payouts.operations.every((o) => o.type === 'payout' && o.status === 'completed')).toBe(true);
    expect(payouts).toEqual(await api('GET', '/sandbox/operations?type=payout&status=completed', 'key'));

    const paged = await runCli(
      ['sandbox', 'operations', '--status', 'completed', '--limit', '1', '--offset', '1', '--json'],
      { env },
    );
    expect(json(paged)).toEqual(await api('GET', '/sandbox/operations?status=completed&limit=1&offset=1', 'key'));

    const human = ok(await runCli(['sandbox', 'operations', '--type', 'payout', '--status', 'manual_check'], { env }));
    expect(human).toContain('no operations');
    expect(human.trimEnd().split('\n').at(-1)).toBe('0 of 0');
  });

  it('bad --status, --type or --limit are usage errors', async () => {
    for (const args of [
      ['--status', 'done'],
      ['--type', 'refund'],
      ['--limit', '0'],
      ['--offset', '-1'],
    ]) {
      const r = await runCli(['sandbox', 'operations', ...args], { env });
      expect(r.code, args.join(' ')).toBe(2);
    }
  });
});

describe('operation history', () => {
  it('human: summary, then the transitions in order and the upload with its review rule', async () => {
    const moid = `cli-history-${Date.now()}`;
    const id = await createPayment('h+receipt', moid);
    json(
      await runCli(['payment', 'confirm', id, '--receipt', 'fixtures/receipts/fake-photoshop.pdf', '--json'], { env }),
    );
    ok(await runCli(['sandbox', 'review', id, '--approve'], { env }));

    const out = ok(await runCli(['operation', 'history', id], { env }));
    expect(out).toMatch(new RegExp(`^operation_id +${id}$`, 'm'));
    expect(out).toMatch(new RegExp(`^merchant_operation_id +${moid}$`, 'm'));
    expect(out).toMatch(/^status +completed$/m);
    expect(out).toMatch(/^created_at +\S+Z$/m);
    const lines = out.split('\n');
    const h = lines.indexOf('history');
    expect(lines[h + 1]).toMatch(/^at +from → to +cause$/);
    expect(lines[h + 2]).toMatch(/^\S+Z +— → awaiting_confirmation +\S/);
    expect(lines[h + 3]).toMatch(/^\S+Z +awaiting_confirmation → manual_check +\S/);
    expect(lines[h + 4]).toMatch(/^\S+Z +manual_check → completed +\S/);
    const u = lines.indexOf('uploads');
    expect(lines[u + 1]).toMatch(/review\.rule/);
    expect(lines[u + 2]).toMatch(/fake-photoshop\.pdf .* manual_check +potential_fake$/);
  });

  it('--merchant-operation-id --json is exactly the body', async () => {
    const moid = `cli-history-json-${Date.now()}`;
    const id = await createPayment('history-2', moid);
    const body = json<{ history: { from: string | null; to: string }[] }>(
      await runCli(['operation', 'history', '--merchant-operation-id', moid, '--json'], { env }),
    );
    expect(body).toEqual(await api('GET', `/sandbox/operations/${id}`, 'key'));
    expect(body.history.map((e) => [e.from, e.to])).toEqual([[null, 'pending']]);
  });

  it('an unknown operation is exit 1 (404)', async () => {
    const r = await runCli(['operation', 'history', '00000000-0000-4000-8000-000000000000'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('operation_not_found');
  });
});

describe('secrets', () => {
  it('the admin token never appeared in full in any output (it is only ever input)', () => {
    const all = transcript.join('\n');
    expect(transcript.length).toBeGreaterThan(50);
    expect(all).not.toContain(ADMIN);
    expect(all).not.toContain(key);
  });
});
