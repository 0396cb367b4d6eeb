// The commands' run functions called directly, with no binary and no socket: typed options in, a client over an
// in-process sandbox, an Output that records what is printed. Shows the define / run seam of the CLI.
import { beforeAll, describe, expect, it } from 'vitest';
import { balances } from '../../src/cli/commands/balances/run.js';
import { createPayment } from '../../src/cli/commands/payment/run.js';
import { time } from '../../src/cli/commands/sandbox/time/run.js';
import { state } from '../../src/cli/commands/state/run.js';
import type { CreateOptions } from '../../src/cli/commands/create-flags.js';
import { UsageError } from '../../src/cli/errors.js';
import { useSandbox } from '../helpers/sandbox.js';
import { inProcessDeps } from './run-deps.js';

const ADMIN = 'pg_admin_run_test';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const sandbox = useSandbox({ per: 'file', frozenClock: true, startTime: '2026-01-01T00:00:00Z', adminToken: ADMIN });
let key: string;
beforeAll(() => {
  key = sandbox.keyOf('shop_a');
});

const CREATE: CreateOptions = {
  method: 'WT_RUB_C2C',
  amount: '1500.00',
  currency: 'RUB',
  clientId: 'run-user-1',
  json: false,
};

describe('payment create', () => {
  it('human: the operation with the generated merchant_operation_id; nothing on stderr', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: key });
    await createPayment(CREATE, deps);
    const out = deps.output.stdout;
    expect(out).toMatch(new RegExp(`^merchant_operation_id +${UUID.source} \\(generated\\)$`, 'm'));
    expect(out).toMatch(/^operation_id +[0-9a-f-]{36}$/m);
    expect(out).toMatch(/^status +(pending|awaiting_confirmation)$/m);
    expect(out).toMatch(/^expected_amount +1500\.00 RUB$/m);
    expect(deps.output.stderr).toBe('');
    expect(deps.output.spinners).toEqual(['Creating payment (the gateway may wait up to 15 s for a provider)…']);
  });

  it('--json: stdout is the body; the generated id is noted on stderr and names the same operation', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: key });
    await createPayment({ ...CREATE, json: true }, deps);
    const body = JSON.parse(deps.output.stdout) as { operation_id: string; type: string };
    expect(body.type).toBe('payment');
    const moid = deps.output.stderr.match(
      new RegExp(`^merchant_operation_id: (${UUID.source}) \\(generated\\)$`, 'm'),
    )?.[1];
    expect(moid).toBeDefined();
    const read = await deps.client.operations.get({ merchant_operation_id: moid! });
    expect(read.operation_id).toBe(body.operation_id);
  });

  it('a given --merchant-operation-id is sent as is and shown, not generated', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: key });
    const moid = `run-${Date.now()}`;
    await createPayment({ ...CREATE, merchantOperationId: moid }, deps);
    expect(deps.output.stdout).toMatch(new RegExp(`^merchant_operation_id +${moid}$`, 'm'));
    const shown = inProcessDeps(sandbox, { apiKey: key });
    await state({ merchantOperationId: moid, json: false }, shown);
    expect(shown.output.stdout).toMatch(new RegExp(`^merchant_operation_id +${moid}$`, 'm'));
  });

  it('without a TTY a missing flag is a UsageError naming it; nothing is printed', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: key });
    const { amount: _, ...noAmount } = CREATE;
    const error = await createPayment(noAmount, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toMatchObject({ message: 'missing required option --amount', exitCode: 2 });
    expect(deps.output.stdout + deps.output.stderr).toBe('');
  });
});

describe('state', () => {
  it('flag errors come before the client is reached', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: key });
    await expect(state({ json: false }, deps)).rejects.toThrow('missing <operation_id> or --merchant-operation-id');
    await expect(state({ operationId: 'a', merchantOperationId: 'b', json: false }, deps)).rejects.toThrow('not both');
    expect(deps.connects).toEqual([]);
  });
});

describe('balances', () => {
  it("human: a table of the shop's balances", async () => {
    const deps = inProcessDeps(sandbox, { apiKey: key });
    await balances({ json: false }, deps);
    const lines = deps.output.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^currency +balance +reserved +current_minus$/);
    expect(lines.some((l) => /^RUB +-?[0-9]+\.[0-9]{2} RUB /.test(l))).toBe(true);
    // A key is needed (the default); with only an admin token the error points at --all-shops.
    expect(deps.connects).toEqual([{ withAdminTokenOnly: 'paygate balances --all-shops' }]);
  });

  it('--json: exactly the body the API gives', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: key });
    await balances({ json: true }, deps);
    expect(JSON.parse(deps.output.stdout)).toEqual(await deps.client.balances.list());
  });
});

describe('sandbox time', () => {
  it('asks for the admin token, not a key, and prints the frozen clock', async () => {
    const deps = inProcessDeps(sandbox, { adminToken: ADMIN });
    await time({ json: true }, deps);
    expect(deps.connects).toEqual([{ needKey: false, needAdminToken: true }]);
    expect(JSON.parse(deps.output.stdout)).toMatchObject({ frozen: true });
  });
});
