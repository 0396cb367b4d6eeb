// The runner: wait_for on a frozen clock (moves the clock just far enough) and on a real one (polls), background
// steps and await, unique values and seeds, parallel isolation, --bail, and running against a sandbox listening
// on 127.0.0.1 in place of an in-process one (webhooks through a real receiver), or one that cannot be reached.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/emulator/index.js';
import { noAdminTokenWarning } from '../../src/scenarios/admin.js';
import { TargetUnreachableError } from '../../src/scenarios/errors.js';
import { parseScenario } from '../../src/scenarios/load.js';
import { runScenarios } from '../../src/scenarios/run.js';
import { runOneScenario } from '../../src/scenarios/run-scenario.js';
import { callById } from '../../src/scenarios/http.js';
import { CREATE, mismatchesOf, runYaml } from './helpers.js';

const PAYOUT = `
  - id: payout
    call: payout.create
    with: { merchant_operation_id: "\${{ unique.p }}", client_id: bob, method: WT_RUB_C2C, amount: "1000.00", currency: RUB, number: "2200700000000004" }`;

describe('wait_for', () => {
  it('on a frozen clock advances to the settlement timer, not further', async () => {
    const r = await runYaml(`name: w\nsteps:${PAYOUT}
  - wait_for: { status: completed }
    expect:
      operation: { status: completed, receipt_evidence_status: partial }
      balance_delta: { RUB: { reserved: "-1040.00" } }
  - call: clock.show
    expect: { body: { now: "2026-03-01T12:00:05.000Z" } }`);
    expect(r.status).toBe('passed');
    expect(r.steps[1]!.note).toBe('sandbox clock advanced 5s');
  });

  it('on a frozen clock fails when the status is not reached within the timeout, and leaves the clock there', async () => {
    const r = await runYaml(`name: w\nsteps:${CREATE()}
  - wait_for: { status: completed, timeout: 10m }
  - call: clock.show`);
    expect(mismatchesOf(r)).toEqual(['operation.status: "completed" / "pending"']);
    expect(r.steps[1]!.mismatches[0]!.note).toBe('still not reached after 10m of sandbox time');
    // What the report says the clock moved is what the wait enforced: the expiry lies beyond, so the clock moved 10m.
    expect(r.steps[1]!.note).toBe('sandbox clock advanced 10m');

    const expired = await runYaml(`name: w\nsteps:${CREATE()}
  - wait_for: { status: [completed, rejected] }
    expect: { webhooks: [operation.rejected] }
  - call: clock.show
    expect: { body: { now: "2026-03-01T12:30:00.000Z" } }`);
    expect(mismatchesOf(expired)).toEqual([]);
    expect(expired.steps[1]!.note).toBe('sandbox clock advanced 30m');
  });

  it('stops at a terminal status that is not the awaited one; the duration said is the one waited', async () => {
    const r = await runYaml(`name: w\nsteps:${CREATE()}\n  - wait_for: { status: completed }\n`);
    expect(mismatchesOf(r)).toEqual(['operation.status: "completed" / "rejected"']);
    expect(r.steps[1]!.mismatches[0]!.note).toBe(
      'reached rejected, a terminal status, while waiting for completed (after 30m of sandbox time)',
    );
    expect(r.steps[1]!.note).toBe('sandbox clock advanced 30m');

    // A payment in manual_check has no timer: the clock moves to the default timeout, and both say 1h.
    const stuck = await runYaml(`name: w\nsteps:${CREATE(undefined, '+receipt')}
  - call: payment.confirm
    with: { operation_id: "\${{ steps.create.operation_id }}", receipt: { file: ../fixtures/receipts/not-a-pdf.png, content_type: image/png } }
    expect: { operation_status: manual_check }
  - wait_for: { status: completed }\n`);
    expect(stuck.steps[2]!.mismatches[0]!.note).toBe('still not reached after 1h of sandbox time');
    expect(stuck.steps[2]!.note).toBe('sandbox clock advanced 1h');

    const polls: number[] = [];
    const real = await runYaml(
      `name: w\nclock: real\nsteps:${CREATE()}\n  - wait_for: { status: completed, timeout: 2h }\n`,
      {
        pollMs: 600_000,
        sleep: async (ms, target) => {
          polls.push(ms);
          await callById(target, 'clock.advance', { by: ms }, target.defaultShop);
        },
      },
    );
    expect(real.steps[1]!.mismatches[0]!.note).toBe(
      'reached rejected, a terminal status, while waiting for completed (after 30m of real time)',
    );
    expect(polls).toEqual([600_000, 600_000, 600_000]);
  });

  it('on a real clock polls until the status (the poll waits are where time passes)', async () => {
    const polls: number[] = [];
    const r = await runYaml(
      `name: w\nclock: real\nsteps:${PAYOUT}\n  - wait_for: { status: completed, timeout: 20s }\n`,
      {
        pollMs: 1000,
        // The sandbox clock follows real time here; each poll "waits" by moving it, so the test never does.
        sleep: async (ms, target) => {
          polls.push(ms);
          await callById(target, 'clock.advance', { by: ms }, target.defaultShop);
        },
      },
    );
    expect(r.status).toBe('passed');
    expect(polls).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(r.steps[1]!.note).toBe('polled for 5s');

    const late = await runYaml(
      `name: w\nclock: real\nsteps:${PAYOUT}\n  - wait_for: { status: completed, timeout: 3s }\n`,
      {
        pollMs: 1000,
        sleep: async (ms, target) => void (await callById(target, 'clock.advance', { by: ms }, target.defaultShop)),
      },
    );
    expect(mismatchesOf(late)).toEqual(['operation.status: "completed" / "pending"']);
    expect(late.steps[1]!.mismatches[0]!.note).toBe('still not reached after 3s of real time');
  });
});

describe('background steps', () => {
  it('a cancel by merchant_operation_id wins over a create still waiting for its +slow provider', async () => {
    const r = await runYaml(`name: race\nsteps:${CREATE('race-1', '+slow')}
    background: true
  - call: operation.state
    with: { merchant_operation_id: race-1 }
    expect: { status: 404, code: operation_not_found }
  - call: operation.cancel
    with: { merchant_operation_id: race-1, reason: customer left }
    expect: { body: { outcome: cancelled, operation.status: cancelled, operation.number: { absent: true } } }
  - call: clock.advance
    with: { by: 10s }
  - await: create
    expect: { body: { status: cancelled, number: { absent: true } } }
  - call: operation.state
    with: { operation_id: "\${{ steps.create.operation_id }}" }
    expect: { body: { status: cancelled } }`);
    expect(r.steps.map((s) => [s.label, s.status, s.note])).toEqual([
      ['payment.create', 'passed', 'sent in the background'],
      ['operation.state', 'passed', undefined],
      ['operation.cancel', 'passed', undefined],
      ['clock.advance', 'passed', undefined],
      ['await create', 'passed', undefined],
      ['operation.state', 'passed', undefined],
    ]);
  });

  it('a reference to a background step before its await is an error of that step', async () => {
    const r = await runYaml(`name: early\nsteps:${CREATE('e-1', '+slow')}
    background: true
  - call: operation.state
    with: { operation_id: "\${{ steps.create.operation_id }}" }`);
    expect(r.steps[1]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('step "create" is still running in the background (await it first)'),
    });
  });
});

describe('unique values and seeds', () => {
  const text = `name: u\nvariables:\n  a: \${{ unique.order }}\n  b: "\${{ unique.order }}/\${{ unique.other }}"\nsteps:${CREATE('${{ vars.a }}')}\n    expect: { body: { status: pending } }\n`;

  it('are the same within a run, differ between runs, and repeat with a seed', async () => {
    const s = parseScenario(text, 'scenarios/u.yaml');
    const sent = async (seed?: number) => {
      const r = await runOneScenario(s, seed === undefined ? {} : { seed });
      return (r.steps[0]!.request!.body as { merchant_operation_id: string }).merchant_operation_id;
    };
    const [x, y, z1, z2] = [await sent(), await sent(), await sent(7), await sent(7)];
    expect(x).toMatch(/^order-[0-9a-f]{10}$/);
    expect(x).not.toBe(y);
    expect(z1).toBe(z2);
    expect(z1).not.toBe(x);
  });
});

describe('running many', () => {
  const balance = (n: number) => `name: isolated ${n}
steps:
  - id: payout
    call: payout.create
    with: { merchant_operation_id: same-key, client_id: bob, method: WT_RUB_C2C, amount: "${n}000.00", currency: RUB, number: "2200700000000004" }
    expect: { body: { expected_amount: "${n}000.00" } }
  - call: balances.list
    expect: { balances: { RUB: { reserved: "\${{ steps.payout.settlement_amount }}" } } }
`;

  it('in parallel, each scenario has its own sandbox (same keys, no interference)', async () => {
    const scenarios = [1, 2, 3, 4, 5, 6].map((n) => parseScenario(balance(n), `scenarios/iso-${n}.yaml`));
    const started: string[] = [];
    const summary = await runScenarios(scenarios, { concurrency: 6, onScenarioStart: (s) => started.push(s.name) });
    expect(summary).toMatchObject({ passed: 6, failed: 0, skipped: 0, target: 'in-process' });
    expect(started).toHaveLength(6);
    expect(summary.results.map((r) => r.name)).toEqual(scenarios.map((s) => s.name));
  });

  it('--bail starts nothing after a failure', async () => {
    const bad = parseScenario(
      'name: bad\nsteps:\n  - call: balances.list\n    expect: { status: 500 }\n',
      'scenarios/bad.yaml',
    );
    const good = parseScenario('name: good\nsteps:\n  - call: balances.list\n', 'scenarios/good.yaml');
    const summary = await runScenarios([bad, good, good], { concurrency: 1, bail: true });
    expect(summary.results.map((r) => r.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(summary.results[1]!.error).toBe('not run: --bail after a failure');
  });
});

describe('against a running sandbox (--base-url)', () => {
  let running: RunningSandbox | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("a --key for the scenario's own shop wins over the general API key (PAYGATE_API_KEY)", async () => {
    running = await startSandbox({ frozenClock: true, adminToken: 'pg_admin_remote_keys' });
    const s = parseScenario(
      `name: pool shop\nshop: shop_pool\nsteps:\n  - call: balances.list\n    expect: { status: 200 }\n`,
      'scenarios/pool-keys.yaml',
    );
    const keys = { shop_pool: 'pg_test_pool_9Ub4Rn2TgK7mXa1C' };
    const withKey = await runScenarios([s], {
      remote: {
        baseUrl: running.baseUrl,
        adminToken: 'pg_admin_remote_keys',
        apiKey: 'pg_test_not_a_key_at_all_000',
        keys,
      },
    });
    expect(withKey.results[0]!.status).toBe('passed');
    // Without --key for it, the general key is the shop's: a key the sandbox does not know is a 401.
    const without = await runScenarios([s], {
      remote: { baseUrl: running.baseUrl, adminToken: 'pg_admin_remote_keys', apiKey: 'pg_test_not_a_key_at_all_000' },
    });
    expect(without.results[0]!.status).toBe('failed');
  });

  it('runs the steps over HTTP with the fixture keys, the admin token and a receiver on 127.0.0.1', async () => {
    running = await startSandbox({
      frozenClock: true,
      startTime: '2026-03-01T12:00:00Z',
      adminToken: 'pg_admin_remote_test',
    });
    const s = parseScenario(
      `name: remote\nsteps:${CREATE()}
    expect: { webhooks: [operation.pending] }
  - call: operations.pay
    with: { id: "\${{ steps.create.operation_id }}", amount: "1400.00" }
    expect:
      operation: { status: completed, actual_amount: "1400.00" }
      balance_delta: { RUB: { balance: "1365.00" } }
      webhooks: [operation.completed]
  - id: payout
    call: payout.create
    with: { merchant_operation_id: "\${{ unique.p }}", client_id: bob, method: WT_RUB_C2C, amount: "1000.00", currency: RUB, number: "2200700000000004" }
  - wait_for: { status: completed }
    expect: { webhooks: [operation.completed] }
`,
      'scenarios/remote.yaml',
    );
    const summary = await runScenarios([s], {
      remote: { baseUrl: running.baseUrl, adminToken: 'pg_admin_remote_test' },
    });
    expect(summary.results[0]!.steps.map((st) => [st.status, st.error ?? st.mismatches])).toEqual(
      new Array(4).fill(['passed', []]),
    );
    expect(summary.target).toBe(running.baseUrl);
    // The receiver's endpoint was removed when the scenario ended.
    const list = await running.sandbox.fetch(
      new Request(`${running.baseUrl}/sandbox/webhooks`, { headers: { 'x-api-key': 'pg_test_a_7Hq2Lm9XwR4tNc8V' } }),
    );
    expect(((await list.json()) as { webhooks: unknown[] }).webhooks).toEqual([]);
  });

  it('without the admin token, a wait_for and a control step fail at once saying so; a step about the token runs', async () => {
    running = await startSandbox({ frozenClock: true, adminToken: 'pg_admin_remote_none' });
    const wait = parseScenario(
      `name: no token\nsteps:${PAYOUT}\n  - wait_for: { status: completed }\n`,
      'scenarios/no-token.yaml',
    );
    const control = parseScenario(
      'name: no token\nsteps:\n  - call: clock.advance\n    with: { by: 1000 }\n',
      'scenarios/no-token-control.yaml',
    );
    const refused = parseScenario(
      'name: refused\nsteps:\n  - call: clock.show\n    expect: { status: 401, code: missing_admin_token }\n',
      'scenarios/refused.yaml',
    );
    const summary = await runScenarios([wait, control, refused], { remote: { baseUrl: running.baseUrl } });
    const [w, c, r] = summary.results;
    expect(w!.steps.map((st) => st.status)).toEqual(['passed', 'failed']);
    expect(w!.steps[1]!.error).toBe(
      'wait_for could not read or move the sandbox clock: no admin token was given (pass --admin-token or set PAYGATE_ADMIN_TOKEN; from code, remote.adminToken)',
    );
    expect(c!.steps[0]!.error).toMatch(
      /^the sandbox control clock.advance could not be called: no admin token was given/,
    );
    expect(r!.status).toBe('passed');
    expect(noAdminTokenWarning([wait, control, refused], true)).toBe(
      'warning: no admin token was given (pass --admin-token or set PAYGATE_ADMIN_TOKEN; from code, remote.adminToken): the sandbox is not reset before each scenario (what earlier runs left stays, reserves included); 2 of 3 scenarios move the sandbox clock (wait_for) or call controls that take the token: on a sandbox those steps fail at once',
    );
    expect(noAdminTokenWarning([refused], false)).toBeUndefined();
  });

  it('skips a scenario with its own fixtures; an unreachable base URL is TargetUnreachableError', async () => {
    running = await startSandbox({});
    const own = parseScenario(
      'name: own\nfixtures: ../fixtures/default.json\nsteps:\n  - call: health.livez\n',
      'scenarios/own.yaml',
    );
    const summary = await runScenarios([own], { remote: { baseUrl: running.baseUrl } });
    expect(summary.results[0]).toMatchObject({
      status: 'skipped',
      error: expect.stringContaining('needs its own fixtures'),
    });
    const port = new URL(running.baseUrl).port;
    await running.close();
    running = undefined;
    await expect(runScenarios([own], { remote: { baseUrl: `http://127.0.0.1:${port}` } })).rejects.toBeInstanceOf(
      TargetUnreachableError,
    );
  });
});
