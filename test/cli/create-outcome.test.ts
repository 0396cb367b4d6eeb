// The creates' outcomes, in process: a rejected create says why (the cause the sandbox recorded), --expect-status
// fails with exit 1 after printing the operation, a create waiting on a frozen clock says so and how to advance it,
// payouts ask for their method's destination fields, Ctrl+C at a prompt exits 130, confirm by merchant_operation_id.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIError } from '../../src/client/errors.js';
import type { Paygate } from '../../src/client/index.js';
import { confirmPayment, createLink, createPayment } from '../../src/cli/commands/payment/run.js';
import { createPayout } from '../../src/cli/commands/payout/run.js';
import { slowCreateHint } from '../../src/cli/create-outcome.js';
import type { CreateOptions } from '../../src/cli/commands/create-flags.js';
import { InterruptedError, UnexpectedStatusError, UsageError } from '../../src/cli/errors.js';
import { describeError } from '../../src/cli/report-error.js';
import { useSandbox } from '../helpers/sandbox.js';
import { inProcessDeps, type InProcessDeps } from './run-deps.js';

const prompts = vi.hoisted(() => ({ input: vi.fn(), select: vi.fn(), confirm: vi.fn() }));
vi.mock('@inquirer/prompts', () => prompts);

const ADMIN = 'pg_admin_outcome_test';
const sandbox = useSandbox({ per: 'file', frozenClock: true, startTime: '2026-01-01T00:00:00Z', adminToken: ADMIN });

const CREATE: CreateOptions = {
  method: 'WT_RUB_C2C',
  amount: '1500.00',
  currency: 'RUB',
  clientId: 'outcome-user',
  json: false,
};
const keyA = (): string => sandbox.keyOf('shop_a');

beforeEach(() => {
  prompts.input.mockReset();
  prompts.select.mockReset();
});

describe('a rejected create says why', () => {
  it.each([
    [
      'payment refused by every provider',
      'shop_a',
      { clientId: 'outcome-user+reject' },
      /^Rejected: no_provider_accepted: no provider on the route accepted it/m,
    ],
    [
      'payment above the route maximum',
      'shop_a',
      { amount: '400000.00' },
      /^Rejected: amount_out_of_route_limits: the amount is outside the route's minimum and maximum$/m,
    ],
    [
      'payment on a method the shop has no route for',
      'shop_b',
      { method: 'WT_RUB_PHONE' },
      /^Rejected: no_route: the shop has no route for this method and currency$/m,
    ],
  ] as const)('%s', async (_, shop, change, reason) => {
    const deps = inProcessDeps(sandbox, { apiKey: sandbox.keyOf(shop) });
    await createPayment({ ...CREATE, ...change }, deps);
    expect(deps.output.stdout).toMatch(/^status +rejected$/m);
    expect(deps.output.stdout).toMatch(reason);
  });

  it('payout beyond balance plus overdraft', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: sandbox.keyOf('shop_b') });
    await createPayout({ ...CREATE, amount: '300000.00', number: '2200700000000004' }, deps);
    expect(deps.output.stdout).toMatch(
      /^Rejected: insufficient_funds: the balance plus overdraft does not cover the payout and its commission$/m,
    );
  });

  it('--json: stdout is exactly the body, the reason a note on stderr', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    await createPayment(
      { ...CREATE, clientId: 'outcome-json+reject', merchantOperationId: `rej-${Date.now()}`, json: true },
      deps,
    );
    expect(JSON.parse(deps.output.stdout)).toMatchObject({ status: 'rejected' });
    expect(deps.output.stderr).toMatch(/^rejected: no_provider_accepted: /m);
  });

  it('an accepted create prints no reason', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    await createPayment(CREATE, deps);
    expect(deps.output.stdout).not.toContain('Rejected');
  });
});

describe('--expect-status', () => {
  it('another status: the operation is printed, then an UnexpectedStatusError (exit 1) naming both and the reason', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    const error = await createPayment({ ...CREATE, clientId: 'expect+reject', expectStatus: 'pending' }, deps).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnexpectedStatusError);
    expect(error).toMatchObject({ exitCode: 1, code: 'unexpected_status' });
    expect((error as Error).message).toMatch(/^expected status pending, got rejected \(no_provider_accepted: /);
    expect(deps.output.stdout).toMatch(/^status +rejected$/m);
    expect(describeError(error)).toMatchObject({ exitCode: 1, code: 'unexpected_status' });
  });

  it('the same status: success', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    await createPayment({ ...CREATE, expectStatus: 'pending' }, deps);
    await createPayout({ ...CREATE, amount: '100.00', number: '2200700000000004', expectStatus: 'pending' }, deps);
    await createLink({ ...CREATE, flexible: false, expectStatus: 'pending' }, deps);
    expect(deps.output.stdout.match(/^status +pending$/gm)).toHaveLength(3);
  });
});

describe('a create waiting on a provider while the sandbox clock is frozen', () => {
  /** Advance the sandbox clock by 15 s as soon as the command says `trigger` under its spinner. */
  function advanceOnHint(deps: InProcessDeps, trigger: string): void {
    const spin = deps.output.spin;
    deps.output.spin = (text, work) =>
      spin(text, (say) =>
        work((t) => {
          say(t);
          if (t.includes(trigger)) void sandbox.admin.sandbox.clock.advance('15s');
        }),
      );
    deps.slowAfterMs = 0;
  }

  it('with the admin token: says the clock is frozen and how to advance it, instead of the 15 s text', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA(), adminToken: ADMIN });
    advanceOnHint(deps, 'frozen');
    await createPayment({ ...CREATE, clientId: 'frozen+slow' }, deps);
    expect(deps.output.spinners).toEqual([
      'Creating payment (the gateway may wait up to 15 s for a provider)…',
      'Waiting for the provider: the sandbox clock is frozen, so its answer (at most 15 s of sandbox time) comes only when time moves. In another terminal: paygate sandbox time advance 15s',
    ]);
    expect(deps.output.stdout).toMatch(/^status +pending$/m);
  });

  it('without the admin token (the clock cannot be read): what to do if it is frozen', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    advanceOnHint(deps, 'If the sandbox clock is frozen');
    await createPayout(
      { ...CREATE, clientId: 'frozen-payout+slow', number: '2200700000000004', amount: '100.00' },
      deps,
    );
    expect(deps.output.spinners[1]).toBe(
      'Still waiting for the provider (up to 15 s). If the sandbox clock is frozen, advance it in another terminal: paygate sandbox time advance 15s --admin-token <token>',
    );
  });

  it('a create answered at once says nothing more', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA(), adminToken: ADMIN });
    await createPayment(CREATE, deps);
    expect(deps.output.spinners).toHaveLength(1);
  });

  it('nothing when the clock runs, on a server without sandbox controls or one that cannot be reached', async () => {
    const fake = (clock: () => Promise<unknown>): Paygate =>
      ({ sandbox: { clock: { get: clock } } }) as unknown as Paygate;
    expect(
      await slowCreateHint(fake(async () => ({ now: '2026-01-01T00:00:00.000Z', frozen: false, pending_timers: 1 }))),
    ).toBeUndefined();
    const notFound = APIError.from({
      status: 404,
      endpoint: 'GET /sandbox/clock',
      headers: {},
      body: { code: 'not_found', message: 'no such endpoint' },
    });
    expect(await slowCreateHint(fake(() => Promise.reject(notFound)))).toBeUndefined();
    expect(
      await slowCreateHint(fake(() => Promise.reject(new APIConnectionError('GET /sandbox/clock failed to connect')))),
    ).toBeUndefined();
    const refused = APIError.from({
      status: 401,
      endpoint: 'GET /sandbox/clock',
      headers: {},
      body: { code: 'invalid_admin_token', message: 'no' },
    });
    expect(await slowCreateHint(fake(() => Promise.reject(refused)))).toMatch(/^Still waiting for the provider/);
  });
});

describe('payout destination fields', () => {
  it('without a TTY: every missing one named at once, --bankname for WT_RUB_PHONE only', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    await expect(createPayout(CREATE, deps)).rejects.toMatchObject({
      message: 'missing required option --number',
      exitCode: 2,
    });
    await expect(createPayout({ ...CREATE, method: 'WT_RUB_PHONE', amount: undefined }, deps)).rejects.toMatchObject({
      message: 'missing required options --amount, --number, --bankname',
    });
    expect(deps.output.stdout).toBe('');
  });

  it('on a terminal: asked for after the method, which decides whether a bank code is needed; the bank from a list', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    deps.interactive = true;
    prompts.select.mockResolvedValueOnce('WT_RUB_PHONE').mockResolvedValueOnce('sber');
    prompts.input.mockResolvedValueOnce('79001234567');
    await createPayout({ ...CREATE, method: undefined, amount: '100.00', json: true }, deps);
    expect(prompts.input.mock.calls.map((c) => (c[0] as { message: string }).message)).toEqual([
      'Destination number (card number; phone number for WT_RUB_PHONE)',
    ]);
    // The bank is a list, like the method: the RUB banks of the sandbox world (fixtures/default.json), then a way out.
    const bankPrompt = prompts.select.mock.calls[1]![0] as {
      message: string;
      choices: { name: string; value: string }[];
    };
    expect(bankPrompt.message).toBe('Destination bank');
    expect(bankPrompt.choices.map((c) => c.value).slice(0, -1)).toEqual([
      'sber',
      'tcs',
      'alfa',
      'vtb',
      'raif',
      'gazprom',
      'ozon',
      'psb',
      'sovcom',
      'mts',
    ]);
    expect(bankPrompt.choices[0]!.name).toMatch(/^sber +Сбербанк$/);
    expect(bankPrompt.choices.at(-1)!.name).toBe('another bank code…');
    const body = JSON.parse(deps.output.stdout) as { operation_id: string; method: string; bankname: string };
    expect(body.method).toBe('WT_RUB_PHONE');
    expect(body.bankname).toBe('sber');
    const details = await sandbox.client.sandbox.operations.details({ operation_id: body.operation_id });
    expect(details.operation.status).not.toBe('rejected');
  });

  it("the bank list is the payout currency's banks of PAYGATE_FIXTURES when set (as sandbox start reads it)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-banks-'));
    try {
      const banks = [
        { code: 'sber', name: 'Сбербанк', currency: 'RUB' },
        { code: 'chase', name: 'Chase', currency: 'USD' },
        { code: 'alfa', name: 'Альфа-Банк', currency: 'RUB' },
      ];
      writeFileSync(join(dir, 'world.json'), JSON.stringify({ banks }));
      vi.stubEnv('PAYGATE_FIXTURES', join(dir, 'world.json'));
      const deps = inProcessDeps(sandbox, { apiKey: keyA() });
      deps.interactive = true;
      prompts.select.mockResolvedValueOnce('alfa');
      await createPayout(
        { ...CREATE, method: 'WT_RUB_PHONE', number: '79001234567', amount: '100.00', clientId: 'bank-list' },
        deps,
      );
      const bankPrompt = prompts.select.mock.calls[0]![0] as { choices: { value: string }[] };
      expect(bankPrompt.choices.map((c) => c.value).slice(0, -1)).toEqual(['sber', 'alfa']);
      expect(deps.output.stdout).toMatch(/^bankname +alfa/m);
    } finally {
      vi.unstubAllEnvs();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on a terminal, a bank code the gateway refuses is asked for again, with the codes it takes', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    deps.interactive = true;
    // First 'another bank code…' and a code the sandbox world does not have, then a bank from the list.
    prompts.select
      .mockImplementationOnce(async (config: { choices: { value: string }[] }) => config.choices.at(-1)!.value)
      .mockResolvedValueOnce('tcs');
    prompts.input.mockResolvedValueOnce('chase');
    await createPayout(
      { ...CREATE, method: 'WT_RUB_PHONE', number: '79001234567', amount: '100.00', clientId: 'bank-again' },
      deps,
    );
    expect(prompts.input.mock.calls.map((c) => (c[0] as { message: string }).message)).toEqual([
      'Destination bank code (e.g. sber)',
    ]);
    expect(prompts.select).toHaveBeenCalledTimes(2);
    expect(deps.output.stderr).toContain(
      'unknown_bank: bankname chase is not in the RUB bank dictionary; the RUB banks are sber, tcs, alfa, vtb, raif, gazprom, ozon, psb, sovcom, mts',
    );
    expect(deps.output.stdout).toMatch(/^bankname +tcs/m);
  });

  it('without a terminal, a refused --bankname is the error, naming the codes; no prompt and no "check the flags"', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    const error = await createPayout(
      { ...CREATE, method: 'WT_RUB_PHONE', number: '79001234567', bankname: 'chase', amount: '100.00' },
      deps,
    ).catch((e: unknown) => e);
    expect(prompts.select).not.toHaveBeenCalled();
    expect(prompts.input).not.toHaveBeenCalled();
    const report = describeError(error);
    expect(report).toMatchObject({ code: 'unknown_bank', exitCode: 1 });
    expect(report.message).toContain('the RUB banks are sber, tcs, alfa');
    expect(report.hint).toBe('pass --bankname with one of the codes the message lists');
  });

  it('a card payout asks for the number only', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    deps.interactive = true;
    prompts.input.mockResolvedValueOnce('2200700000000004');
    await createPayout({ ...CREATE, amount: '100.00' }, deps);
    expect(prompts.input).toHaveBeenCalledTimes(1);
    expect(deps.output.stdout).toMatch(/^type +payout$/m);
  });

  it('Ctrl+C at a prompt: InterruptedError, exit 130, nothing sent', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    deps.interactive = true;
    prompts.input.mockRejectedValueOnce(
      Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' }),
    );
    const error = await createPayout({ ...CREATE, clientId: 'ctrl-c' }, deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(describeError(error)).toMatchObject({ exitCode: 130, code: 'interrupted' });
    const listed = await sandbox.client.sandbox.operations.list({ type: 'payout', limit: 1000 });
    expect(listed.operations.some((o) => o.method === 'WT_RUB_C2C' && o.expected_amount === '1500.00')).toBe(false);
  });
});

describe('payment confirm --merchant-operation-id', () => {
  it('finds the payment by its merchant_operation_id and uploads the receipt to it', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    const moid = `confirm-${Date.now()}`;
    await createPayment(
      { ...CREATE, method: 'WT_RUB_PHONE', clientId: 'confirm+receipt', merchantOperationId: moid, json: true },
      deps,
    );
    const created = JSON.parse(deps.output.stdout) as { operation_id: string; status: string };
    expect(created.status).toBe('awaiting_confirmation');
    const confirm = inProcessDeps(sandbox, { apiKey: keyA() });
    await confirmPayment({ merchantOperationId: moid, receipt: 'fixtures/receipts/ok-1500.pdf', json: true }, confirm);
    const confirmed = JSON.parse(confirm.output.stdout) as { operation_id: string; status: string };
    expect(confirmed.operation_id).toBe(created.operation_id);
    expect(confirmed.status).not.toBe('awaiting_confirmation');
  });

  it('exactly one of <operation_id> and --merchant-operation-id, checked before the API is reached', async () => {
    const deps = inProcessDeps(sandbox, { apiKey: keyA() });
    await expect(confirmPayment({ receipt: 'x.pdf', json: false }, deps)).rejects.toBeInstanceOf(UsageError);
    await expect(
      confirmPayment({ operationId: 'a', merchantOperationId: 'b', receipt: 'x.pdf', json: false }, deps),
    ).rejects.toThrow('not both');
    expect(deps.connects).toEqual([]);
  });
});
