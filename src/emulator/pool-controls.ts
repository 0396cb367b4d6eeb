// Sandbox controls of the self-matching pool and flexible links (docs/pool.md): lay out payouts in a pool (shop
// key), look at the pool and set the amount-read simulation (admin token), and act as the payer of a flexible link
// (shop key): read the link, confirm an amount.
import type { H3 } from 'h3';
import {
  ConfirmLinkRequest,
  PoolLayoutRequest,
  PoolStateQuery,
  ReadSettingsPatch,
  type LinkInfo,
  type PoolState,
} from '../contract/sandbox.js';
import { Uuid } from '../contract/money.js';
import { generateAmounts } from '../domain/pool-layout.js';
import { toScale2, ZERO } from '../domain/money.js';
import { nameUuid } from '../domain/ids.js';
import type { AppContext, Guard } from './app.js';
import { parseWith, readJson } from './body.js';
import { ApiError } from './http-errors.js';
import { toWireOperation } from './wire.js';

export function registerPoolControls(app: H3, ctx: AppContext, guarded: Guard): void {
  const { service } = ctx;
  const idParam = (event: { context: { params?: Record<string, string> } }) => {
    const id = event.context.params?.id ?? '';
    if (!Uuid.safeParse(id).success) throw new ApiError(400, 'validation_error', 'operation id must be a UUID');
    return id.toLowerCase();
  };

  app.post(
    '/sandbox/pool/layout',
    guarded(async (event, shopId) => {
      const body = await readJson(event, PoolLayoutRequest);
      const route = service.world.route(shopId, body.method, 'payout');
      const pooled = route?.providers.some((id) => service.world.providers.get(id)?.kind === 'self_matching');
      if (!pooled) {
        throw new ApiError(412, 'not_pool_route', `this shop has no ${body.method} payout route through a self-matching pool; use a pool shop's key (shop_pool in the default fixtures)`);
      }
      const amounts = body.amounts ?? generateAmounts(body.generate!);
      const batch = nameUuid('pool-layout', shopId, String(service.clock.now()), String(service.state.operations.size)).slice(0, 8);
      const r = await service.layoutPool(shopId, { method: body.method, amounts, batch });
      return { created: r.created.length, rejected: r.rejected, first_operation_id: r.created[0] ?? null, last_operation_id: r.created.at(-1) ?? null };
    }),
  );

  app.get(
    '/sandbox/pool',
    guarded((event) => {
      const q = parseWith(PoolStateQuery, Object.fromEntries(event.url.searchParams), 'query');
      const pools: PoolState['pools'] = [];
      for (const provider of service.world.world.providers) {
        if (provider.kind !== 'self_matching') continue;
        for (const method of service.world.world.methods) {
          if (q.method && method.id !== q.method) continue;
          const w = service.state.poolWindow(provider.id, method.id);
          if (!w) continue;
          let free = ZERO;
          const first: PoolState['pools'][number]['first'] = [];
          for (const s of w.slots.values()) {
            free = free.plus(s.free);
            if (first.length < q.limit) {
              first.push({
                payout_id: s.payout_id,
                shop_id: service.state.operation(s.payout_id)?.shop_id ?? '',
                amount: toScale2(s.amount),
                claimed: toScale2(s.claimed),
                paid: toScale2(s.paid),
                free: toScale2(s.free),
              });
            }
          }
          pools.push({
            pool_id: provider.id,
            method: method.id,
            currency: method.currency,
            min_piece: provider.pool!.min_piece,
            min_remainder: provider.pool!.min_remainder,
            slots: w.slots.size,
            free_total: toScale2(free),
            first,
          });
        }
      }
      return { pools };
    }, 'admin'),
  );

  app.get('/sandbox/pool/settings', guarded(() => service.readSettings(), 'admin'));
  app.post(
    '/sandbox/pool/settings',
    guarded(async (event) => service.setReadSettings(await readJson(event, ReadSettingsPatch)), 'admin'),
  );

  app.get(
    '/sandbox/links/:id',
    guarded((event, shopId): LinkInfo => {
      const link = service.state.link(idParam(event));
      if (!link || link.shop_id !== shopId) throw new ApiError(404, 'operation_not_found', 'no flexible link with this operation_id');
      const p = link.params;
      return {
        operation_id: link.id,
        merchant_operation_id: link.merchant_operation_id,
        status: link.status === 'amount_selection' && link.expires_at && Date.parse(link.expires_at) <= service.clock.now() ? 'expired' : link.status,
        method: p.method,
        currency: p.currency,
        recommended_amount: toScale2(p.recommended_amount),
        min_amount: p.min_amount === undefined ? null : toScale2(p.min_amount),
        max_amount: p.max_amount === undefined ? null : toScale2(p.max_amount),
        expires_at: link.expires_at ?? null,
        confirmed_amount: link.confirmed_amount ?? null,
        created_at: link.created_at,
      };
    }),
  );

  app.post(
    '/sandbox/links/:id/confirm',
    guarded(async (event, shopId) => {
      const id = idParam(event);
      const body = await readJson(event, ConfirmLinkRequest);
      return toWireOperation(await service.confirmLink(shopId, id, body.amount), service.world);
    }),
  );
}
