// Pool layouts (POST /sandbox/pool/layout and the fixtures' pool_layouts): each payout through the ordinary create
// rules, in batches that yield to the event loop, so a layout of thousands of payouts never holds up other requests
// for more than one batch — a batch ends at LAYOUT_BATCH payouts or after LAYOUT_SLICE_MS of work, whichever comes
// first (a payout costs more in a large store: its operation indexes are larger). A shop's pool is capped: at most MAX_POOL_SLOTS_PER_SHOP open pool payouts, counting
// layouts still being laid out, so neither one large layout nor several concurrent ones can grow it past the cap.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { MAX_POOL_SLOTS_PER_SHOP } from '../../contract/sandbox.js';
import { planCreate } from '../../domain/create.js';
import { layoutParamsOf } from '../../domain/pool-layout.js';
import { ApiError } from '../http/errors.js';
import type { GatewayService } from './service.js';

/** Most payouts planned between two yields to the event loop. */
export const LAYOUT_BATCH = 100;
/** Longest a batch plans and writes into the state before the layout yields, in ms (wall clock). */
export const LAYOUT_SLICE_MS = 4;

export interface Layout {
  method: string;
  amounts: readonly string[];
  batch: string;
}

/** The shop's open pool payouts: slots of every pool window whose payout belongs to it. */
export function openPoolSlots(service: GatewayService, shopId: string): number {
  let n = 0;
  for (const provider of service.world.data.providers) {
    if (provider.kind !== 'self_matching') continue;
    for (const method of service.world.data.methods) {
      const w = service.state.poolWindow(provider.id, method.id);
      if (!w) continue;
      for (const s of w.slots.values()) if (service.state.operation(s.payout_id)?.shop_id === shopId) n++;
    }
  }
  return n;
}

/**
 * Lay out `layout` for the shop; with `capped`, refuse (409 pool_limit) a layout that would take the shop's open
 * pool payouts past MAX_POOL_SLOTS_PER_SHOP. Resolves once every payout is written, with the ids created in
 * matching order and how many the create rules rejected.
 */
export async function layOutPool(
  service: GatewayService,
  shopId: string,
  layout: Layout,
  capped: boolean,
): Promise<{ created: string[]; rejected: number }> {
  // Payouts of layouts still being laid out, per shop; the sandbox's own limits (a workspace's): given at construction.
  const shops = service.layoutsInFlight;
  const pending = shops.get(shopId) ?? 0;
  if (capped) {
    const open = openPoolSlots(service, shopId);
    service.layoutLimits.check?.(pending + layout.amounts.length);
    const cap = service.layoutLimits.poolPayouts ?? MAX_POOL_SLOTS_PER_SHOP;
    if (open + pending + layout.amounts.length > cap) {
      throw new ApiError(
        'pool_limit',
        `this shop has ${open + pending} open pool payouts; ${layout.amounts.length} more would pass the limit of ${cap} per shop — lay out fewer, let payers fill the pool, or reset the sandbox`,
      );
    }
  }
  shops.set(shopId, pending + layout.amounts.length);
  try {
    return await plan(service, shopId, layout);
  } finally {
    const left = (shops.get(shopId) ?? 0) - layout.amounts.length;
    if (left > 0) shops.set(shopId, left);
    else shops.delete(shopId);
  }
}

async function plan(
  service: GatewayService,
  shopId: string,
  layout: Layout,
): Promise<{ created: string[]; rejected: number }> {
  const created: string[] = [];
  let rejected = 0;
  let writes: Promise<void>[] = [];
  const amounts = layout.amounts;
  const paramsOf = layoutParamsOf(service.world, layout.method, layout.batch);
  let sliceStart = performance.now();
  let inBatch = 0;
  for (let i = 0; i < amounts.length; i++, inBatch++) {
    if (inBatch >= LAYOUT_BATCH || (inBatch > 0 && performance.now() - sliceStart >= LAYOUT_SLICE_MS)) {
      // Wait for the batch to be written before planning the next: other requests run meanwhile, and a read (which
      // waits for the writes issued before it) never queues behind more than one batch.
      await Promise.all(writes);
      writes = [];
      await yieldToEventLoop();
      sliceStart = performance.now();
      inBatch = 0;
    }
    const p = planCreate(service.ctx(), shopId, 'payout', paramsOf(amounts[i]!, i));
    if (p.kind === 'refused') throw p.error;
    if (p.kind !== 'commit') continue;
    writes.push(service.persist(p));
    if (p.op.status === 'rejected') rejected++;
    else created.push(p.op.id);
  }
  await Promise.all(writes);
  return { created, rejected };
}
