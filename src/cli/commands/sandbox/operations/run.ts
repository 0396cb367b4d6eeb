// `paygate sandbox pay | settle | review | operations` (flags: define.ts): payer, provider and
// reviewer actions on the shop's operations, and the shop's operation list (the shop's API key, like /v1).
import { OperationStatus } from '../../../../contract/common.js';
import type { ListOperationsOptions, PayOptions, ReviewOptions, SettleOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { UsageError } from '../../../errors.js';
import { operationRef, shownMoid } from '../../../operation-ref.js';
import { show } from '../../../output.js';
import { checkAmounts } from '../../../prompts.js';
import { operationListView, operationView } from '../../../views.js';

/** Exactly one of two flags, e.g. --completed / --failed; returns the one given. */
function oneOf<A extends string, B extends string>(a: [given: boolean, flag: A], b: [given: boolean, flag: B]): A | B {
  if (a[0] && b[0]) throw new UsageError(`pass either ${a[1]} or ${b[1]}, not both`);
  if (!a[0] && !b[0]) throw new UsageError(`missing ${a[1]} or ${b[1]}`, 'pass exactly one of them');
  return a[0] ? a[1] : b[1];
}

export async function pay(options: PayOptions, deps: CommandDeps): Promise<void> {
  const ref = operationRef(options);
  await checkAmounts(options, { amount: '--amount' });
  const { client } = await deps.connect();
  const { amount } = options;
  await show(
    deps.output,
    options.json,
    'The payer pays…',
    () => client.sandbox.operations.pay(ref, amount !== undefined ? { amount } : {}),
    (op) => operationView(op, shownMoid(ref)),
  );
}

export async function settle(options: SettleOptions, deps: CommandDeps): Promise<void> {
  const outcome =
    oneOf([options.completed, '--completed'], [options.failed, '--failed']) === '--completed' ? 'completed' : 'failed';
  const ref = operationRef(options);
  const { client } = await deps.connect();
  await show(
    deps.output,
    options.json,
    `The provider settles the payout (${outcome})…`,
    () => client.sandbox.operations.settle(ref, outcome),
    (op) => operationView(op, shownMoid(ref)),
  );
}

export async function review(options: ReviewOptions, deps: CommandDeps): Promise<void> {
  const decision =
    oneOf([options.approve, '--approve'], [options.decline, '--decline']) === '--approve' ? 'approve' : 'decline';
  const { amount } = options;
  if (decision === 'decline' && amount !== undefined) throw new UsageError('--amount goes with --approve only');
  await checkAmounts(options, { amount: '--amount' });
  const ref = operationRef(options);
  const { client } = await deps.connect();
  await show(
    deps.output,
    options.json,
    `The reviewer ${decision === 'approve' ? 'approves' : 'declines'}…`,
    () => client.sandbox.operations.review(ref, decision, amount !== undefined ? { amount } : {}),
    (op) => operationView(op, shownMoid(ref)),
  );
}

export async function listOperations(options: ListOperationsOptions, deps: CommandDeps): Promise<void> {
  const { status, type, limit, offset } = options;
  if (status !== undefined && !OperationStatus.safeParse(status).success) {
    throw new UsageError(`--status "${status}" is not a status`, `use one of: ${OperationStatus.options.join(', ')}`);
  }
  const { client } = await deps.connect();
  await show(
    deps.output,
    options.json,
    'Listing operations…',
    () => client.sandbox.operations.list({ status: status as OperationStatus | undefined, type, limit, offset }),
    (res) => operationListView(res, offset ?? 0),
  );
}
