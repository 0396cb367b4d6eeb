// The gateway's operation endpoints: create a payment, a payment with its hosted page, a payout (spec §4.1, §4.2,
// §4.4); read an operation's state (§4.6); cancel one (§4.7).
import type { CreateParams } from '../../../domain/create.js';
import type { OperationKind } from '../../../domain/operation.js';
import { ApiError } from '../../http/errors.js';
import { toWireOperation, toWireState } from '../../wire.js';
import type { AnyCall, GatewayHandler } from '../types.js';

/** A create from its body (read by the caller: the handlers below hand its promise over, one async layer less). */
async function create(call: AnyCall, kind: OperationKind, body: Promise<CreateParams>, link: boolean) {
  const { service, urls } = call.ctx;
  const params = await body;
  const op = await service.create(call.shopId, kind, params, link ? { link } : undefined);
  const wire = toWireOperation(op, service.world);
  if (!link) return wire;
  // Only a payment created through a link endpoint has a page (one first created by POST /v1/payment has none).
  const hosted =
    (service.world.shops.get(call.shopId)?.hosted_page ?? false) && op.type === 'payment' && op.hosted_link === true;
  return { ...wire, payment_url: hosted ? `${urls.paymentPage}/${op.id}` : null };
}

/** POST /v1/payment. */
export const createPayment: GatewayHandler<'payment.create'> = (call) => create(call, 'payment', call.body(), false);

/** POST /v1/payment/link: the payment plus its hosted page URL (null on shops without the page). */
export const createPaymentLink: GatewayHandler<'payment.link'> = (call) => create(call, 'payment', call.body(), true);

/** POST /v1/payout. */
export const createPayout: GatewayHandler<'payout.create'> = (call) => create(call, 'payout', call.body(), false);

/** POST /v1/get_operation_state: by operation_id the receipt evidence must materialize, else 503 (spec §4.6). */
export const getOperationState: GatewayHandler<'operation.state'> = async (call) => {
  const { service } = call.ctx;
  const ref = await call.body();
  const byId = ref.operation_id !== undefined;
  const op = await service.get(
    call.shopId,
    byId ? { operation_id: ref.operation_id! } : { merchant_operation_id: ref.merchant_operation_id! },
  );
  const state = toWireState(op, service.world, call.ctx.evidence());
  if (state.receipt_evidence_status === 'unavailable' && byId) {
    throw new ApiError(
      'evidence_unavailable',
      'receipt evidence is temporarily unavailable; retry later, or read by merchant_operation_id',
      { 'retry-after': '1' },
    );
  }
  return state;
};

/** POST /v1/cancel_operation. */
export const cancelOperation: GatewayHandler<'operation.cancel'> = async (call) => {
  const { service } = call.ctx;
  const body = await call.body();
  const ref =
    body.operation_id !== undefined
      ? { operation_id: body.operation_id }
      : { merchant_operation_id: body.merchant_operation_id! };
  const { outcome, op } = await service.cancel(call.shopId, ref, body.reason ?? '');
  return { outcome, operation: toWireOperation(op, service.world) };
};
