// `paygate payment create | link | confirm | cancel`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import { action, example, flag, REQUIRED, str, type Parsed } from '../shared.js';
import type { RefOptions } from '../../operation-ref.js';
import { addCreateFlags, createOptions, type CreateOptions } from '../create-flags.js';

const run = () => import('./run.js');

export interface LinkOptions extends CreateOptions {
  /** Let the payer choose the amount (POST /v1/payment/link/flexible). Default false. */
  flexible: boolean;
  /** With `flexible`: the amount to suggest. Default: `amount`. */
  recommendedAmount?: string | undefined;
  minAmount?: string | undefined;
  maxAmount?: string | undefined;
}

export interface ConfirmOptions extends RefOptions {
  /** Path of the receipt PDF; asked for on a TTY. */
  receipt?: string | undefined;
  json: boolean;
}

export interface CancelOptions extends RefOptions {
  /** Audit-log reason, at most 2048 bytes. */
  reason?: string | undefined;
  json: boolean;
}

function linkOptions(parsed: Parsed): LinkOptions {
  const { opts } = parsed;
  return {
    ...createOptions(parsed),
    flexible: flag(opts.flexible),
    recommendedAmount: str(opts.recommendedAmount),
    minAmount: str(opts.minAmount),
    maxAmount: str(opts.maxAmount),
  };
}

/** The subcommands and help text of the `payment` group (created, with its description, by program.ts). */
export function definePayment(paymentCmd: Command): void {
  paymentCmd.addHelpText(
    'after',
    example(`
  $ paygate payment create --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate payment link --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42`),
  );

  addCreateFlags(paymentCmd.command('create').description('create an inbound payment (POST /v1/payment)'), 'payment')
    .addHelpText(
      'after',
      example(`
  $ paygate payment create --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate payment create --method WT_RUB_PHONE --amount 990.00 --currency RUB --client-id user-42 \\
      --merchant-operation-id order-1001 --json`),
    )
    .action(action(createOptions, async () => (await run()).createPayment));

  addCreateFlags(
    paymentCmd.command('link').description('create a payment with a hosted page URL (POST /v1/payment/link)'),
    'link',
  )
    .option('--flexible', 'let the payer choose the amount (POST /v1/payment/link/flexible)')
    .option('--recommended-amount <amount>', 'with --flexible: the amount to suggest (default: --amount)')
    .option('--min-amount <amount>', 'with --flexible: lowest amount the payer may be offered')
    .option('--max-amount <amount>', 'with --flexible: highest amount the payer may be offered')
    .addHelpText(
      'after',
      example(`
  $ paygate payment link --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate payment link --flexible --method WT_RUB_C2C --currency RUB --client-id user-42 \\
      --recommended-amount 1500.00 --min-amount 1000.00 --max-amount 2000.00`),
    )
    .action(action(linkOptions, async () => (await run()).createLink));

  paymentCmd
    .command('confirm')
    .description('upload a PDF receipt for a payment awaiting confirmation (POST /v1/confirm_payment)')
    .argument('[operation_id]', "the payment's operation_id (or use --merchant-operation-id)")
    .option('--merchant-operation-id <id>', 'the idempotency key the payment was created with')
    .option('--receipt <file>', `path of the receipt PDF${REQUIRED}`)
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText(
      'after',
      example(`
  $ paygate payment confirm 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --receipt ./receipt.pdf
  $ paygate payment confirm --merchant-operation-id order-1002 --receipt ./receipt.pdf`),
    )
    .action(action(confirmOptions, async () => (await run()).confirmPayment));

  paymentCmd
    .command('cancel')
    .description('cancel a payment (POST /v1/cancel_operation); idempotent, safe to repeat')
    .argument('[operation_id]', "the payment's operation_id (or use --merchant-operation-id)")
    .option('--merchant-operation-id <id>', 'the idempotency key the payment was created with')
    .option('--reason <text>', 'audit-log reason, at most 2048 bytes')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText(
      'after',
      example(`
  $ paygate payment cancel 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --reason "customer left"
  $ paygate payment cancel --merchant-operation-id order-1001`),
    )
    .action(action(cancelOptions, async () => (await run()).cancelPayment));
}

function confirmOptions({ args, opts }: Parsed): ConfirmOptions {
  return {
    operationId: str(args[0]),
    merchantOperationId: str(opts.merchantOperationId),
    receipt: str(opts.receipt),
    json: flag(opts.json),
  };
}

function cancelOptions({ args, opts }: Parsed): CancelOptions {
  return {
    operationId: str(args[0]),
    merchantOperationId: str(opts.merchantOperationId),
    reason: str(opts.reason),
    json: flag(opts.json),
  };
}
