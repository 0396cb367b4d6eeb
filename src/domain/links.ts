// Flexible payment links (spec §4.3, §2.6): a payment whose amount the payer picks from what the pool can take.
// The link is not an operation: while it waits in amount_selection, reads of its operation_id say 404 and no event
// fires. The payer's confirmation creates the payment under the same operation_id, with the chosen amount, or a
// rejected payment when that amount was taken at the last moment. Pure: returns the changes to write.
import { linkTimersOf, type Effect } from './effects.js';
import type { DomainContext, StateChange } from './state.js';
import type { PricingDef, ProviderDef, RouteDef } from './world.js';
import type { Range } from './pool.js';
import type { Decimal } from 'decimal.js';
import { conflict, methodFor, partyFields, planCreate, type CreateParams, type CreatePlan } from './create.js';
import { DomainError } from './errors.js';
import { echo } from '../contract/echo.js';
import { operationIdFor } from './ids.js';
import { money, toScale2 } from './money.js';
import { payinRoute, poolIntervals } from './amounts.js';
import { pricingCovers } from './pricing.js';
import { iso } from './state.js';

export interface FlexibleParams extends Omit<CreateParams, 'amount'> {
  recommended_amount: string;
  min_amount?: string | undefined;
  max_amount?: string | undefined;
}

type LinkBase = {
  /** The operation_id the payment will have: derived from the shop and merchant_operation_id. */
  id: string;
  shop_id: string;
  merchant_operation_id: string;
  fingerprint: string;
  /** The request, kept to create the payment on confirmation. */
  params: FlexibleParams;
  created_at: string;
  updated_at: string;
};

/** A flexible link (spec §4.3): each status carries only its own fields. */
export type LinkRecord = LinkBase &
  (
    | { status: 'amount_selection'; /** Link lifetime. */ expires_at: string }
    | { status: 'rejected' }
    | { status: 'expired'; expires_at: string }
    | {
        status: 'confirmed';
        /** The amount the payer chose: the payment created (same id) has it. */ confirmed_amount: string;
      }
  );

/** When a link's lifetime ends (or ended): only a link that offered a choice has one. */
export function linkExpiry(link: LinkRecord): string | undefined {
  return link.status === 'amount_selection' || link.status === 'expired' ? link.expires_at : undefined;
}

export type FlexiblePlan =
  /** An operation: created now (or replayed). `url`: whether the response carries a payment_url with k. */
  | { kind: 'operation'; plan: CreatePlan; url: boolean }
  /** A link in amount_selection or rejected; `changes` is empty on a replay. */
  | { kind: 'link'; link: LinkRecord; changes: StateChange[]; effects: Effect[] };

/** Canonical form of a flexible-link body: like a create's, with the three amounts at scale 2. */
export function flexibleFingerprint(p: FlexibleParams): string {
  return JSON.stringify([
    'flexible',
    p.method,
    toScale2(p.recommended_amount),
    p.min_amount === undefined ? '' : toScale2(p.min_amount),
    p.max_amount === undefined ? '' : toScale2(p.max_amount),
    ...partyFields(p),
  ]);
}

function createParams(p: FlexibleParams, amount: string): CreateParams {
  const { recommended_amount: _r, min_amount: _min, max_amount: _max, ...rest } = p;
  return { ...rest, amount };
}

/** Whether a pool on the route can take `amount` now, within the route's limits and the shop's pricing. */
function takeableNow(
  ctx: DomainContext,
  shopId: string,
  route: RouteDef,
  pools: ProviderDef[],
  method: string,
  amount: string,
): boolean {
  const a = money(amount);
  if (a.lessThan(money(route.min_amount)) || a.greaterThan(money(route.max_amount))) return false;
  if (!pricingCovers(ctx.world.pricingFor(shopId, method, 'payin'), a, a)) return false;
  return pools.some((p) => ctx.state.poolWindow(p.id, method)?.match(a, p.pool!) !== undefined);
}

const maxOf = (a: Decimal, b: Decimal) => (a.greaterThan(b) ? a : b);
const minOf = (a: Decimal, b: Decimal) => (a.lessThan(b) ? a : b);

/** What a link may offer: its explicit bounds within the route's limits (the route's limits when none are given). */
function linkBounds(route: RouteDef, p: FlexibleParams): { lo: Decimal; hi: Decimal } {
  const routeMin = money(route.min_amount);
  const routeMax = money(route.max_amount);
  const lo = p.min_amount === undefined ? routeMin : maxOf(money(p.min_amount), routeMin);
  const hi = p.max_amount === undefined ? routeMax : minOf(money(p.max_amount), routeMax);
  return { lo, hi };
}

/** Whether some amount of `ranges` lies in a tier of the pricing: a payment of it could be created. */
function anyPriced(pricing: PricingDef | undefined, ranges: readonly Range[]): boolean {
  if (!pricing) return false;
  return ranges.some((r) =>
    pricing.tiers.some((t) => maxOf(r.lo, money(t.min_amount)).lessThanOrEqualTo(minOf(r.hi, money(t.max_amount)))),
  );
}

/** POST /v1/payment/link/flexible: every rule of spec §4.3. */
export function planFlexible(ctx: DomainContext, shopId: string, p: FlexibleParams): FlexiblePlan {
  const shop = ctx.world.shops.get(shopId);
  if (!shop) throw new DomainError('operation_not_found', `shop ${shopId} does not exist`);
  methodFor(ctx.world, p.method, p.currency);
  const rec = money(p.recommended_amount);
  if (
    p.min_amount !== undefined &&
    p.max_amount !== undefined &&
    money(p.min_amount).greaterThan(money(p.max_amount))
  ) {
    throw new DomainError('validation_error', 'must not exceed max_amount', 'min_amount');
  }
  if (p.min_amount !== undefined && rec.lessThan(money(p.min_amount)))
    throw new DomainError('validation_error', 'must not be below min_amount', 'recommended_amount');
  if (p.max_amount !== undefined && rec.greaterThan(money(p.max_amount)))
    throw new DomainError('validation_error', 'must not exceed max_amount', 'recommended_amount');

  const fingerprint = flexibleFingerprint(p);
  const id = operationIdFor(shopId, p.merchant_operation_id);
  const existing = ctx.state.operationByMoid(shopId, p.merchant_operation_id);
  if (existing) {
    if (existing.fingerprint !== fingerprint) throw conflict(p.merchant_operation_id);
    return {
      kind: 'operation',
      plan: { kind: 'replay', op: existing },
      url: existing.type === 'payment' && existing.flexible_link === true,
    };
  }
  const link = ctx.state.link(id);
  if (link) {
    if (link.fingerprint !== fingerprint) throw conflict(p.merchant_operation_id);
    return { kind: 'link', link, changes: [], effects: [] };
  }

  const { route, pools, others } = payinRoute(ctx, shopId, p.method);
  if (others.length > 0 || pools.length === 0) {
    throw new DomainError(
      'not_pool_only',
      `the shop's ${echo(p.method)} payin route goes through providers other than the self-matching pool; use POST /v1/payment/link`,
    );
  }
  if (!shop.flexible_links || !shop.hosted_page) {
    // No opt-in (the picker lives on the hosted page, so a shop without one has none): never a picker; an ordinary
    // payment for the recommended amount, and payment_url null.
    return {
      kind: 'operation',
      plan: planCreate(ctx, shopId, 'payment', createParams(p, toScale2(p.recommended_amount)), { fingerprint }),
      url: false,
    };
  }
  if (takeableNow(ctx, shopId, route, pools, p.method, p.recommended_amount)) {
    const plan = planCreate(ctx, shopId, 'payment', createParams(p, toScale2(p.recommended_amount)), {
      fingerprint,
      flexibleLink: true,
    });
    return { kind: 'operation', plan, url: true };
  }
  const now = iso(ctx.now);
  // A picker only when the payer could actually pay some amount: within the link's bounds and the route's limits,
  // free in the pool, and priced for this shop.
  const { lo, hi } = linkBounds(route, p);
  const any = anyPriced(
    ctx.world.pricingFor(shopId, p.method, 'payin'),
    poolIntervals(ctx, pools, p.method, p.currency, lo, hi).intervals,
  );
  const base = {
    id,
    shop_id: shopId,
    merchant_operation_id: p.merchant_operation_id,
    fingerprint,
    params: p,
    created_at: now,
    updated_at: now,
  };
  const record: LinkRecord = any
    ? { ...base, status: 'amount_selection', expires_at: iso(ctx.now + shop.flexible_link_lifetime_ms) }
    : { ...base, status: 'rejected' };
  return { kind: 'link', link: record, changes: [{ kind: 'link', link: record }], effects: linkTimersOf(record) };
}

/**
 * The payer confirms an amount on a link in amount_selection: the payment is created with that amount, or rejected
 * (reason amount_taken) when no slot can take it any more. Confirming again returns the payment.
 */
export function planConfirm(ctx: DomainContext, shopId: string, id: string, amount: string): CreatePlan {
  const link = ctx.state.link(id);
  if (!link || link.shop_id !== shopId)
    throw new DomainError('operation_not_found', 'no flexible link with this operation_id');
  if (link.status === 'confirmed') {
    const op = ctx.state.operation(id);
    if (op) return { kind: 'replay', op };
  }
  if (link.status === 'rejected')
    throw new DomainError('invalid_state', 'this flexible link found nothing available; there is no amount to confirm');
  const expiry = linkExpiry(link);
  if (link.status === 'expired' || (expiry && Date.parse(expiry) <= ctx.now)) {
    throw new DomainError(
      'invalid_state',
      `this flexible link expired at ${expiry}; the merchant must create a new one`,
    );
  }
  const p = link.params;
  const a = money(amount);
  const { route, pools } = payinRoute(ctx, shopId, p.method);
  const { lo, hi } = linkBounds(route, p);
  const which = (given: string | undefined, bound: Decimal) =>
    given !== undefined && money(given).equals(bound) ? "the link's" : "the route's";
  if (a.lessThan(lo))
    throw new DomainError(
      'validation_error',
      `must not be below ${which(p.min_amount, lo)} min_amount ${toScale2(lo)}`,
      'amount',
    );
  if (a.greaterThan(hi))
    throw new DomainError(
      'validation_error',
      `must not exceed ${which(p.max_amount, hi)} max_amount ${toScale2(hi)}`,
      'amount',
    );
  const chosen = toScale2(amount);
  const available = takeableNow(ctx, shopId, route, pools, p.method, chosen);
  const plan = planCreate(ctx, shopId, 'payment', createParams(p, chosen), {
    fingerprint: link.fingerprint,
    flexibleLink: true,
    fromLink: true,
    ...(available ? {} : { reject: 'amount_taken' }),
  });
  if (plan.kind !== 'commit') return plan;
  const now = iso(ctx.now);
  const { id: lid, shop_id, merchant_operation_id, fingerprint, params, created_at } = link;
  const confirmed: LinkRecord = {
    id: lid,
    shop_id,
    merchant_operation_id,
    fingerprint,
    params,
    created_at,
    status: 'confirmed',
    confirmed_amount: chosen,
    updated_at: now,
  };
  return { ...plan, changes: [...plan.changes, { kind: 'link', link: confirmed }] };
}

/** The link lifetime elapsed with no choice: nothing is created and no event fires. No-op otherwise. */
export function expireLink(ctx: DomainContext, id: string): StateChange[] | undefined {
  const link = ctx.state.link(id);
  if (!link || link.status !== 'amount_selection' || !link.expires_at || Date.parse(link.expires_at) > ctx.now)
    return undefined;
  return [{ kind: 'link', link: { ...link, status: 'expired', updated_at: iso(ctx.now) } }];
}
