// `paygate payment create | link | confirm | cancel` (flags: define.ts).
import type { AmountSelection, LinkOperation } from '../../../contract/index.js';
import { showCreate } from '../../create-outcome.js';
import { createFields, createRequest } from '../../create-request.js';
import type { CreateOptions } from '../create-flags.js';
import type { CancelOptions, ConfirmOptions, LinkOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { operationRef, shownMoid } from '../../operation-ref.js';
import { show } from '../../output.js';
import { AMOUNT_FIELD, fillRequired, type RequiredField } from '../../prompts.js';
import { amountSelectionView, cancelView, flexibleOperationView, operationView } from '../../views.js';

const RECOMMENDED_FIELD: RequiredField<'recommendedAmount'> = {
  ...AMOUNT_FIELD,
  key: 'recommendedAmount',
  flag: '--recommended-amount',
  message: 'Recommended amount (e.g. 1500.00)',
};

export async function createPayment(options: CreateOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const { body, moid } = await createRequest(options, deps);
  await showCreate(
    deps,
    client,
    options,
    'Creating payment (the gateway may wait up to 15 s for a provider)…',
    () => client.payments.create(body),
    (op) => operationView(op, moid),
  );
}

export async function createLink(options: LinkOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  if (!options.flexible) {
    const flexibleOnly = [
      [options.recommendedAmount, '--recommended-amount'],
      [options.minAmount, '--min-amount'],
      [options.maxAmount, '--max-amount'],
    ] as const;
    for (const [value, name] of flexibleOnly) if (value !== undefined) throw new UsageError(`${name} needs --flexible`);
    const { body, moid } = await createRequest(options, deps);
    await showCreate(
      deps,
      client,
      options,
      'Creating payment link…',
      () => client.payments.createLink(body),
      (op) => operationView(op, moid),
    );
    return;
  }
  if (
    options.amount !== undefined &&
    options.recommendedAmount !== undefined &&
    options.amount !== options.recommendedAmount
  ) {
    throw new UsageError('--amount and --recommended-amount differ; with --flexible pass only --recommended-amount');
  }
  const { body, moid, filled } = await createFields(
    { ...options, recommendedAmount: options.recommendedAmount ?? options.amount },
    [RECOMMENDED_FIELD],
    { recommendedAmount: '--recommended-amount', minAmount: '--min-amount', maxAmount: '--max-amount' },
    deps,
  );
  const params = {
    ...body,
    recommended_amount: filled.recommendedAmount,
    ...(filled.minAmount !== undefined ? { min_amount: filled.minAmount } : {}),
    ...(filled.maxAmount !== undefined ? { max_amount: filled.maxAmount } : {}),
  };
  await showCreate(
    deps,
    client,
    options,
    'Creating flexible payment link…',
    () => client.payments.createFlexibleLink(params),
    (res: LinkOperation | AmountSelection) =>
      'type' in res ? flexibleOperationView(res, moid) : amountSelectionView(res, moid),
  );
}

export async function confirmPayment(options: ConfirmOptions, deps: CommandDeps): Promise<void> {
  const ref = operationRef(options);
  const { client } = await deps.connect();
  const { receipt } = await fillRequired(
    options,
    [{ key: 'receipt', flag: '--receipt', kind: 'text', message: 'Path of the receipt PDF' }],
    deps.interactive,
  );
  const { existsSync } = await import('node:fs');
  if (!existsSync(receipt)) throw new UsageError(`--receipt ${receipt}: no such file`);
  // confirm_payment takes an operation_id only (spec §4.5): a merchant_operation_id is read into one first.
  const operationId =
    'operation_id' in ref
      ? ref.operation_id
      : (await deps.output.spin('Finding the payment…', () => client.operations.get(ref))).operation_id;
  await show(
    deps.output,
    options.json,
    'Uploading receipt…',
    () => client.payments.confirm({ operation_id: operationId, receipt }),
    (op) => operationView(op, shownMoid(ref)),
  );
}

export async function cancelPayment(options: CancelOptions, deps: CommandDeps): Promise<void> {
  const ref = operationRef(options);
  const { client } = await deps.connect();
  const reason = options.reason;
  await show(
    deps.output,
    options.json,
    'Cancelling payment…',
    () => client.operations.cancel({ ...ref, ...(reason !== undefined ? { reason } : {}) }),
    cancelView,
  );
}
