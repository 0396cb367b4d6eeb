// Which payment an upload is for, checked before its file is read: the shop's own payment (404 otherwise, never
// confirming another shop's) in a status that takes a receipt (409 invalid_state otherwise). The service checks
// again when the verdict is written, since the payment may move while the file is received and checked.
import { acceptsReceipt } from '../../domain/commands.js';
import type { OperationRecord } from '../../domain/operation.js';
import { notFound } from '../runtime/errors.js';
import type { GatewayService } from '../runtime/service.js';

export function receiptTarget(service: GatewayService, shopId: string, operationId: string): OperationRecord {
  const op = service.find(shopId, { operation_id: operationId });
  if (!op || op.status === 'admitting') throw notFound();
  acceptsReceipt(op);
  return op;
}
