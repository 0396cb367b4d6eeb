// `paygate operation history <operation_id>` (flags: define.ts): the sandbox's record of one operation.
import type { OperationOptions } from '../shared.js';
import type { CommandDeps } from '../../deps.js';
import { operationRef } from '../../operation-ref.js';
import { show } from '../../output.js';
import { historyView } from '../../views.js';

export async function history(options: OperationOptions, deps: CommandDeps): Promise<void> {
  const ref = operationRef(options);
  const { client } = await deps.connect();
  await show(
    deps.output,
    options.json,
    'Reading the operation history…',
    () => client.sandbox.operations.details(ref),
    historyView,
  );
}
