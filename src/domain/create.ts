// Creating payments and payouts (spec §2.1–§2.3, §4.1, §4.2, §4.4): field rules, idempotency, routing through
// simulated providers, amounts and the payout reserve. Pure: returns the changes to write. What a provider's
// acceptance adds, and the end of an acceptance wait, are in acceptance.ts.
import type { PaymentFields, PayoutFields } from './operation.js';
import type { Conversion, Destination, OperationKind, OperationRecord } from './operation.js';
import type { DomainContext } from './state.js';
import type { ProviderDef, RouteDef, ShopDef } from './world.js';
import { DomainError } from './errors.js';
import { validate } from './create-rules.js';
import { echo } from '../contract/echo.js';
import { operationIdFor } from './ids.js';
import { SLOW_ACCEPTANCE_MS, TIMEOUT_ACCEPTANCE_MS, magicTags, type MagicTag } from './magic.js';
import { centsOf, centsText, money, toScale2 } from './money.js';
import { movedTo, type Moved } from './lifecycle.js';
import { commissionCents, commissionOn, converted, tierFor, tierForCents } from './pricing.js';
import { eventFor, SETTLED_TO_NOTHING } from './transitions.js';
import type { Slot } from './pool.js';
import { iso } from './state.js';

export { methodFor } from './create-rules.js';
export { ACCEPTANCE_WAIT_MS, finishAdmission } from './acceptance.js';
import { ACCEPTANCE_WAIT_MS, acceptedChanges, acceptedFields, fundsSuffice, withEvent } from './acceptance.js';

export const ANONYMOUS_NAME = 'аноним';

export interface CreateParams {
  merchant_operation_id: string;
  client_id: string;
  client_ip?: string | undefined;
  method: string;
  amount: string;
  currency: string;
  number?: string | undefined;
  name?: string | undefined;
  bankname?: string | undefined;
}

export type CreatePlan =
  | { kind: 'replay'; op: OperationRecord }
  | ({ kind: 'commit' } & Moved)
  /** The create is refused (validation, a conflict, an unknown shop): the error as a value, nothing to write. */
  | { kind: 'refused'; error: DomainError };

/**
 * Canonical form of a create body. "Same body" means: the same operation type and the same values of
 * every field of §2.2 after normalisation — amount compared at scale 2 ("100" = "100.00"), an absent
 * optional field equal to an empty one; key order, whitespace and unknown fields do not matter.
 */
export function fingerprintOf(kind: OperationKind, p: CreateParams): string {
  return JSON.stringify([kind, p.method, toScale2(p.amount), ...partyFields(p)]);
}

/** The fields of a create body besides method and amounts, normalised (absent = empty), in fingerprint order. */
export function partyFields(p: Omit<CreateParams, 'amount' | 'method' | 'merchant_operation_id'>): string[] {
  return [p.currency, p.client_id, p.client_ip ?? '', p.number ?? '', p.name ?? '', p.bankname ?? ''];
}

interface ProviderChoice {
  provider: ProviderDef;
  latencyMs: number;
  /** A pool payment: the payout slot it claims. */
  slot?: Slot;
}

/**
 * Providers in route order; the first that accepts wins. A self-matching provider takes every payout (as a new
 * slot) and a payment only when a slot in matching order can give its amount.
 */
function chooseProvider(
  ctx: DomainContext,
  kind: OperationKind,
  route: RouteDef,
  p: CreateParams,
  magic: MagicTag[],
): ProviderChoice | undefined {
  if (magic.includes('reject')) return undefined;
  for (const id of route.providers) {
    const provider = ctx.world.providers.get(id);
    if (!provider || !provider.accepts) continue;
    let slot: Slot | undefined;
    if (provider.kind === 'self_matching' && kind === 'payment') {
      slot = ctx.state.poolWindow(provider.id, p.method)?.match(money(p.amount), provider.pool!);
      if (!slot) continue;
    }
    let latencyMs = provider.acceptance_latency_ms;
    if (magic.includes('slow')) latencyMs = SLOW_ACCEPTANCE_MS;
    if (magic.includes('timeout')) latencyMs = TIMEOUT_ACCEPTANCE_MS;
    return slot ? { provider, latencyMs, slot } : { provider, latencyMs };
  }
  return undefined;
}

/** Options of a create that comes from a flexible link (spec §4.3). */
export interface CreateOptions {
  /** Fingerprint of the flexible-link request, stored instead of the create body's. */
  fingerprint?: string;
  /** Created through an opted-in flexible link: the hosted page needs its k credential. */
  flexibleLink?: boolean;
  /** Created through POST /v1/payment/link: it has a hosted page (a payment created otherwise never does). */
  hostedLink?: boolean;
  /** The payer's amount confirmation of a link (which exists under the same id). */
  fromLink?: boolean;
  /** Reject at once with this reason (the chosen amount was taken at the last moment). */
  reject?: string;
}

/** The amounts of a create, as scale-2 strings (each exact at scale 2: gross and commission are rounded to it). */
interface Quote {
  conversion?: Conversion;
  settlement_currency: string;
  commission: string;
  settlement: string;
}

function quote(
  ctx: DomainContext,
  kind: OperationKind,
  shop: ShopDef,
  p: CreateParams,
  provider: ProviderDef | undefined,
): Quote | undefined {
  const direction = kind === 'payment' ? 'payin' : 'payout';
  const pricing = ctx.world.pricingFor(shop.id, p.method, direction);
  let conversion: Conversion | undefined;
  if (provider?.conversion) {
    const source = ctx.world.fx.get(provider.conversion.source);
    const r = source?.rates[`${p.currency}/${provider.conversion.to}`];
    if (r) conversion = { source: provider.conversion.source, rate: r, ledger_currency: provider.conversion.to };
  }
  const settlement_currency = conversion?.ledger_currency ?? p.currency;
  // Without a conversion, a plain amount is priced in integer cents (the same values exactly); else in Decimal.
  const cents = conversion ? undefined : centsOf(p.amount);
  if (cents !== undefined) {
    const tier = tierForCents(pricing, cents);
    if (tier === undefined) return undefined;
    const commission = tier === null ? undefined : commissionCents(cents, tier);
    if (commission !== undefined) {
      const settlement = kind === 'payment' ? cents - commission : cents + commission;
      return { settlement_currency, commission: centsText(commission), settlement: centsText(settlement) };
    }
  }
  const amount = money(p.amount);
  const tier = tierFor(pricing, amount);
  const gross = converted(amount, conversion);
  if (!tier) return undefined;
  const commission = commissionOn(gross, tier);
  const settlement = kind === 'payment' ? gross.minus(commission) : gross.plus(commission);
  return {
    ...(conversion ? { conversion } : {}),
    settlement_currency,
    commission: toScale2(commission),
    settlement: toScale2(settlement),
  };
}

/** Plan a create: replay, refused (a domain error as a value), or a new operation (admitting, accepted or rejected). */
export function planCreate(
  ctx: DomainContext,
  shopId: string,
  kind: OperationKind,
  p: CreateParams,
  opts: CreateOptions = {},
): CreatePlan {
  try {
    return plan(ctx, shopId, kind, p, opts);
  } catch (e) {
    // The rules below refuse by throwing a DomainError; the command returns it. Anything else is a bug: it throws.
    if (e instanceof DomainError) return { kind: 'refused', error: e };
    throw e;
  }
}

function plan(
  ctx: DomainContext,
  shopId: string,
  kind: OperationKind,
  p: CreateParams,
  opts: CreateOptions,
): CreatePlan {
  const shop = ctx.world.shops.get(shopId);
  if (!shop) throw new DomainError('operation_not_found', `shop ${shopId} does not exist`);
  const method = validate(ctx, kind, p);
  const fingerprint = opts.fingerprint ?? fingerprintOf(kind, p);
  const existing = ctx.state.operationByMoid(shopId, p.merchant_operation_id);
  const id = operationIdFor(shopId, p.merchant_operation_id);
  if (existing || (!opts.fromLink && ctx.state.link(id))) {
    if (existing && existing.fingerprint === fingerprint) return { kind: 'replay', op: existing };
    throw conflict(p.merchant_operation_id);
  }
  const now = iso(ctx.now);
  const magic = magicTags(p.client_id);
  const direction = kind === 'payment' ? 'payin' : 'payout';
  const route = ctx.world.route(shopId, p.method, direction);
  const choice = route && !opts.reject ? chooseProvider(ctx, kind, route, p, magic) : undefined;
  const q = quote(ctx, kind, shop, p, choice?.provider);
  const amount = toScale2(p.amount);

  const destination: Destination | undefined =
    kind === 'payout'
      ? {
          number: p.number ?? '',
          name: p.name ? p.name : ANONYMOUS_NAME,
          ...(method.payout_bankname === 'required' && p.bankname ? { bankname: p.bankname } : {}),
        }
      : undefined;

  // Built by assignment, not conditional spreads: this runs on every create.
  const base: Base = {
    id,
    shop_id: shopId,
    merchant_operation_id: p.merchant_operation_id,
    fingerprint,
    type: kind,
    method: p.method,
    currency: p.currency,
    expected_amount: amount,
    actual_amount: '0.00',
    client_id: p.client_id,
    magic,
    commission_amount: q ? q.commission : '0.00',
    settlement_amount: q ? q.settlement : '0.00',
    settlement_currency: q?.settlement_currency ?? p.currency,
    requires_receipt: false,
    created_at: now,
    updated_at: now,
  };
  if (p.client_ip) base.client_ip = p.client_ip;
  if (destination) base.destination = destination;
  if (route) base.route_id = route.id;
  if (choice) base.provider_id = choice.provider.id;
  if (q?.conversion) base.conversion = q.conversion;
  if (opts.flexibleLink) base.flexible_link = true;
  if (opts.hostedLink && kind === 'payment') base.hosted_link = true;
  if (choice?.slot) base.claim = { payout_id: choice.slot.payout_id, amount };
  if (kind === 'payout' && choice?.provider.kind === 'self_matching') base.pool_id = choice.provider.id;

  const rejectReason = opts.reject ?? rejectionOf(ctx, kind, shop, p, route, choice, q);
  return firstMove(ctx, base, choice, q, rejectReason);
}

export function conflict(merchantOperationId: string): DomainError {
  return new DomainError(
    'idempotency_conflict',
    `merchant_operation_id ${echo(merchantOperationId)} was already used with a different body; use a new merchant_operation_id`,
    'merchant_operation_id',
  );
}

/** An operation before its first status. */
type Base = Omit<Extract<OperationRecord, { status: 'pending' }>, 'status' | 'history' | 'type'> & {
  type: OperationKind;
} & Partial<Omit<PaymentFields, 'type'> & Omit<PayoutFields, 'type'>>;

/** Why a create is rejected at once, if it is: the first rule it breaks, in the order the gateway checks them. */
function rejectionOf(
  ctx: DomainContext,
  kind: OperationKind,
  shop: ShopDef,
  p: CreateParams,
  route: RouteDef | undefined,
  choice: ProviderChoice | undefined,
  q: Quote | undefined,
): string | undefined {
  if (!route) return 'no_route';
  if (!choice) return 'no_provider_accepted';
  if (!q) return 'pricing_not_covered';
  if (outsideLimits(p.amount, route)) return 'amount_out_of_route_limits';
  // settlement is a scale-2 string, never "-0.00": positive unless signed or zero
  if (kind === 'payment' && (q.settlement.startsWith('-') || q.settlement === '0.00')) return 'amount_below_commission';
  if (kind === 'payout' && !fundsSuffice(ctx, shop, q)) return 'insufficient_funds';
  return undefined;
}

function outsideLimits(amount: string, route: RouteDef): boolean {
  const c = centsOf(amount);
  const min = centsOf(route.min_amount);
  const max = centsOf(route.max_amount);
  if (c !== undefined && min !== undefined && max !== undefined) return c < min || c > max;
  return money(amount).lessThan(money(route.min_amount)) || money(amount).greaterThan(money(route.max_amount));
}

/** The new operation's first status: rejected, admitting (the provider takes its time), or accepted at once. */
function firstMove(
  ctx: DomainContext,
  base: Base,
  choice: ProviderChoice | undefined,
  q: Quote | undefined,
  rejectReason: string | undefined,
): CreatePlan {
  const now = base.created_at;
  if (rejectReason || !choice || !q) {
    delete base.claim;
    delete base.pool_id;
    const op: OperationRecord = {
      ...base,
      ...SETTLED_TO_NOTHING,
      status: 'rejected',
      rejected_at: now,
      reject_reason: rejectReason ?? 'no_provider_accepted',
      history: [{ at: now, from: null, to: 'rejected', cause: `create: ${rejectReason}` }],
    };
    return { kind: 'commit', ...movedTo(ctx, op, withEvent(op)) };
  }

  if (choice.latencyMs > 0) {
    const waitMs = Math.min(choice.latencyMs, ACCEPTANCE_WAIT_MS);
    const op: OperationRecord = {
      ...base,
      status: 'admitting',
      accept_at: iso(ctx.now + waitMs),
      history: [{ at: now, from: null, to: 'admitting', cause: 'create: waiting for provider acceptance' }],
    };
    return { kind: 'commit', ...movedTo(ctx, op, [{ kind: 'operation', op }]) };
  }

  // Accepted at once: build the operation in its first status directly.
  const fields = acceptedFields(ctx, base, choice.provider);
  const status = fields.requires_receipt ? 'awaiting_confirmation' : 'pending';
  // The new record is `base` itself, completed in place (base is this create's own object): the same keys in the same
  // order as a spread would give, without copying them all into another object.
  const op = Object.assign(base, fields, {
    status,
    history: [{ at: now, from: null, to: status, cause: 'create' }],
  }) as OperationRecord;
  return { kind: 'commit', ...movedTo(ctx, op, acceptedChanges(op, eventFor(op), now)) };
}
