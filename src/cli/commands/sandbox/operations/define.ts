// `paygate sandbox pay | settle | review | operations`: flags, help and typed options
// (run: run.ts).
import { Option, type Command } from 'commander';
import { action, example, flag, JSON_HELP, num, parseIntIn, str, type Parsed } from '../../shared.js';
import type { RefOptions } from '../../../operation-ref.js';

const run = () => import('./run.js');

export interface PayOptions extends RefOptions {
  /** What the payer transfers. Default: the expected amount. */
  amount?: string | undefined;
  json: boolean;
}

/** Exactly one of `completed` and `failed` must be set (checked by the command). */
export interface SettleOptions extends RefOptions {
  completed: boolean;
  failed: boolean;
  json: boolean;
}

/** Exactly one of `approve` and `decline` must be set (checked by the command). */
export interface ReviewOptions extends RefOptions {
  approve: boolean;
  decline: boolean;
  /** With `approve`: the approved amount. Default: the receipt's, else the expected amount. */
  amount?: string | undefined;
  json: boolean;
}

export interface ListOperationsOptions {
  /** Only this status (checked against the contract by the command). */
  status?: string | undefined;
  type?: 'payment' | 'payout' | undefined;
  /** Page size, 1 to 1000. Default: the server's (50). */
  limit?: number | undefined;
  /** Skip this many of the newest matching operations. Default 0. */
  offset?: number | undefined;
  json: boolean;
}

const ref = ({ args, opts }: Parsed): RefOptions => ({
  operationId: str(args[0]),
  merchantOperationId: str(opts.merchantOperationId),
});

const payOptions = (p: Parsed): PayOptions => ({ ...ref(p), amount: str(p.opts.amount), json: flag(p.opts.json) });

const settleOptions = (p: Parsed): SettleOptions => ({
  ...ref(p),
  completed: flag(p.opts.completed),
  failed: flag(p.opts.failed),
  json: flag(p.opts.json),
});

function reviewOptions(p: Parsed): ReviewOptions {
  return {
    ...ref(p),
    approve: flag(p.opts.approve),
    decline: flag(p.opts.decline),
    amount: str(p.opts.amount),
    json: flag(p.opts.json),
  };
}

function listOptions({ opts }: Parsed): ListOperationsOptions {
  const type = str(opts.type);
  return {
    status: str(opts.status),
    type: type === 'payment' || type === 'payout' ? type : undefined,
    limit: num(opts.limit),
    offset: num(opts.offset),
    json: flag(opts.json),
  };
}

export function defineSandboxOperations(sandboxCmd: Command): void {
  sandboxCmd
    .command('pay')
    .description(
      "the payer pays a pending payment's requisites, in full or another amount (POST /sandbox/operations/{id}/pay)",
    )
    .argument('[operation_id]', "the payment's operation_id (or use --merchant-operation-id)")
    .option('--merchant-operation-id <id>', 'the idempotency key the payment was created with')
    .option('--amount <amount>', 'what the payer transfers (default: the expected amount), e.g. 900.00')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox pay 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate sandbox pay --merchant-operation-id order-1001 --amount 900.00`),
    )
    .action(action(payOptions, async () => (await run()).pay));

  sandboxCmd
    .command('settle')
    .description('the provider completes or fails a pending payout (POST /sandbox/operations/{id}/settle)')
    .argument('[operation_id]', "the payout's operation_id (or use --merchant-operation-id)")
    .option('--merchant-operation-id <id>', 'the idempotency key the payout was created with')
    .option('--completed', 'the payout is paid out')
    .option('--failed', 'the payout fails: it is rejected and its reserve returns to the balance')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox settle 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --completed
  $ paygate sandbox settle --merchant-operation-id payout-17 --failed --json`),
    )
    .action(action(settleOptions, async () => (await run()).settle));

  defineReview(sandboxCmd);

  sandboxCmd
    .command('operations')
    .description("list the shop's operations, newest first (GET /sandbox/operations)")
    .option(
      '--status <status>',
      'only this status: pending, awaiting_confirmation, manual_check, completed, cancelled, rejected',
    )
    .addOption(new Option('--type <type>', 'only payments or only payouts').choices(['payment', 'payout']))
    .option('--limit <n>', 'page size, 1 to 1000 (server default 50)', parseIntIn(1, 1000, 'an integer from 1 to 1000'))
    .option(
      '--offset <n>',
      'skip this many of the newest matching operations',
      parseIntIn(0, Number.MAX_SAFE_INTEGER, 'an integer ≥ 0'),
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox operations
  $ paygate sandbox operations --status pending --type payout --limit 10 --offset 10`),
    )
    .action(action(listOptions, async () => (await run()).listOperations));
}

function defineReview(sandboxCmd: Command): void {
  sandboxCmd
    .command('review')
    .description('a reviewer approves or declines a payment under manual check (POST /sandbox/operations/{id}/review)')
    .argument('[operation_id]', "the payment's operation_id (or use --merchant-operation-id)")
    .option('--merchant-operation-id <id>', 'the idempotency key the payment was created with')
    .option('--approve', 'complete the payment')
    .option('--decline', 'reject the payment')
    .option(
      '--amount <amount>',
      "with --approve: the approved amount (default: the receipt's, else the expected amount)",
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox review 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --approve
  $ paygate sandbox review 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --approve --amount 1400.00
  $ paygate sandbox review --merchant-operation-id order-1001 --decline`),
    )
    .action(action(reviewOptions, async () => (await run()).review));
}
