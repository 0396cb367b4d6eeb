// The self-matching pools (docs/pool.md): lay out payouts of the key's shop in the pool its payout route reaches
// (shop key); show the pools and read or change the amount-read simulation (admin).
import type { PoolState } from '../../../contract/sandbox.js';
import { nameUuid } from '../../../domain/ids.js';
import { toScale2, ZERO } from '../../../domain/money.js';
import { generateAmounts } from '../../../domain/pool-layout.js';
import type { MethodDef, ProviderDef } from '../../../domain/world.js';
import type { GatewayService } from '../../runtime/service.js';
import { ApiError } from '../../http/errors.js';
import { echo } from '../../../contract/echo.js';
import { layOutPool } from '../../runtime/pool-layouts.js';
import type { ControlHandler } from '../types.js';

type PoolWindow = PoolState['pools'][number];

export const layout: ControlHandler<'pool.layout'> = async (call) => {
  const { service } = call.ctx;
  const { shopId } = call;
  const body = await call.body();
  const route = service.world.route(shopId, body.method, 'payout');
  const pooled = route?.providers.some((id) => service.world.providers.get(id)?.kind === 'self_matching');
  if (!pooled) {
    throw new ApiError(
      'not_pool_route',
      `this shop has no ${echo(body.method)} payout route through a self-matching pool; use a pool shop's key (shop_pool in the default fixtures)`,
    );
  }
  const amounts = body.amounts ?? generateAmounts(body.generate!);
  const batch = nameUuid(
    'pool-layout',
    shopId,
    String(service.clock.now()),
    String(service.state.operations.size),
  ).slice(0, 8);
  const r = await layOutPool(service, shopId, { method: body.method, amounts, batch }, true);
  return {
    created: r.created.length,
    rejected: r.rejected,
    first_operation_id: r.created[0] ?? null,
    last_operation_id: r.created.at(-1) ?? null,
  };
};

/** One pool window (pool × method): its open slots, their free total, and the first `limit` in matching order. */
function windowInfo(
  service: GatewayService,
  provider: ProviderDef,
  method: MethodDef,
  limit: number,
): PoolWindow | undefined {
  const w = service.state.poolWindow(provider.id, method.id);
  if (!w) return undefined;
  let free = ZERO;
  const first: PoolWindow['first'] = [];
  for (const s of w.slots.values()) {
    free = free.plus(s.free);
    if (first.length >= limit) continue;
    first.push({
      payout_id: s.payout_id,
      shop_id: service.state.operation(s.payout_id)?.shop_id ?? '',
      amount: toScale2(s.amount),
      claimed: toScale2(s.claimed),
      paid: toScale2(s.paid),
      free: toScale2(s.free),
    });
  }
  return {
    pool_id: provider.id,
    method: method.id,
    currency: method.currency,
    min_piece: provider.pool!.min_piece,
    min_remainder: provider.pool!.min_remainder,
    slots: w.slots.size,
    free_total: toScale2(free),
    first,
  };
}

export const show: ControlHandler<'pool.show'> = (call) => {
  const { service } = call.ctx;
  const q = call.query();
  const pools: PoolWindow[] = [];
  for (const provider of service.world.data.providers) {
    if (provider.kind !== 'self_matching') continue;
    for (const method of service.world.data.methods) {
      if (q.method && method.id !== q.method) continue;
      const info = windowInfo(service, provider, method, q.limit);
      if (info) pools.push(info);
    }
  }
  return { pools };
};

export const settings: ControlHandler<'pool.settings'> = (call) => call.ctx.service.readSettings();

export const updateSettings: ControlHandler<'pool.update_settings'> = async (call) =>
  call.ctx.service.setReadSettings(await call.body());
