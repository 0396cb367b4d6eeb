// The sandbox world: merchants, shops, keys, methods, banks, providers, routes, pricing, FX sources and webhooks.
// Plain data, validated by src/world before it reaches the domain.

export type Direction = 'payin' | 'payout';

export interface MethodDef {
  id: string;
  currency: string;
  rail: 'card' | 'phone' | string;
  /** Payout destination rules. */
  payout_number: 'required' | 'optional';
  payout_bankname: 'required' | 'ignored';
  title?: string;
}

export interface BankDef {
  code: string;
  name: string;
  currency: string;
}

export interface ShopDef {
  id: string;
  merchant_id: string;
  name: string;
  hosted_page: boolean;
  flexible_links: boolean;
  /** How long a flexible link waits in amount_selection for the payer's choice (ms of sandbox time). */
  flexible_link_lifetime_ms: number;
  /** What a flexible link's hosted page offers (spec §4.3 rule 7): a list of the available ranges, or one amount field. */
  flexible_link_picker: 'ranges' | 'amount';
  /** Currencies that have a balance row; defaults to every world currency. */
  currencies?: string[];
  opening_balances: Record<string, string>;
  /** How far below zero a payout reserve may take the balance, per currency; default 0. */
  overdraft_limits: Record<string, string>;
}

export interface ApiKeyDef {
  id: string;
  shop_id: string;
  /** Demo plaintext, sandbox only; the store keeps only its SHA-256 hash. */
  key: string;
  revoked: boolean;
  label?: string;
  /** Optional endpoints this key may call (`links`, `amounts`); absent = all. Core endpoints are always allowed. */
  scopes?: KeyScope[];
}

/** Optional endpoint groups a key can be limited to: hosted links (§4.2, §4.3) and amount reads (§4.9, §4.10). */
export type KeyScope = 'links' | 'amounts';
export const KEY_SCOPES: readonly KeyScope[] = ['links', 'amounts'];

export interface ProviderDef {
  id: string;
  name: string;
  kind: 'simulated' | 'self_matching';
  /** Whether the provider accepts operations at all. */
  accepts: boolean;
  /** Time the provider takes to accept, in milliseconds of sandbox time. */
  acceptance_latency_ms: number;
  requires_receipt: boolean;
  /** Timing window the provider reports for payments (ms); null means none reported. */
  expiry_ms: number | null;
  /** Auto-conversion into a ledger currency. */
  conversion: { to: string; source: string } | null;
  /** Time until a payout settles, in ms of sandbox time. */
  payout_settlement_ms: number;
  /** Banks the provider hands out for inbound phone requisites. */
  inbound_banks: string[];
  /** Matching rules of a self_matching provider's pool (see docs/pool.md); absent for simulated providers. */
  pool?: PoolRules;
}

/** How payments may split a payout slot: a claim takes the whole free remainder, or a piece of at least
 * `min_piece` that leaves at least `min_remainder` free. */
export interface PoolRules {
  min_piece: string;
  min_remainder: string;
}

/** Payouts to lay out in a pool when the store is first seeded (or through POST /sandbox/pool/layout). */
export interface PoolLayoutDef {
  shop_id: string;
  method: string;
  /** Explicit amounts, in matching order. */
  amounts?: string[];
  /** Or generated amounts: `count` payouts between min and max in multiples of step, from a seeded generator. */
  generate?: { count: number; min: string; max: string; step: string; seed: number };
}

export interface RouteDef {
  id: string;
  shop_id: string;
  method: string;
  direction: Direction;
  /** Providers tried in order; the first that accepts wins. */
  providers: string[];
  min_amount: string;
  max_amount: string;
}

export interface PricingTier {
  min_amount: string;
  max_amount: string;
  percent: string;
  fixed: string;
}

export interface PricingDef {
  shop_id: string;
  method: string;
  direction: Direction;
  tiers: PricingTier[];
}

export interface FxSourceDef {
  id: string;
  name: string;
  /** Rates keyed "FROM/TO", e.g. "RUB/USDT": "0.0108". */
  rates: Record<string, string>;
}

/** A webhook endpoint from the fixtures; a missing secret is derived from the id (see src/emulator/webhook-outbox/records.ts). */
export interface WebhookDef {
  id: string;
  shop_id: string;
  url: string;
  secret?: string;
}

export interface World {
  name: string;
  currencies: string[];
  merchants: { id: string; name: string }[];
  shops: ShopDef[];
  api_keys: ApiKeyDef[];
  methods: MethodDef[];
  banks: BankDef[];
  providers: ProviderDef[];
  routes: RouteDef[];
  pricing: PricingDef[];
  fx_sources: FxSourceDef[];
  /** Webhook endpoints registered at start-up. Default none. */
  webhooks?: WebhookDef[];
  /** Pool payouts seeded into a new store. Default none. */
  pool_layouts?: PoolLayoutDef[];
}

/** Fast lookups over a World; `data` is the World itself. */
export class WorldIndex {
  readonly shops = new Map<string, ShopDef>();
  readonly methods = new Map<string, MethodDef>();
  readonly banks = new Map<string, BankDef>();
  readonly providers = new Map<string, ProviderDef>();
  readonly routes = new Map<string, RouteDef>();
  readonly pricing = new Map<string, PricingDef>();
  readonly fx = new Map<string, FxSourceDef>();

  constructor(readonly data: World) {
    for (const s of data.shops) this.shops.set(s.id, s);
    for (const m of data.methods) this.methods.set(m.id, m);
    for (const b of data.banks) this.banks.set(b.code, b);
    for (const p of data.providers) this.providers.set(p.id, p);
    for (const r of data.routes) this.routes.set(routeKey(r.shop_id, r.method, r.direction), r);
    for (const p of data.pricing) this.pricing.set(routeKey(p.shop_id, p.method, p.direction), p);
    for (const f of data.fx_sources) this.fx.set(f.id, f);
  }

  route(shopId: string, method: string, direction: Direction): RouteDef | undefined {
    return this.routes.get(routeKey(shopId, method, direction));
  }

  pricingFor(shopId: string, method: string, direction: Direction): PricingDef | undefined {
    return this.pricing.get(routeKey(shopId, method, direction));
  }

  shopCurrencies(shopId: string): string[] {
    return this.shops.get(shopId)?.currencies ?? this.data.currencies;
  }
}

function routeKey(shopId: string, method: string, direction: Direction): string {
  return `${shopId}\u0000${method}\u0000${direction}`;
}
