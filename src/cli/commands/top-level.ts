// The commands directly under `paygate` that are not groups — availability, recommend, state, balances, health,
// openapi: flags, help and typed options (run: amounts/run.ts, state/run.ts, balances/run.ts, health/run.ts,
// openapi/run.ts). One module (not one define.ts per folder), as the root `--help` needs them all and every module
// adds to its start-up time.
import type { Command } from 'commander';
import {
  action,
  example,
  flag,
  jsonOptions,
  num,
  operationOptions,
  parseIntIn,
  REQUIRED,
  str,
  type JsonOptions,
  type Parsed,
} from './shared.js';

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
  return {
    method: str(opts.method),
    currency: str(opts.currency),
    minAmount: str(opts.minAmount),
    maxAmount: str(opts.maxAmount),
    json: flag(opts.json),
  };
}

function recommendOptions(parsed: Parsed): RecommendOptions {
  return { ...availabilityOptions(parsed), amount: str(parsed.opts.amount), limit: num(parsed.opts.limit) };
}

/** `paygate availability` and `paygate recommend`: advisory amount lookups. */
export function defineAmounts(program: Command): void {
  program
    .command('availability')
    .description('available payment amount intervals (GET /v1/payment/availability)')
    .option('--method <method>', `payment method, e.g. WT_RUB_C2C${REQUIRED}`)
    .option('--currency <code>', `ISO 4217 currency code, e.g. RUB${REQUIRED}`)
    .option('--min-amount <amount>', `lower end of the range to check${REQUIRED}`)
    .option('--max-amount <amount>', `upper end of the range to check${REQUIRED}`)
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText(
      'after',
      `
Prints coverage (whether every provider of the route is a pool), whether the list was truncated, and the intervals
as "min … max" rows, both ends inclusive (a single amount when both ends are equal). Advisory: nothing is reserved.
${example(`
  $ paygate availability --method WT_RUB_C2C --currency RUB --min-amount 100.00 --max-amount 5000.00
  $ paygate availability --method WT_RUB_C2C --currency RUB --min-amount 500.00 --max-amount 50000.00 --json`)}`,
    )
    .action(action(availabilityOptions, async () => (await import('./amounts/run.js')).availability));

  program
    .command('recommend')
    .description('nearby payable amounts (POST /v1/payment/recommendations)')
    .option('--method <method>', `payment method, e.g. WT_RUB_C2C${REQUIRED}`)
    .option('--currency <code>', `ISO 4217 currency code, e.g. RUB${REQUIRED}`)
    .option('--amount <amount>', `the amount the payer wants to pay${REQUIRED}`)
    .option('--min-amount <amount>', `lowest amount the payer accepts${REQUIRED}`)
    .option('--max-amount <amount>', `highest amount the payer accepts${REQUIRED}`)
    .option(
      '--limit <n>',
      'how many suggestions, 1 to 10 (server default 3)',
      parseIntIn(1, 10, 'an integer from 1 to 10'),
    )
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText(
      'after',
      `
Prints the suggestions best first, each with its signed delta from --amount (+300.00, -4700.00), then the
intervals; --json is the body as received.
${example(`
  $ paygate recommend --method WT_RUB_C2C --currency RUB --amount 1500.00 --min-amount 1000.00 --max-amount 2000.00 --limit 5`)}`,
    )
    .action(action(recommendOptions, async () => (await import('./amounts/run.js')).recommend));
}

/** `paygate state [operation_id]`. */
export function defineState(program: Command): void {
  program
    .command('state')
    .description('read the state of an operation (POST /v1/get_operation_state)')
    .argument('[operation_id]', 'the operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the operation was created with')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText(
      'after',
      example(`
  $ paygate state 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate state --merchant-operation-id order-1001 --json`),
    )
    .action(action(operationOptions, async () => (await import('./state/run.js')).state));
}

export interface BalancesOptions extends JsonOptions {
  /** Every shop's balances (GET /sandbox/balances, admin token). Default false: the key's shop. */
  allShops?: boolean | undefined;
}

/** `paygate balances [--all-shops]`. */
export function defineBalances(program: Command): void {
  program
    .command('balances')
    .description(
      "balances of the shop bound to the API key (GET /v1/balances); every shop's with --all-shops (sandbox, admin token)",
    )
    .option('--all-shops', "every shop's balances (GET /sandbox/balances; needs the sandbox admin token)")
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText(
      'after',
      example(`
  $ paygate balances
  $ paygate balances --profile staging --json
  $ paygate balances --all-shops --admin-token "$PAYGATE_ADMIN_TOKEN"`),
    )
    .action(
      action(
        ({ opts }: Parsed): BalancesOptions => ({ json: flag(opts.json), allShops: flag(opts.allShops) }),
        async () => (await import('./balances/run.js')).balances,
      ),
    );
}

/** `paygate health`: the three probes. */
export function defineHealth(program: Command): void {
  program
    .command('health')
    .description('check the livez, healthz and readyz probes (exit 1 when any is unhealthy)')
    .option('--json', 'print the probe results as JSON: {"livez":{"ok":true,"status":204},...}')
    .addHelpText(
      'after',
      example(`
  $ paygate health
  $ paygate health --base-url http://127.0.0.1:4080 --json`),
    )
    .action(action(jsonOptions, async () => (await import('./health/run.js')).health));
}

export interface OpenapiOptions {
  /** The package version, written as info.version. */
  version: string;
}

/** `paygate openapi`: the document is always JSON. */
export function defineOpenapi(program: Command, version: string): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the gateway')
    .option('--json', 'the document is always JSON; accepted like on every command that prints data')
    .addHelpText(
      'after',
      example(`
  $ paygate openapi > openapi.json`),
    )
    .action(
      action(
        (): OpenapiOptions => ({ version }),
        async () => (await import('./openapi/run.js')).openapi,
      ),
    );
}
