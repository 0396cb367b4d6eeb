// The shop's operations as the sandbox keeps them (X-API-Key): list them, show one with its history, and act on
// one as its payer (pay), provider (settle) or reviewer (review).
import { uploadsOf } from '../../../domain/operation.js';
import { sandboxControls } from '../../../contract/controls.js';
import { Uuid } from '../../../contract/money.js';
import { ApiError } from '../../http/errors.js';
import { echo } from '../../../contract/echo.js';
import type { OperationRef } from '../../runtime/service.js';
import { supportFieldsOf, toOperationRow, toWireOperation, toWireState, type PublicOperation } from '../../wire.js';
import { money } from '../../../domain/money.js';
import { postingsOf } from '../../../domain/ledger.js';
import type { OperationQuery } from '../../../store/operation-index.js';
import type { ListOperationsQuery } from '../../../contract/sandbox.js';
import type { z } from 'zod';
import { deliveryView } from './webhooks.js';

type ListQuery = z.output<typeof ListOperationsQuery>;
import type { AnyCall, ControlHandler } from '../types.js';

/** How to address an operation by merchant_operation_id: `/sandbox/operations/-?merchant_operation_id=…`. */
const BY_MERCHANT_ID = `${sandboxControls['operations.show'].path.replace(':id', '-')}?merchant_operation_id=…`;

/** The operation of the path: `:id` is its operation_id, or `-` with `?merchant_operation_id=`. */
function operationRef(call: AnyCall): OperationRef {
  const id = call.param('id');
  const query = call.event.url.searchParams;
  if (id === '-' && query.get('merchant_operation_id'))
    return { merchant_operation_id: query.get('merchant_operation_id')! };
  if (!Uuid.safeParse(id).success)
    throw new ApiError('validation_error', `operation id must be a UUID (or use ${BY_MERCHANT_ID})`);
  return { operation_id: id };
}

/** The shop a support read is scoped to: a key's own shop; with the admin token, `shop` or every shop. */
export function scopeOf(call: AnyCall, shop: string | undefined): string | undefined {
  if (call.shopId === '') return shop;
  if (shop !== undefined && shop !== call.shopId) {
    throw new ApiError(
      'validation_error',
      "shop: a shop's key sees its own shop only; use the admin token (x-admin-token) for other shops",
    );
  }
  return call.shopId;
}

/** The listing query as the index takes it. */
export function indexQuery(q: ListQuery, shop: string | undefined): OperationQuery {
  return {
    shop,
    status: q.status,
    type: q.type,
    method: q.method,
    client_id: q.client_id,
    merchant_operation_id: q.merchant_operation_id,
    since: q.since,
    until: q.until,
    min_amount: q.min_amount === undefined ? undefined : money(q.min_amount),
    max_amount: q.max_amount === undefined ? undefined : money(q.max_amount),
  };
}

export const list: ControlHandler<'operations.list'> = async (call) => {
  const { service } = call.ctx;
  const q = call.query();
  const index = service.state.operationIndex;
  if (q.starting_after !== undefined && !index.has(q.starting_after)) {
    throw new ApiError(
      'validation_error',
      'starting_after: no such cursor (the operation is gone); list again from the first page',
    );
  }
  // Reads wait for the writes issued before them; an operation still being written after that is not shown.
  await service.store.sync();
  const page = index.page(indexQuery(q, scopeOf(call, q.shop)), {
    limit: q.limit,
    offset: q.offset,
    after: q.starting_after,
  });
  const operations = page.ids
    .map((id) => service.store.durable('operations', id, service.state.operation(id)))
    .filter((op): op is PublicOperation => op !== undefined && op.status !== 'admitting')
    .map((op) => toOperationRow(op, service.world));
  return {
    ...(page.total === undefined ? {} : { total: page.total }),
    operations,
    has_more: page.has_more,
    next_cursor: page.has_more ? (page.ids.at(-1) ?? null) : null,
  };
};

/**
 * The shop of the operation a support read names (`ops show`, `ops watch`); with the admin token it may be any
 * shop's, and a merchant_operation_id used by one shop only needs no shop=.
 */
export function shopOfRef(call: AnyCall, ref: OperationRef, shop: string | undefined): string {
  const scope = scopeOf(call, shop);
  if (scope !== undefined) return scope;
  const { state } = call.ctx.service;
  if ('operation_id' in ref) return state.operation(ref.operation_id.toLowerCase())?.shop_id ?? '';
  const found = state.operationIndex.page({ merchant_operation_id: ref.merchant_operation_id }, { limit: 10 }).ids;
  const shops = [...new Set(found.map((id) => state.operation(id)!.shop_id))];
  if (shops.length > 1) {
    throw new ApiError(
      'ambiguous_reference',
      `merchant_operation_id ${echo(ref.merchant_operation_id)} is used by shops ${shops.join(', ')}; add shop=<id> (--shop on paygate ops show / ops watch)`,
    );
  }
  return shops[0] ?? '';
}

export const show: ControlHandler<'operations.show'> = async (call) => {
  const { service } = call.ctx;
  const ref = operationRef(call);
  const shopId = shopOfRef(call, ref, call.query().shop);
  const op = await service.get(shopId, ref);
  return {
    operation: toWireState(op, service.world, call.ctx.evidence()),
    ...supportFieldsOf(op),
    history: op.history,
    uploads: uploadsOf(op).map(({ file_id: _f, ...u }) => u),
    webhooks: call.ctx.outbox
      .deliveries(op.shop_id)
      .filter((d) => d.event_id.startsWith(`evt_${op.id}_`))
      .map(deliveryView),
    postings: postingsOf(service.state, op.id).map(({ id, kind, source, destination, currency, amount, at }) => ({
      id,
      kind,
      source,
      destination,
      currency,
      amount,
      at,
    })),
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
  return toWireOperation(
    await service.review(call.shopId, operationRef(call), body.decision, body.amount),
    service.world,
  );
};
