// The pool's endpoints of the gateway: GET /v1/payment/availability, POST /v1/payment/recommendations (spec §4.9,
// §4.10; read-only, under the limits of src/emulator/runtime/amount-reads.ts) and POST /v1/payment/link/flexible (spec
// §4.3). Every answer of the two reads, errors included, carries Cache-Control: no-store.
import { linkExpiry } from '../../../domain/links.js';
import type { AmountsResult } from '../../../domain/amounts.js';
import type { LinkRecord } from '../../../domain/links.js';
import { toScale2 } from '../../../domain/money.js';
import { iso } from '../../../domain/state.js';
import type { RouteContext } from '../../context.js';
import { toWireOperation } from '../../wire.js';
import type { GatewayHandler } from '../types.js';

function wireAmounts(q: { method: string; currency: string }, at: number, r: AmountsResult) {
  return {
    method: q.method,
    currency: q.currency,
    evaluated_at: iso(at),
    coverage: r.coverage,
    reserved: false as const,
    truncated: r.truncated,
    intervals: r.intervals.map((i) => ({ min_amount: toScale2(i.lo), max_amount: toScale2(i.hi) })),
  };
}

export const getAvailability: GatewayHandler<'payment.availability'> = async (call) => {
  const { service, amountReads } = call.ctx;
  call.event.res.headers.set('cache-control', 'no-store');
  const q = call.query();
  return amountReads.run(call.shopId, (at) => wireAmounts(q, at, service.amounts(call.shopId, q)));
};

export const getRecommendations: GatewayHandler<'payment.recommendations'> = async (call) => {
  const { service, amountReads } = call.ctx;
  call.event.res.headers.set('cache-control', 'no-store');
  const body = await call.body();
  return amountReads.run(call.shopId, (at) => {
    const r = service.amounts(call.shopId, body);
    return {
      ...wireAmounts(body, at, r),
      recommendations: r.recommendations.map((x) => ({ amount: toScale2(x.amount), delta: toScale2(x.delta) })),
    };
  });
};

/** The hosted page of a flexible link: the operation's page URL with its k credential (a secret: never logged). */
function linkUrl(ctx: RouteContext, id: string): string {
  return `${ctx.urls.paymentPage}/${id}?k=${ctx.service.linkCredential(id)}`;
}

function selection(ctx: RouteContext, link: LinkRecord) {
  return {
    operation_id: link.id,
    status: link.status === 'rejected' ? ('rejected' as const) : ('amount_selection' as const),
    method: link.params.method,
    currency: link.params.currency,
    recommended_amount: toScale2(link.params.recommended_amount),
    payment_url: link.status === 'rejected' ? null : linkUrl(ctx, link.id),
    ...(link.status !== 'rejected' && linkExpiry(link) ? { expires_at: linkExpiry(link)! } : {}),
  };
}

export const createFlexibleLink: GatewayHandler<'payment.flexible_link'> = async (call) => {
  const { ctx } = call;
  const r = await ctx.service.flexible(call.shopId, await call.body());
  if ('link' in r) return selection(ctx, r.link);
  const wire = toWireOperation(r.op, ctx.service.world);
  return { ...wire, payment_url: r.url && r.op.status !== 'rejected' ? linkUrl(ctx, r.op.id) : null };
};
