// `paygate sandbox faults set | list | clear`: flags, help and typed options (run: run.ts).
import { InvalidArgumentError, type Command } from 'commander';
import {
  action,
  adminExample,
  flag,
  JSON_HELP,
  jsonOptions,
  num,
  parseInteger,
  parseIntIn,
  str,
  type Parsed,
} from '../../shared.js';

const run = () => import('./run.js');

/** One fault (checked by the command against the spec's table): exactly one of status, latency or dropResponse. */
export interface FaultSetOptions {
  /** The gateway endpoint's dotted id, e.g. `operation.cancel`. */
  endpoint?: string | undefined;
  /** The status to answer. */
  status?: number | undefined;
  /** Which of the spec's cases of that status (an error code). Default: the first the spec lists. */
  code?: string | undefined;
  /** Latency as typed (`1500ms`, `2s`, `1500`; read when the command runs). */
  latency?: string | undefined;
  /** Let the request run and commit, then close the connection. */
  dropResponse: boolean;
  /** Change the successful answer instead: remove_field, rename_field, change_field, out_of_order, extra_status. */
  drift?: string | undefined;
  /** With a field drift: the field of the answer, dotted. */
  field?: string | undefined;
  /** With rename_field: the new name. */
  to?: string | undefined;
  /** With change_field (or out_of_order): the value as typed — JSON, else the text itself. */
  value?: string | undefined;
  /** Only this shop's requests. Default: every shop. */
  shop?: string | undefined;
  /** Only the next N matching requests. */
  count?: number | undefined;
  /** Each matching request with this probability (with `seed`). */
  probability?: number | undefined;
  seed?: number | undefined;
  /** Make this the only fault (PUT) instead of adding it (POST). Default false. */
  replace: boolean;
  json: boolean;
}

export interface FaultClearOptions {
  /** Remove only this fault. Default: every fault. */
  id?: string | undefined;
  json: boolean;
}

function parseProbability(value: string): number {
  const n = Number(value);
  if (!/^(0|1)?(\.\d+)?$/.test(value) || !(n > 0 && n <= 1))
    throw new InvalidArgumentError('must be a number greater than 0 and at most 1, e.g. 0.25');
  return n;
}

function setOptions({ opts }: Parsed): FaultSetOptions {
  return {
    endpoint: str(opts.endpoint),
    status: num(opts.status),
    code: str(opts.code),
    latency: str(opts.latency),
    dropResponse: flag(opts.dropResponse),
    drift: str(opts.drift),
    field: str(opts.field),
    to: str(opts.to),
    value: str(opts.value),
    shop: str(opts.shop),
    count: num(opts.count),
    probability: num(opts.probability),
    seed: num(opts.seed),
    replace: flag(opts.replace),
    json: flag(opts.json),
  };
}

const clearOptions = ({ opts }: Parsed): FaultClearOptions => ({ id: str(opts.id), json: flag(opts.json) });

export function defineSandboxFaults(sandboxCmd: Command): void {
  const faultsCmd = sandboxCmd
    .command('faults')
    .description(
      'fault injection: make a gateway endpoint answer a failure status of the spec, add latency, lose its answer after the write, or drift from the contract (admin token)',
    );
  faultsCmd.addHelpText(
    'after',
    `
A fault acts on one gateway endpoint (its dotted id: payment.create, payment.link, payment.flexible_link,
payout.create, payment.confirm, operation.state, operation.cancel, balances.list, payment.availability,
payment.recommendations, health.livez, health.healthz, health.readyz), after the key is checked, for one shop or
all, for the next N requests, with a seeded probability, or until cleared. The status must be one the spec lists for
the endpoint. A drift changes a successful answer instead (a field removed, renamed or changed, a status out of
order, a status code the contract does not declare). See docs/faults.md.
${adminExample(`
  $ paygate sandbox faults set --endpoint operation.cancel --status 503 --count 3
  $ paygate sandbox faults list
  $ paygate sandbox faults clear`)}`,
  );
  defineSet(faultsCmd);
  faultsCmd
    .command('list')
    .description('the faults in force, with how often each matched and fired (GET /sandbox/faults)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox faults list
  $ paygate sandbox faults list --json`),
    )
    .action(action(jsonOptions, async () => (await run()).listFaults));
  faultsCmd
    .command('clear')
    .description('remove every fault (DELETE /sandbox/faults), or one with --id')
    .option('--id <id>', 'remove only this fault, e.g. flt_2 (see `paygate sandbox faults list`)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox faults clear
  $ paygate sandbox faults clear --id flt_2 --json`),
    )
    .action(action(clearOptions, async () => (await run()).clearFaults));
}

/** `sandbox faults set`: what a fault does (a status, latency, a lost answer), on which requests, how often. */
function defineSet(faultsCmd: Command): void {
  faultsCmd
    .command('set')
    .description(
      'add a fault next to those in force (POST /sandbox/faults), or make it the only one with --replace (PUT)',
    )
    .option('--endpoint <id>', 'the gateway endpoint, e.g. operation.cancel, balances.list, payment.availability')
    .option(
      '--status <code>',
      'answer this HTTP status (one the spec lists for the endpoint)',
      parseIntIn(100, 599, 'an HTTP status such as 503'),
    )
    .option(
      '--code <code>',
      "with --status: which of the spec's cases, e.g. cancel_not_durable (default: the first listed)",
    )
    .option(
      '--latency <duration>',
      'hold each request this long in sandbox time before it runs: 1500ms, 2s, or milliseconds; at most 10m',
    )
    .option('--drop-response', 'let the request run (its write lands), then close the connection without an answer')
    .option(
      '--drift <kind>',
      'change the successful answer instead: remove_field, rename_field, change_field, out_of_order, extra_status (with --status)',
    )
    .option(
      '--field <path>',
      'with a field drift: the field of the answer, dotted, e.g. settlement_amount, operation.status',
    )
    .option('--to <name>', 'with --drift rename_field: the new name')
    .option(
      '--value <json>',
      'with --drift change_field: the value (JSON, else text); with out_of_order: the status shown',
    )
    .option('--shop <id>', "only requests made with this shop's key, e.g. shop_b (default: every shop)")
    .option(
      '--count <n>',
      'only the next N matching requests (default: every one, until cleared)',
      parseIntIn(1, 1_000_000, 'an integer from 1 to 1000000'),
    )
    .option(
      '--probability <p>',
      'each matching request with this probability, 0 < p <= 1, drawn from --seed',
      parseProbability,
    )
    .option('--seed <n>', 'with --probability: the same seed hits the same requests (default 0)', parseInteger)
    .option('--replace', 'remove every other fault first')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      `
Give exactly one of --status, --latency, --drop-response or --drift (--status goes with --drift extra_status), and at
most one of --count or --probability. The answer of a status fault is the spec's error for that case ({code, message})
with the header X-Paygate-Fault: <fault id>. A drift lets the request run and changes what it answers.
${adminExample(`
  $ paygate sandbox faults set --endpoint operation.cancel --status 503 --count 3
  $ paygate sandbox faults set --endpoint payment.availability --status 412 --code shop_unavailable --shop shop_pool
  $ paygate sandbox faults set --endpoint balances.list --status 500 --probability 0.2 --seed 7
  $ paygate sandbox faults set --endpoint payment.create --drop-response --count 1
  $ paygate sandbox faults set --endpoint operation.state --latency 2s --replace --json
  $ paygate sandbox faults set --endpoint payout.create --drift remove_field --field settlement_amount --shop shop_a
  $ paygate sandbox faults set --endpoint operation.state --drift out_of_order --count 1
  $ paygate sandbox faults set --endpoint balances.list --drift change_field --field balances.0.current_minus --value '"9.99"'
  $ paygate sandbox faults set --endpoint payment.create --drift extra_status --status 202`)}`,
    )
    .action(action(setOptions, async () => (await run()).setFault));
}
