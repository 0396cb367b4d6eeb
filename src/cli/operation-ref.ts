// Naming one operation on the command line: the positional <operation_id> or --merchant-operation-id, exactly one.
import { UsageError } from './errors.js';

export type OperationRef = { operation_id: string } | { merchant_operation_id: string };

/** The options of a command that names one operation. */
export interface RefOptions {
  /** The positional <operation_id>. */
  operationId?: string | undefined;
  /** `--merchant-operation-id`: the idempotency key the operation was created with. */
  merchantOperationId?: string | undefined;
}

/** Exactly one of the positional operation_id and --merchant-operation-id. */
export function operationRef(o: RefOptions): OperationRef {
  if (o.operationId && o.merchantOperationId)
    throw new UsageError('pass either <operation_id> or --merchant-operation-id, not both');
  if (o.operationId) return { operation_id: o.operationId };
  if (o.merchantOperationId) return { merchant_operation_id: o.merchantOperationId };
  throw new UsageError('missing <operation_id> or --merchant-operation-id');
}

/** The merchant_operation_id to show in a view when the operation was named by it. */
export function shownMoid(ref: OperationRef): { id: string; generated: boolean } | undefined {
  return 'merchant_operation_id' in ref ? { id: ref.merchant_operation_id, generated: false } : undefined;
}
