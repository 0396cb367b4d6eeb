// `paygate state`: flags, help and typed options (run: commands/state.ts); also the options of every command that
// names one operation and prints it.
import type { Command } from 'commander';
import { action, type Parsed } from '../action.js';
import type { RefOptions } from '../operation-ref.js';
import { example, flag, str } from './shared.js';

/** An operation named by <operation_id> or --merchant-operation-id, and --json. */
export interface OperationOptions extends RefOptions {
  json: boolean;
}

export function operationOptions({ args, opts }: Parsed): OperationOptions {
  return { operationId: str(args[0]), merchantOperationId: str(opts.merchantOperationId), json: flag(opts.json) };
}

export function defineState(program: Command): void {
  program
    .command('state')
    .description('read the state of an operation (POST /v1/get_operation_state)')
    .argument('[operation_id]', 'the operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the operation was created with')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', example(`
  $ paygate state 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate state --merchant-operation-id order-1001 --json`))
    .action(action(operationOptions, async () => (await import('../commands/state.js')).state));
}
