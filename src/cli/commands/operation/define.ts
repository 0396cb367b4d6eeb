// `paygate operation history`: flags and help (run: run.ts).
import type { Command } from 'commander';
import { action, example, JSON_HELP, operationOptions } from '../shared.js';

/** The subcommand and help text of the `operation` group (created, with its description, by program.ts). */
export function defineOperation(operationCmd: Command): void {
  operationCmd.addHelpText(
    'after',
    example(`
  $ paygate operation history 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c`),
  );
  operationCmd
    .command('history')
    .description("an operation's status transitions and receipt uploads (GET /sandbox/operations/{id}; sandbox only)")
    .argument('[operation_id]', 'the operation_id (or use --merchant-operation-id)')
    .option('--merchant-operation-id <id>', 'the idempotency key the operation was created with')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate operation history 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c
  $ paygate operation history --merchant-operation-id order-1001 --json`),
    )
    .action(action(operationOptions, async () => (await import('./run.js')).history));
}
