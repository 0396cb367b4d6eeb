// The support staff's live reads: a stream of operation changes as they are written (one operation until it is
// terminal, or every change matching the listing filters), the request log and its stream, and every shop's
// balances. Streams are server-sent events fed by the service's write listeners, never by re-listing.
import { isTerminal } from '../../../domain/operation.js';
import type { StoreChange } from '../../../store/state.js';
import { Uuid } from '../../../contract/money.js';
import { eventStream, nodeResponseOf } from '../../http/sse.js';
import { header } from '../../http/headers.js';
import type { OperationRef } from '../../runtime/service.js';
import { matchesLog } from '../../runtime/request-log.js';
import { toOperationRow, toWireBalance, type PublicOperation } from '../../wire.js';
import type { ControlHandler } from '../types.js';
import { indexQuery, scopeOf, shopOfRef } from './operations.js';

/** Each written operation's row, made once for every stream it goes to (and its bytes with it: http/sse.ts). */
const rows = new WeakMap<PublicOperation, ReturnType<typeof toOperationRow>>();
function rowOf(op: PublicOperation, world: Parameters<typeof toOperationRow>[1]): ReturnType<typeof toOperationRow> {
  let row = rows.get(op);
  if (!row) rows.set(op, (row = toOperationRow(op, world)));
  return row;
}

/** Whose streams a support stream counts among: the key's shop, or the admin token's. */
const streamCredential = (shopId: string) => (shopId === '' ? 'admin' : `key:${shopId}`);

export const streamOperations: ControlHandler<'operations.stream'> = async (call) => {
  const { service } = call.ctx;
  const q = call.query();
  const shop = scopeOf(call, q.shop);
  let one: PublicOperation | undefined;
  if (q.id !== undefined) {
    const ref: OperationRef = Uuid.safeParse(q.id).success ? { operation_id: q.id } : { merchant_operation_id: q.id };
    // Resolved as `ops show` resolves it: shop= only when the merchant_operation_id is used by several shops.
    one = await service.get(shopOfRef(call, ref, q.shop), ref);
  }
  const filter = indexQuery({ ...q, limit: 1, offset: 0 }, shop);
  const index = service.state.operationIndex;
  return eventStream(call.ctx.streams, streamCredential(call.shopId), nodeResponseOf(call.event), (sink) => {
    if (one) {
      sink.send('operation', toOperationRow(one, service.world));
      if (isTerminal(one.status)) {
        sink.end();
        return () => undefined;
      }
    }
    const listener = (changes: readonly StoreChange[]) => {
      for (const ch of changes) {
        if (ch.kind !== 'operation') continue;
        const { op } = ch;
        if (op.status === 'admitting') continue;
        if (one ? op.id !== one.id : !index.matches(op, filter)) continue;
        sink.send('operation', rowOf(op, service.world));
        if (one && isTerminal(op.status)) sink.end();
      }
    };
    service.writeListeners.add(listener);
    service.closeListeners.add(sink.end);
    return () => {
      service.writeListeners.delete(listener);
      service.closeListeners.delete(sink.end);
    };
  });
};

export const logs: ControlHandler<'logs.list'> = (call) => {
  const q = call.query();
  const shop = scopeOf(call, q.shop);
  return { requests: call.ctx.requestLog.recent({ ...q, shop, errors: q.errors === 'true' }, q.limit) };
};

export const streamLogs: ControlHandler<'logs.stream'> = (call) => {
  const q = call.query();
  const f = { ...q, shop: scopeOf(call, q.shop), errors: q.errors === 'true' };
  const log = call.ctx.requestLog;
  // A client that reconnects (an EventSource does by itself) names the last entry it received: it gets what came
  // after it that the ring still holds, instead of the backlog.
  const last = header(call.event, 'last-event-id');
  return eventStream(call.ctx.streams, streamCredential(call.shopId), nodeResponseOf(call.event), (sink) => {
    // The backlog and the listener in one turn: nothing is answered in between.
    for (const e of (last ? log.after(f, last) : log.recent(f, q.backlog)).reverse()) sink.send('request', e, e.id);
    const listener = (e: Parameters<typeof matchesLog>[0]) => {
      if (matchesLog(e, f)) sink.send('request', e, e.id);
    };
    log.listeners.add(listener);
    call.ctx.service.closeListeners.add(sink.end);
    return () => {
      log.listeners.delete(listener);
      call.ctx.service.closeListeners.delete(sink.end);
    };
  });
};

export const allBalances: ControlHandler<'balances.all'> = async (call) => {
  const { service } = call.ctx;
  await service.store.sync();
  return {
    shops: service.world.data.shops.map((s) => ({
      shop_id: s.id,
      name: s.name,
      balances: service.balances(s.id).map(toWireBalance),
    })),
  };
};
