// `paygate payout create`: flags and help (run: run.ts); its options are the create flags.
import type { Command } from 'commander';
import { action, example } from '../shared.js';
import { addCreateFlags, createOptions } from '../create-flags.js';

/** The subcommand and help text of the `payout` group (created, with its description, by program.ts). */
export function definePayout(payoutCmd: Command): void {
  payoutCmd.addHelpText(
    'after',
    example(`
  $ paygate payout create --method WT_RUB_C2C --amount 500.00 --currency RUB --client-id user-42 --number 4111111111111111`),
  );
  addCreateFlags(payoutCmd.command('create').description('create an outbound payout (POST /v1/payout)'), 'payout')
    .addHelpText(
      'after',
      example(`
  $ paygate payout create --method WT_RUB_C2C --amount 500.00 --currency RUB --client-id user-42 \\
      --number 4111111111111111 --name "IVAN PETROV"
  $ paygate payout create --method WT_RUB_PHONE --amount 500.00 --currency RUB --client-id user-42 \\
      --number 79001234567 --bankname sber --json`),
    )
    .action(action(createOptions, async () => (await import('./run.js')).createPayout));
}
