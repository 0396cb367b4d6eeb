// `paygate payment create | link | confirm | cancel`.
import type { AmountSelection, LinkOperation } from '../../contract/index.js';
import { connect } from '../api.js';
import { AMOUNT_FIELD, createFields, createRequest } from '../create-request.js';
import { UsageError } from '../errors.js';
import { show } from '../output.js';
import { fillRequired } from '../prompts.js';
import { amountSelectionView, cancelView, flexibleOperationView, operationView } from '../views.js';

type Opts = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export async function createPayment(opts: Opts): Promise<void> {
  const { client } = connect(opts);
  const { body, moid } = await createRequest(opts);
  await show(opts, 'Creating payment (the gateway may wait up to 15 s for a provider)…', () => client.payments.create(body), (op) =>
    operationView(op, moid),
  );
}

export async function createLink(opts: Opts): Promise<void> {
  const { client } = connect(opts);
  if (!opts.flexible) {
    for (const flag of ['recommendedAmount', 'minAmount', 'maxAmount'] as const) {
      if (opts[flag] !== undefined) throw new UsageError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} needs --flexible`);
    }
    const { body, moid } = await createRequest(opts);
    await show(opts, 'Creating payment link…', () => client.payments.createLink(body), (op) => operationView(op, moid));
    return;
  }
  if (opts.amount !== undefined && opts.recommendedAmount !== undefined && opts.amount !== opts.recommendedAmount) {
    throw new UsageError('--amount and --recommended-amount differ; with --flexible pass only --recommended-amount');
  }
  opts.recommendedAmount ??= opts.amount;
  const { body, moid } = await createFields(
    opts,
    [{ ...AMOUNT_FIELD, key: 'recommendedAmount', flag: '--recommended-amount', message: 'Recommended amount (e.g. 1500.00)' }],
    { recommendedAmount: '--recommended-amount', minAmount: '--min-amount', maxAmount: '--max-amount' },
  );
  const params = {
    ...body,
    recommended_amount: str(opts.recommendedAmount)!,
    ...(str(opts.minAmount) !== undefined ? { min_amount: str(opts.minAmount)! } : {}),
    ...(str(opts.maxAmount) !== undefined ? { max_amount: str(opts.maxAmount)! } : {}),
  };
  await show(opts, 'Creating flexible payment link…', () => client.payments.createFlexibleLink(params), (res: LinkOperation | AmountSelection) =>
    'type' in res ? flexibleOperationView(res, moid) : amountSelectionView(res, moid),
  );
}

export async function confirmPayment(operationId: string, opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await fillRequired(opts, [{ key: 'receipt', flag: '--receipt', kind: 'text', message: 'Path of the receipt PDF' }]);
  const receipt = str(opts.receipt)!;
  const { existsSync } = await import('node:fs');
  if (!existsSync(receipt)) throw new UsageError(`--receipt ${receipt}: no such file`);
  await show(opts, 'Uploading receipt…', () => client.payments.confirm({ operation_id: operationId, receipt }), (op) => operationView(op));
}

/** Exactly one of the positional operation_id and --merchant-operation-id. */
export function identifier(operationId: string | undefined, opts: Opts): { operation_id: string } | { merchant_operation_id: string } {
  const moid = str(opts.merchantOperationId);
  if (operationId && moid) throw new UsageError('pass either <operation_id> or --merchant-operation-id, not both');
  if (operationId) return { operation_id: operationId };
  if (moid) return { merchant_operation_id: moid };
  throw new UsageError('missing <operation_id> or --merchant-operation-id');
}

export async function cancelPayment(operationId: string | undefined, opts: Opts): Promise<void> {
  const id = identifier(operationId, opts);
  const { client } = connect(opts);
  const reason = str(opts.reason);
  await show(opts, 'Cancelling payment…', () => client.operations.cancel({ ...id, ...(reason !== undefined ? { reason } : {}) }), cancelView);
}
