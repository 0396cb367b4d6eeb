// GET /v1/balances (spec §4.8): the shop's balance per currency, read after every pending write has landed.
import { toWireBalance } from '../../wire.js';
import type { GatewayHandler } from '../types.js';

export const getBalances: GatewayHandler<'balances.list'> = async (call) => {
  const { service } = call.ctx;
  await service.store.sync();
  return { balances: service.balances(call.shopId).map(toWireBalance) };
};
