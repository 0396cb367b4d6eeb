// Flexible links from the payer's side (shop key): read one, and confirm an amount on it.
import { linkExpiry } from '../../../domain/links.js';
import { Uuid } from '../../../contract/money.js';
import type { LinkInfo } from '../../../contract/sandbox.js';
import { toScale2 } from '../../../domain/money.js';
import { ApiError } from '../../http/errors.js';
import { toWireOperation } from '../../wire.js';
import type { AnyCall, ControlHandler } from '../types.js';

/** The link's operation_id from the path, lower-cased. */
function linkId(call: AnyCall): string {
  const id = call.param('id');
  if (!Uuid.safeParse(id).success) throw new ApiError('validation_error', 'operation id must be a UUID');
  return id.toLowerCase();
}

export const show: ControlHandler<'links.show'> = (call): LinkInfo => {
  const { service } = call.ctx;
  const link = service.state.link(linkId(call));
  if (!link || link.shop_id !== call.shopId)
    throw new ApiError('operation_not_found', 'no flexible link with this operation_id');
  const p = link.params;
  const expired =
    link.status === 'amount_selection' && link.expires_at && Date.parse(link.expires_at) <= service.clock.now();
  return {
    operation_id: link.id,
    merchant_operation_id: link.merchant_operation_id,
    status: expired ? 'expired' : link.status,
    method: p.method,
    currency: p.currency,
    recommended_amount: toScale2(p.recommended_amount),
    min_amount: p.min_amount === undefined ? null : toScale2(p.min_amount),
    max_amount: p.max_amount === undefined ? null : toScale2(p.max_amount),
    expires_at: linkExpiry(link) ?? null,
    confirmed_amount: link.status === 'confirmed' ? link.confirmed_amount : null,
    created_at: link.created_at,
  };
};

export const confirm: ControlHandler<'links.confirm'> = async (call) => {
  const { service } = call.ctx;
  const id = linkId(call);
  const body = await call.body();
  return toWireOperation(await service.confirmLink(call.shopId, id, body.amount), service.world);
};
