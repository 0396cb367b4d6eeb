// `paygate sandbox pool layout | show | settings`: flags, help and typed options (run: run.ts).
import { Option, type Command } from 'commander';
import {
  action,
  adminExample,
  example,
  flag,
  JSON_HELP,
  num,
  parseInteger,
  parseIntIn,
  REQUIRED,
  str,
  type Parsed,
} from '../../shared.js';

const run = () => import('./run.js');

/** Either `amounts`, or `count` with `min` and `max` (and optionally `step`, `seed`); checked by the command. */
export interface LayoutOptions {
  /** Payment method of the payouts; asked for on a TTY. */
  method?: string | undefined;
  /** Comma-separated amounts, in matching order. */
  amounts?: string | undefined;
  /** Generate this many amounts, 1 to 100000 (a number from the flag, a string when typed at the prompt). */
  count?: number | undefined;
  min?: string | undefined;
  max?: string | undefined;
  /** Amounts are `min` plus multiples of this. Default: the server's (1.00). */
  step?: string | undefined;
  /** The generator seed. Default: the server's (1). */
  seed?: number | undefined;
  json: boolean;
}

export interface PoolShowOptions {
  /** Only this method's windows. */
  method?: string | undefined;
  /** How many slots of each window to list, 0 to 1000. Default: the server's (20). */
  limit?: number | undefined;
  json: boolean;
}

/** Neither field: show the settings. */
export interface PoolSettingsOptions {
  /** Read latency as typed (`1500ms`, `1.5s`, `1500`; read when the command runs). */
  readLatency?: string | undefined;
  rateLimit?: 'on' | 'off' | undefined;
  json: boolean;
}

function layoutOptions({ opts }: Parsed): LayoutOptions {
  return {
    method: str(opts.method),
    amounts: str(opts.amounts),
    count: num(opts.count),
    min: str(opts.min),
    max: str(opts.max),
    step: str(opts.step),
    seed: num(opts.seed),
    json: flag(opts.json),
  };
}

const showOptions = ({ opts }: Parsed): PoolShowOptions => ({
  method: str(opts.method),
  limit: num(opts.limit),
  json: flag(opts.json),
});

function settingsOptions({ opts }: Parsed): PoolSettingsOptions {
  const rate = str(opts.rateLimit);
  return {
    readLatency: str(opts.readLatency),
    rateLimit: rate === 'on' || rate === 'off' ? rate : undefined,
    json: flag(opts.json),
  };
}

/** `paygate sandbox pool layout | show | settings` (docs/pool.md). */
export function defineSandboxPool(sandboxCmd: Command): void {
  const poolCmd = sandboxCmd
    .command('pool')
    .description(
      'the self-matching pools: lay out payouts (shop key), show slots and free remainders, set the read simulation (admin token)',
    );
  poolCmd.addHelpText(
    'after',
    `
A payout routed to a self-matching pool becomes a slot; payments take a slot's whole free remainder, or a piece of at
least min_piece that leaves at least min_remainder (500.00 / 500.00 in the default fixtures). layout takes the API key
of a shop whose payout route is pooled (shop_pool in the default fixtures); show and settings take the admin token.
${example(`
  $ paygate sandbox pool layout --method WT_RUB_C2C --amounts 1500.00,2500.00,25000.00 --api-key pg_test_pool_xxxx
  $ paygate sandbox pool show --method WT_RUB_C2C --limit 10
  $ paygate sandbox pool settings --read-latency 1500ms`)}`,
  );
  defineLayout(poolCmd);
  poolCmd
    .command('show')
    .description(
      'the pool windows (pool × method): open slots, free total, and the first slots with amount, claimed, paid and free (GET /sandbox/pool; admin token)',
    )
    .option('--method <method>', "only this method's windows, e.g. WT_RUB_C2C")
    .option(
      '--limit <n>',
      'how many slots of each window to list, 0 to 1000 (server default 20)',
      parseIntIn(0, 1000, 'an integer from 0 to 1000'),
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox pool show
  $ paygate sandbox pool show --method WT_RUB_C2C --limit 100 --json`),
    )
    .action(action(showOptions, async () => (await run()).showPool));
  poolCmd
    .command('settings')
    .description(
      'show, or change, the amount-read simulation: read latency and the per-shop rate limit (GET|POST /sandbox/pool/settings; admin token)',
    )
    .option(
      '--read-latency <duration>',
      'how long each availability / recommendations read takes, in sandbox time: 1500ms, 1.5s, 2s, or milliseconds; 0 to 60s',
    )
    .addOption(
      new Option('--rate-limit <on|off>', 'the limit of 5 amount reads per second per shop (off lifts it)').choices([
        'on',
        'off',
      ]),
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      `
Without a flag it shows the settings. With --read-latency each read holds the replica's only read slot that long,
so a concurrent read gets 503 read_capacity_exhausted and one over 2 s gets 503 read_timeout; on a frozen clock the
read answers when you \`paygate sandbox time advance\`.
${adminExample(`
  $ paygate sandbox pool settings
  $ paygate sandbox pool settings --read-latency 1500ms
  $ paygate sandbox pool settings --read-latency 0 --rate-limit off --json`)}`,
    )
    .action(action(settingsOptions, async () => (await run()).settings));
}

function defineLayout(poolCmd: Command): void {
  poolCmd
    .command('layout')
    .description(
      "lay out payouts of the key's shop in the pool its payout route reaches, in matching order (POST /sandbox/pool/layout)",
    )
    .option('--method <method>', `payment method of the payouts, e.g. WT_RUB_C2C${REQUIRED}`)
    .option(
      '--amounts <list>',
      'comma-separated amounts, in matching order, e.g. 1500.00,2500.00 (or use --count/--min/--max)',
    )
    .option(
      '--count <n>',
      'generate this many amounts, 1 to 100000',
      parseIntIn(1, 100_000, 'an integer from 1 to 100000'),
    )
    .option('--min <amount>', 'with --count: the lowest amount, e.g. 500.00')
    .option('--max <amount>', 'with --count: the highest amount, e.g. 50000.00')
    .option('--step <amount>', 'with --count: amounts are --min plus multiples of this (server default 1.00)')
    .option(
      '--seed <n>',
      'with --count: the generator seed; the same seed gives the same amounts (server default 1)',
      parseInteger,
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      `
Each payout goes through the ordinary create rules: its amount plus commission is reserved from the shop's balance,
and one outside the route's limits is rejected (counted in "rejected"). Needs the API key of a shop whose payout route
is pooled; any other is 412 not_pool_route.
${example(`
  $ paygate sandbox pool layout --method WT_RUB_C2C --amounts 1500.00,2500.00 --api-key pg_test_pool_xxxx
  $ paygate sandbox pool layout --method WT_RUB_C2C --count 2000 --min 500.00 --max 50000.00 --step 100.00 --seed 1
  $ PAYGATE_API_KEY=pg_test_pool_xxxx paygate sandbox pool layout --method WT_RUB_C2C --count 10000 --min 500.00 --max 50000.00 --json`)}`,
    )
    .action(action(layoutOptions, async () => (await run()).layout));
}
