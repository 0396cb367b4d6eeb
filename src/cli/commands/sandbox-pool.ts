// `paygate sandbox pool layout | show | settings`: the self-matching pools (docs/pool.md). layout lays out payouts of
// the key's shop (shop API key); show and settings are admin controls.
import { connect } from '../api.js';
import { METHOD_FIELD } from '../create-request.js';
import { UsageError } from '../errors.js';
import { show } from '../output.js';
import { layoutView, poolStateView, readSettingsView } from '../pool-views.js';
import { amountProblem, checkAmounts, fillRequired, type RequiredField } from '../prompts.js';

type Opts = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const LAYOUT_EXAMPLE =
  '`paygate sandbox pool layout --method WT_RUB_C2C --amounts 1500.00,2500.00` or `paygate sandbox pool layout --method WT_RUB_C2C --count 2000 --min 500.00 --max 50000.00`';
/** A layout of this many payouts can take a while: the one call may wait this long (it is not retried after a timeout). */
const LAYOUT_TIMEOUT_MS = 300_000;
const MAX_LAYOUT = 100_000;

const MIN_FIELD: RequiredField = { key: 'min', flag: '--min', kind: 'amount', message: 'Lowest payout amount (e.g. 500.00)' };
const MAX_FIELD: RequiredField = { key: 'max', flag: '--max', kind: 'amount', message: 'Highest payout amount (e.g. 50000.00)' };
const COUNT_FIELD: RequiredField = { key: 'count', flag: '--count', kind: 'text', message: 'How many payouts (1 to 100000)' };

/** `"1500.5"` → 150050n. Only for amounts already checked by the contract's amount rule. */
function cents(amount: string): bigint {
  const [int, frac = ''] = amount.split('.');
  return BigInt(int!) * 100n + BigInt(frac.padEnd(2, '0'));
}

/** `--amounts 1500.00,2500.00`: every item checked by the contract's amount rule, in the order given. */
async function amountList(value: string): Promise<string[]> {
  const items = value.split(',').map((s) => s.trim());
  if (items.length > MAX_LAYOUT) throw new UsageError(`--amounts has ${items.length} amounts; at most ${MAX_LAYOUT} per layout`, 'split it into several layouts');
  for (const [i, item] of items.entries()) {
    if (item === '') throw new UsageError(`--amounts: item ${i + 1} is empty`, 'separate amounts with single commas, e.g. --amounts 1500.00,2500.00');
    const problem = await amountProblem(item);
    if (problem) throw new UsageError(`--amounts: "${item}" (item ${i + 1}) ${problem}`, 'amounts are decimals with at most 2 decimals, e.g. 1500.00');
  }
  return items;
}

export async function layout(opts: Opts): Promise<void> {
  const list = str(opts.amounts);
  const generated = ['count', 'min', 'max', 'step', 'seed'].filter((k) => opts[k] !== undefined);
  if (list !== undefined && generated.length > 0) {
    throw new UsageError(`pass either --amounts or --count/--min/--max, not both (got --amounts and --${generated[0]})`, LAYOUT_EXAMPLE);
  }
  if (list === undefined && generated.length === 0) throw new UsageError('missing --amounts, or --count with --min and --max', LAYOUT_EXAMPLE);
  const { client } = connect(opts);
  await fillRequired(opts, [METHOD_FIELD]);
  const method = str(opts.method)!;

  if (list !== undefined) {
    const amounts = await amountList(list);
    await show(
      opts,
      `Laying out ${amounts.length} payout${amounts.length === 1 ? '' : 's'} in the pool…`,
      () => client.sandbox.pool.layout({ method, amounts }, { timeout: LAYOUT_TIMEOUT_MS }),
      (res) => layoutView(res, method),
    );
    return;
  }

  await fillRequired(opts, [COUNT_FIELD, MIN_FIELD, MAX_FIELD]);
  const count = typeof opts.count === 'number' ? opts.count : Number(opts.count);
  if (!Number.isInteger(count) || count < 1 || count > MAX_LAYOUT || !/^\d+$/.test(String(opts.count))) {
    throw new UsageError(`--count "${String(opts.count)}" must be an integer from 1 to ${MAX_LAYOUT}`);
  }
  await checkAmounts(opts, { min: '--min', max: '--max', step: '--step' });
  const min = str(opts.min)!;
  const max = str(opts.max)!;
  const step = str(opts.step);
  if (cents(min) > cents(max)) throw new UsageError(`--min ${min} is above --max ${max}`, 'swap them, or pass --min lower than --max');
  const seed = typeof opts.seed === 'number' ? opts.seed : undefined;
  const generate = { count, min, max, ...(step !== undefined ? { step } : {}), ...(seed !== undefined ? { seed } : {}) };
  await show(
    opts,
    `Laying out ${count} payout${count === 1 ? '' : 's'} in the pool (a large layout takes a while)…`,
    () => client.sandbox.pool.layout({ method, generate }, { timeout: LAYOUT_TIMEOUT_MS }),
    (res) => layoutView(res, method),
  );
}

export async function showPool(opts: Opts): Promise<void> {
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  const method = str(opts.method);
  const limit = typeof opts.limit === 'number' ? opts.limit : undefined;
  await show(opts, 'Reading the pools…', () => client.sandbox.pool.show({ method, limit }), (res) => poolStateView(res, method));
}

/** `readLatency` is already milliseconds (program.ts parses `1500ms`, `2s`); `rateLimit` is `on` or `off`. */
export async function settings(opts: Opts): Promise<void> {
  const { client } = connect(opts, { needKey: false, needAdminToken: true });
  const latency = typeof opts.readLatency === 'number' ? opts.readLatency : undefined;
  const rate = str(opts.rateLimit);
  if (latency === undefined && rate === undefined) {
    await show(opts, 'Reading the pool read settings…', () => client.sandbox.pool.settings(), readSettingsView);
    return;
  }
  const patch = { ...(latency !== undefined ? { read_latency_ms: latency } : {}), ...(rate !== undefined ? { rate_limit: rate === 'on' } : {}) };
  await show(opts, 'Changing the pool read settings…', () => client.sandbox.pool.updateSettings(patch), readSettingsView);
}
