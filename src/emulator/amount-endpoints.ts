// The pool's endpoints of the gateway contract: GET /v1/payment/availability, POST /v1/payment/recommendations
// (spec §4.9, §4.10; read-only, under the limits of src/emulator/amount-reads.ts) and POST /v1/payment/link/flexible
// (spec §4.3). Every answer of the two reads, errors included, carries Cache-Control: no-store.
import type { H3 } from 'h3';
import { AvailabilityQuery, FlexibleLinkRequest, RecommendationsRequest, endpoints } from '../contract/index.js';
import type { AmountsResult } from '../domain/amounts.js';
import type { LinkRecord } from '../domain/links.js';
import { toScale2 } from '../domain/money.js';
import { iso } from '../domain/state.js';
import type { AppContext, Route } from './app.js';
import { AmountReadGate } from './amount-reads.js';
import { parseWith, readJson } from './body.js';
import { toWireOperation } from './wire.js';

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

export function registerAmountEndpoints(_app: H3, ctx: AppContext, route: Route): void {
  const { service } = ctx;
  const gate = new AmountReadGate(service.clock, () => service.readSettings());
  service.onReset(() => gate.reset());

  route(endpoints.getAvailability, async (event, shopId) => {
    event.res.headers.set('cache-control', 'no-store');
    const q = parseWith(AvailabilityQuery, Object.fromEntries(event.url.searchParams), 'query');
    return gate.run(shopId, (at) => wireAmounts(q, at, service.amounts(shopId, q)));
  });

  route(endpoints.getRecommendations, async (event, shopId) => {
    event.res.headers.set('cache-control', 'no-store');
    const body = await readJson(event, RecommendationsRequest);
    return gate.run(shopId, (at) => {
      const r = service.amounts(shopId, body);
      return {
        ...wireAmounts(body, at, r),
        recommendations: r.recommendations.map((x) => ({ amount: toScale2(x.amount), delta: toScale2(x.delta) })),
      };
    });
  });

  /** The hosted page of a flexible link: the operation's page URL with its k credential (a secret: never logged). */
  const linkUrl = (id: string) => `${ctx.urls.paymentPage}/${id}?k=${service.linkCredential(id)}`;
  const selection = (link: LinkRecord) => ({
    operation_id: link.id,
    status: link.status === 'rejected' ? ('rejected' as const) : ('amount_selection' as const),
    method: link.params.method,
    currency: link.params.currency,
    recommended_amount: toScale2(link.params.recommended_amount),
    payment_url: link.status === 'rejected' ? null : linkUrl(link.id),
    ...(link.status !== 'rejected' && link.expires_at ? { expires_at: link.expires_at } : {}),
  });

  route(endpoints.createFlexibleLink, async (event, shopId) => {
    const params = await readJson(event, FlexibleLinkRequest);
    const r = await service.flexible(shopId, params);
    if ('link' in r) return selection(r.link);
    const wire = toWireOperation(r.op, service.world);
    return { ...wire, payment_url: r.url && r.op.status !== 'rejected' ? linkUrl(r.op.id) : null };
  });
}
