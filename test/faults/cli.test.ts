// `paygate sandbox faults set | list | clear` as a subprocess against a sandbox of this process, and the exit code of
// the binary for a fault of each status class (docs/exit-codes.md): 4xx and 5xx answers exit 1, an unhealthy probe 1,
// every attempt's answer lost 3, a fault the spec does not allow 2. Needs dist/ (npx tsc -p tsconfig.json).
import { describe, expect, it, vi } from 'vitest';
import { json, ok, usage, useLiveSandbox } from '../cli/live-sandbox.js';
import { runCli } from '../cli/run-cli.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_faults_bin_0123456789';
const live = useLiveSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: ADMIN,
  shop: 'shop_a',
});
const UUID = '00000000-0000-4000-8000-000000000000';
const PAYMENT = [
  'payment',
  'create',
  '--method',
  'WT_RUB_C2C',
  '--amount',
  '1500.00',
  '--currency',
  'RUB',
  '--client-id',
  'bin-1',
];

interface Fault {
  id: string;
  endpoint: string;
  status?: number;
  code?: string;
  remaining: number | null;
  matched: number;
  fired: number;
}

const cli = (...args: string[]) => runCli(args, { env: live.env });
const setFault = async (...flags: string[]): Promise<Fault> =>
  json<Fault>(await cli('sandbox', 'faults', 'set', ...flags, '--json'));
/** `set --replace`: the answer is the list, this fault alone. */
const onlyFault = async (...flags: string[]): Promise<Fault> => {
  const { faults } = json<{ faults: Fault[] }>(await cli('sandbox', 'faults', 'set', ...flags, '--replace', '--json'));
  expect(faults).toHaveLength(1);
  return faults[0]!;
};

describe('paygate sandbox faults', () => {
  it('set adds a fault (--json is the body), list shows it in a table, clear removes it', async () => {
    const f = await setFault('--endpoint', 'balances.list', '--status', '500', '--count', '2');
    expect(f).toMatchObject({ endpoint: 'balances.list', status: 500, code: 'accounting_inconsistent', remaining: 2 });
    expect(await live.api('GET', '/sandbox/faults', 'admin')).toEqual({ faults: [{ ...f }] });
    const table = ok(await cli('sandbox', 'faults', 'list'));
    expect(table).toMatch(
      new RegExp(
        `^${f.id} +balances.list +500 accounting_inconsistent +every shop +next 2 \\(2 left\\) +0 +0 +control$`,
        'm',
      ),
    );
    expect(ok(await cli('sandbox', 'faults', 'clear', '--id', f.id))).toContain('1 fault removed');
    expect(json<{ faults: Fault[] }>(await cli('sandbox', 'faults', 'list', '--json'))).toEqual({ faults: [] });
  });

  it('a status the endpoint cannot answer is a usage error naming the ones it can; nothing is sent', async () => {
    usage(
      await cli('sandbox', 'faults', 'set', '--endpoint', 'payout.create', '--status', '503'),
      'can answer 400, 401, 412, 429',
    );
    usage(
      await cli('sandbox', 'faults', 'set', '--endpoint', 'balances.list', '--status', '503', '--latency', '1s'),
      'exactly one of --status, --latency or --drop-response',
    );
    usage(await cli('sandbox', 'faults', 'set', '--status', '503'), 'missing --endpoint');
    expect(await live.api('GET', '/sandbox/faults', 'admin')).toEqual({ faults: [] });
  });

  it('set --drift adds a drift (list shows what it changes); a drift missing its parameter is a usage error', async () => {
    const f = await onlyFault('--endpoint', 'payout.create', '--drift', 'remove_field', '--field', 'settlement_amount');
    expect(f).toMatchObject({
      endpoint: 'payout.create',
      kind: 'drift',
      drift: 'remove_field',
      field: 'settlement_amount',
    });
    const changed = await setFault(
      '--endpoint',
      'balances.list',
      '--drift',
      'change_field',
      '--field',
      'balances.0.reserved',
      '--value',
      '"9.99"',
    );
    expect(changed).toMatchObject({ drift: 'change_field', value: '9.99' });
    const table = ok(await cli('sandbox', 'faults', 'list'));
    expect(table).toMatch(new RegExp(`^${f.id} +payout.create +drift remove_field settlement_amount +every shop`, 'm'));
    expect(table).toMatch(/drift change_field balances\.0\.reserved = "9\.99"/);
    usage(
      await cli(
        'sandbox',
        'faults',
        'set',
        '--endpoint',
        'payout.create',
        '--drift',
        'rename_field',
        '--field',
        'name',
      ),
      '--to: rename_field needs --to',
    );
    ok(await cli('sandbox', 'faults', 'clear'));
  });

  it.each([['faults'], ['faults', 'set'], ['faults', 'list'], ['faults', 'clear']])(
    'sandbox %s --help has an example',
    async (...cmd) => {
      const r = await cli('sandbox', ...cmd, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Examples:');
      expect(r.stdout).toContain('paygate sandbox faults');
    },
  );
});

describe('the exit code of each status class', () => {
  it('4xx: exit 1 with the code on stderr', async () => {
    await onlyFault('--endpoint', 'payment.availability', '--status', '412', '--code', 'shop_unavailable');
    const r = await cli(
      'availability',
      '--method',
      'WT_RUB_C2C',
      '--currency',
      'RUB',
      '--min-amount',
      '100.00',
      '--max-amount',
      '200.00',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('shop_unavailable: the shop is unavailable for creation (HTTP 412');
  });

  it('500: exit 1 (not retried)', async () => {
    const f = await onlyFault('--endpoint', 'balances.list', '--status', '500');
    const r = await cli('balances');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('accounting_inconsistent');
    expect((await live.api('GET', '/sandbox/faults', 'admin')) as { faults: Fault[] }).toEqual({
      faults: [expect.objectContaining({ id: f.id, fired: 1 })],
    });
  });

  it('503 on cancel: retried, then exit 1 with the outcome unknown', async () => {
    await onlyFault('--endpoint', 'operation.cancel', '--status', '503', '--code', 'cancel_not_durable');
    const r = await cli('payment', 'cancel', UUID);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cancel outcome unknown');
    expect(r.stderr).toContain('cancel_not_durable');
    expect(((await live.api('GET', '/sandbox/faults', 'admin')) as { faults: Fault[] }).faults[0]!.fired).toBe(3);
  });

  it('an unhealthy probe: exit 1', async () => {
    await onlyFault('--endpoint', 'health.readyz', '--status', '503');
    const r = await cli('health');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^readyz +unhealthy +503$/m);
  });

  it('a lost answer: the CLI retries the create with the same merchant_operation_id; every answer lost is exit 3', async () => {
    await onlyFault('--endpoint', 'payment.create', '--drop-response', '--count', '1');
    const once = json<{ operation_id: string }>(
      await cli(...PAYMENT, '--merchant-operation-id', 'bin-drop-1', '--json'),
    );
    await onlyFault('--endpoint', 'payment.create', '--drop-response');
    const r = await cli(...PAYMENT, '--merchant-operation-id', 'bin-drop-2');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('paygate state --merchant-operation-id bin-drop-2');
    await cli('sandbox', 'faults', 'clear');
    const read = json<{ operation_id: string }>(await cli('state', '--merchant-operation-id', 'bin-drop-2', '--json'));
    expect(read.operation_id).not.toBe(once.operation_id);
    const history = ok(await cli('operation', 'history', read.operation_id));
    expect(history).toContain('injected faults');
    expect(history).toMatch(/payment\.create +drop response +flt_\d+/);
  });
});
