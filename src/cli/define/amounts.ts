// `paygate availability` and `paygate recommend`: flags, help and typed options (run: commands/amounts.ts).
import type { Command } from 'commander';
import { action, type Parsed } from '../action.js';
import { example, flag, num, parseIntIn, str } from './shared.js';

const run = () => import('../commands/amounts.js');

/** The required fields are asked for on a TTY. */
export interface AvailabilityOptions {
  method?: string | undefined;
  currency?: string | undefined;
  minAmount?: string | undefined;
  maxAmount?: string | undefined;
  json: boolean;
}

export interface RecommendOptions extends AvailabilityOptions {
  /** The amount the payer wants to pay. */
  amount?: string | undefined;
  /** How many suggestions, 1 to 10. Default: the server's (3). */
  limit?: number | undefined;
}

function availabilityOptions({ opts }: Parsed): AvailabilityOptions {
  return { method: str(opts.method), currency: str(opts.currency), minAmount: str(opts.minAmount), maxAmount: str(opts.maxAmount), json: flag(opts.json) };
}

function recommendOptions(parsed: Parsed): RecommendOptions {
  return { ...availabilityOptions(parsed), amount: str(parsed.opts.amount), limit: num(parsed.opts.limit) };
}

export function defineAmounts(program: Command): void {
  program
    .command('availability')
    .description('available payment amount intervals (GET /v1/payment/availability)')
    .option('--method <method>', 'payment method, e.g. WT_RUB_C2C')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. RUB')
    .option('--min-amount <amount>', 'lower end of the range to check')
    .option('--max-amount <amount>', 'upper end of the range to check')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', `
Prints coverage (whether every provider of the route is a pool), whether the list was truncated, and the intervals
as "min … max" rows, both ends inclusive (a single amount when both ends are equal). Advisory: nothing is reserved.
${example(`
  $ paygate availability --method WT_RUB_C2C --currency RUB --min-amount 100.00 --max-amount 5000.00
  $ paygate availability --method WT_RUB_C2C --currency RUB --min-amount 500.00 --max-amount 50000.00 --json`)}`)
    .action(action(availabilityOptions, async () => (await run()).availability));

  program
    .command('recommend')
    .description('nearby payable amounts (POST /v1/payment/recommendations)')
    .option('--method <method>', 'payment method, e.g. WT_RUB_C2C')
    .option('--currency <code>', 'ISO 4217 currency code, e.g. RUB')
    .option('--amount <amount>', 'the amount the payer wants to pay')
    .option('--min-amount <amount>', 'lowest amount the payer accepts')
    .option('--max-amount <amount>', 'highest amount the payer accepts')
    .option('--limit <n>', 'how many suggestions, 1 to 10 (server default 3)', parseIntIn(1, 10, 'an integer from 1 to 10'))
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', `
Prints the suggestions best first, each with its signed delta from --amount (+300.00, −4,700.00), then the
intervals; --json is the body as received (delta "-4700.00").
${example(`
  $ paygate recommend --method WT_RUB_C2C --currency RUB --amount 1500.00 --min-amount 1000.00 --max-amount 2000.00 --limit 5`)}`)
    .action(action(recommendOptions, async () => (await run()).recommend));
}
