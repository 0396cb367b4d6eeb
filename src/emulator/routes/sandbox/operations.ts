// The shop's operations as the sandbox keeps them (X-API-Key): list them, show one with its history, and act on
// one as its payer (pay), provider (settle) or reviewer (review).
import { uploadsOf } from '../../../domain/operation.js';
import { sandboxControls } from '../../../contract/controls.js';
import { Uuid } from '../../../contract/money.js';
import { ApiError } from '../../http/errors.js';
import type { OperationRef } from '../../runtime/service.js';
import { toWireOperation, toWireState, type PublicOperation } from '../../wire.js';
import type { AnyCall, ControlHandler } from '../types.js';

/** How to address an operation by merchant_operation_id: `/sandbox/operations/-?merchant_operation_id=…`. */
const BY_MERCHANT_ID = `${sandboxControls['operations.show'].path.replace(':id', '-')}?merchant_operation_id=…`;

/** The operation of the path: `:id` is its operation_id, or `-` with `?merchant_operation_id=`. */
function operationRef(call: AnyCall): OperationRef {
  const id = call.param('id');
  const query = call.event.url.searchParams;
  if (id === '-' && query.get('merchant_operation_id')) return { merchant_operation_id: query.get('merchant_operation_id')! };
  if (!Uuid.safeParse(id).success) throw new ApiError('validation_error', `operation id must be a UUID (or use ${BY_MERCHANT_ID})`);
  return { operation_id: id };
}

export const list: ControlHandler<'operations.list'> = (call) => {
  const { service } = call.ctx;
  const q = call.query();
  const all = service.state
    .operationsOfShop(call.shopId)
    .filter((op): op is PublicOperation => op.status !== 'admitting')
    .filter((op) => (!q.status || op.status === q.status) && (!q.type || op.type === q.type));
  const page = all.slice().reverse().slice(q.offset, q.offset + q.limit);
  return { total: all.length, operations: page.map((op) => toWireOperation(op, service.world)) };
};

export const show: ControlHandler<'operations.show'> = async (call) => {
  const { service } = call.ctx;
  const op = await service.get(call.shopId, operationRef(call));
  return {
    operation: toWireState(op, service.world, call.ctx.evidence()),
    merchant_operation_id: op.merchant_operation_id,
    created_at: op.created_at,
    history: op.history,
    uploads: uploadsOf(op).map(({ file_id: _f, ...u }) => u),
    faults: call.ctx.faults.historyOf(op.id),
  };
};

export const pay: ControlHandler<'operations.pay'> = async (call) => {
  const { service } = call.ctx;
  const body = await call.body();
  return toWireOperation(await service.pay(call.shopId, operationRef(call), body.amount), service.world);
};

export const settle: ControlHandler<'operations.settle'> = async (call) => {
  const { service } = call.ctx;
  const body = await call.body();
  return toWireOperation(await service.settle(call.shopId, operationRef(call), body.outcome), service.world);
};

export const review: ControlHandler<'operations.review'> = async (call) => {
  const { service } = call.ctx;
  const body = await call.body();
  return toWireOperation(await service.review(call.shopId, operationRef(call), body.decision, body.amount), service.world);
};
