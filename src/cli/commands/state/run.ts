// `paygate state <operation_id>` / `paygate state --merchant-operation-id <id>` (flags: commands/top-level.ts).
import type { OperationOptions } from '../shared.js';
import type { CommandDeps } from '../../deps.js';
import { operationRef, shownMoid } from '../../operation-ref.js';
import { show } from '../../output.js';
import { operationView } from '../../views.js';

export async function state(options: OperationOptions, deps: CommandDeps): Promise<void> {
  const ref = operationRef(options);
  const { client } = await deps.connect();
  await show(
    deps.output,
    options.json,
    'Reading operation state…',
    () => client.operations.get(ref),
    (op) => operationView(op, shownMoid(ref)),
  );
}
