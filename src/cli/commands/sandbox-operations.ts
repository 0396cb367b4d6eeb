// `paygate sandbox pay | settle | review | operations`: payer, provider and reviewer actions on the shop's operations,
// and the shop's operation list (the shop's API key, like /v1).
import { OperationStatus } from '../../contract/common.js';
import { connect } from '../api.js';
import { UsageError } from '../errors.js';
import { show } from '../output.js';
import { checkAmounts } from '../prompts.js';
import { operationListView, operationView } from '../views.js';
import { identifier } from './payment.js';

type Opts = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The merchant_operation_id to show in the view when the operation was named by it. */
function shownMoid(id: ReturnType<typeof identifier>): { id: string; generated: boolean } | undefined {
  return 'merchant_operation_id' in id ? { id: id.merchant_operation_id, generated: false } : undefined;
}

/** Exactly one of two flags, e.g. --completed / --failed. */
function oneOf<A extends string, B extends string>(opts: Opts, a: [key: string, flag: A], b: [key: string, flag: B]): A | B {
  const hasA = opts[a[0]] === true;
  const hasB = opts[b[0]] === true;
  if (hasA && hasB) throw new UsageError(`pass either ${a[1]} or ${b[1]}, not both`);
  if (!hasA && !hasB) throw new UsageError(`missing ${a[1]} or ${b[1]}`, 'pass exactly one of them');
  return hasA ? a[1] : b[1];
}

export async function pay(operationId: string | undefined, opts: Opts): Promise<void> {
  const id = identifier(operationId, opts);
  await checkAmounts(opts, { amount: '--amount' });
  const { client } = connect(opts);
  const amount = str(opts.amount);
  await show(opts, 'The payer pays…', () => client.sandbox.operations.pay(id, amount !== undefined ? { amount } : {}), (op) =>
    operationView(op, shownMoid(id)),
  );
}

export async function settle(operationId: string | undefined, opts: Opts): Promise<void> {
  const outcome = oneOf(opts, ['completed', '--completed'], ['failed', '--failed']) === '--completed' ? 'completed' : 'failed';
  const id = identifier(operationId, opts);
  const { client } = connect(opts);
  await show(opts, `The provider settles the payout (${outcome})…`, () => client.sandbox.operations.settle(id, outcome), (op) =>
    operationView(op, shownMoid(id)),
  );
}

export async function review(operationId: string | undefined, opts: Opts): Promise<void> {
  const decision = oneOf(opts, ['approve', '--approve'], ['decline', '--decline']) === '--approve' ? 'approve' : 'decline';
  const amount = str(opts.amount);
  if (decision === 'decline' && amount !== undefined) throw new UsageError('--amount goes with --approve only');
  await checkAmounts(opts, { amount: '--amount' });
  const id = identifier(operationId, opts);
  const { client } = connect(opts);
  await show(
    opts,
    `The reviewer ${decision === 'approve' ? 'approves' : 'declines'}…`,
    () => client.sandbox.operations.review(id, decision, amount !== undefined ? { amount } : {}),
    (op) => operationView(op, shownMoid(id)),
  );
}

export async function listOperations(opts: Opts): Promise<void> {
  const status = str(opts.status);
  if (status !== undefined && !OperationStatus.safeParse(status).success) {
    throw new UsageError(`--status "${status}" is not a status`, `use one of: ${OperationStatus.options.join(', ')}`);
  }
  const { client } = connect(opts);
  const type = str(opts.type) as 'payment' | 'payout' | undefined;
  const limit = typeof opts.limit === 'number' ? opts.limit : undefined;
  const offset = typeof opts.offset === 'number' ? opts.offset : undefined;
  await show(
    opts,
    'Listing operations…',
    () => client.sandbox.operations.list({ status: status as OperationStatus | undefined, type, limit, offset }),
    (res) => operationListView(res, offset ?? 0),
  );
}
