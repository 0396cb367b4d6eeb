// zod schema of a fixture file (the sandbox world), with cross-reference checks that name the JSON path at fault.
import { z } from 'zod';
import type { World } from '../domain/world.js';
import { FaultInput } from '../contract/faults.js';
import { AMOUNT_PATTERN } from '../contract/money.js';
import { money } from '../domain/money.js';
import { parseDurationText } from '../contract/duration.js';

/** Fixture durations use the project's one grammar (src/contract/duration.ts). */
export { parseDuration } from '../contract/duration.js';

const Duration = z.string().transform((s, ctx) => {
  const r = parseDurationText(s);
  if (r.ok) return r.ms;
  ctx.addIssue({ code: 'custom', message: r.message });
  return z.NEVER;
});

const Id = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_.:-]+$/, { message: 'must be an identifier (letters, digits, _ . : -)' });
const Amount = z.string().regex(AMOUNT_PATTERN, { message: 'must be a decimal string such as "100.00"' });
const SignedAmount = z.string().regex(/^-?(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/, { message: 'must be a decimal string' });
const Decimal = z.string().regex(/^[0-9]+(\.[0-9]+)?$/, { message: 'must be a decimal string' });
const Direction = z.enum(['payin', 'payout']);

const Provider = z
  .object({
    id: Id,
    name: z.string(),
    kind: z.enum(['simulated', 'self_matching']).default('simulated'),
    accepts: z.boolean().default(true),
    acceptance_latency: Duration.default(0),
    requires_receipt: z.boolean().default(false),
    expiry: Duration.nullable().default(null),
    conversion: z.object({ to: z.string(), source: Id }).nullable().default(null),
    payout_settlement: Duration.default(5000),
    inbound_banks: z.array(z.string()).default([]),
    pool: z
      .object({ min_piece: Amount.default('500.00'), min_remainder: Amount.default('500.00') })
      .strict()
      .optional(),
  })
  .strict()
  .transform(({ acceptance_latency, expiry, payout_settlement, pool, ...rest }) => ({
    ...rest,
    acceptance_latency_ms: acceptance_latency,
    expiry_ms: expiry,
    payout_settlement_ms: payout_settlement,
    // Every self-matching provider has a pool; its rules default to 500.00 / 500.00.
    ...(rest.kind === 'self_matching' ? { pool: pool ?? { min_piece: '500.00', min_remainder: '500.00' } } : {}),
  }));

const PoolLayout = z
  .object({
    shop_id: Id,
    method: Id,
    amounts: z
      .array(Amount.refine((s) => /[1-9]/.test(s), { message: 'must be greater than 0' }))
      .max(100_000)
      .optional(),
    generate: z
      .object({
        count: z.number().int().min(1).max(100_000),
        min: Amount.refine((s) => /[1-9]/.test(s), { message: 'must be greater than 0' }),
        max: Amount,
        step: Amount.refine((s) => /[1-9]/.test(s), { message: 'must be greater than 0' }).default('1.00'),
        seed: z.number().int().default(1),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((l) => (l.amounts === undefined) !== (l.generate === undefined), {
    message: 'give either amounts or generate',
  });

const WorldFields = z
  .object({
    $schema: z.string().optional(),
    name: z.string().default('paygate sandbox'),
    currencies: z.array(z.string().regex(/^[A-Z]{3,5}$/)).min(1),
    merchants: z.array(z.object({ id: Id, name: z.string() }).strict()),
    shops: z.array(
      z
        .object({
          id: Id,
          merchant_id: Id,
          name: z.string(),
          hosted_page: z.boolean().default(true),
          flexible_links: z.boolean().default(false),
          flexible_link_lifetime: Duration.default(900_000),
          /** What the flexible link's hosted page offers the payer (spec §4.3 rule 7): the available ranges, or one amount field. */
          flexible_link_picker: z.enum(['ranges', 'amount']).default('ranges'),
          currencies: z.array(z.string()).optional(),
          opening_balances: z.record(z.string(), SignedAmount).default({}),
          overdraft_limits: z.record(z.string(), Amount).default({}),
        })
        .strict(),
    ),
    api_keys: z.array(
      z
        .object({
          id: Id,
          shop_id: Id,
          key: z.string().min(16, { message: 'must be at least 16 characters' }),
          revoked: z.boolean().default(false),
          label: z.string().optional(),
          scopes: z.array(z.enum(['links', 'amounts'])).optional(),
        })
        .strict(),
    ),
    methods: z.array(
      z
        .object({
          id: Id,
          currency: z.string(),
          rail: z.string(),
          payout_number: z.enum(['required', 'optional']).default('required'),
          payout_bankname: z.enum(['required', 'ignored']).default('ignored'),
          title: z.string().optional(),
        })
        .strict(),
    ),
    banks: z.array(z.object({ code: Id, name: z.string(), currency: z.string() }).strict()),
    providers: z.array(Provider),
    routes: z.array(
      z
        .object({
          id: Id,
          shop_id: Id,
          method: Id,
          direction: Direction,
          providers: z.array(Id).min(1),
          min_amount: Amount.default('0.01'),
          max_amount: Amount.default('999999999.99'),
        })
        .strict(),
    ),
    pricing: z.array(
      z
        .object({
          shop_id: Id,
          method: Id,
          direction: Direction,
          tiers: z
            .array(z.object({ min_amount: Amount, max_amount: Amount, percent: Decimal, fixed: Amount }).strict())
            .min(1),
        })
        .strict(),
    ),
    fx_sources: z
      .array(z.object({ id: Id, name: z.string(), rates: z.record(z.string(), Decimal) }).strict())
      .default([]),
    webhooks: z
      .array(
        z
          .object({
            id: Id,
            shop_id: Id,
            url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }),
            secret: z
              .string()
              .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, { message: 'must be whsec_ followed by base64' })
              .optional(),
          })
          .strict(),
      )
      .default([]),
    pool_layouts: z.array(PoolLayout).default([]),
    /** Faults injected from the start, and again after every reset (src/contract/faults.ts; docs/faults.md). */
    faults: z.array(FaultInput).max(100).default([]),
  })
  .strict()
  .transform(({ shops, ...rest }) => ({
    ...rest,
    shops: shops.map(({ flexible_link_lifetime, ...s }) => ({
      ...s,
      flexible_link_lifetime_ms: flexible_link_lifetime,
    })),
  }));

type WorldFields = z.output<typeof WorldFields>;
type Issue = (path: (string | number)[], message: string) => void;
const has = (list: { id: string }[], id: string) => list.some((x) => x.id === id);

/** Every id is unique within its list. */
function checkIds(w: WorldFields, issue: Issue): void {
  const unique = (name: string, ids: string[]) => {
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) issue([name, i, 'id'], `duplicate id ${id}`);
      seen.add(id);
    });
  };
  unique(
    'merchants',
    w.merchants.map((m) => m.id),
  );
  unique(
    'shops',
    w.shops.map((s) => s.id),
  );
  unique(
    'api_keys',
    w.api_keys.map((k) => k.id),
  );
  unique(
    'methods',
    w.methods.map((m) => m.id),
  );
  unique(
    'providers',
    w.providers.map((p) => p.id),
  );
  unique(
    'routes',
    w.routes.map((r) => r.id),
  );
  unique(
    'webhooks',
    w.webhooks.map((h) => h.id),
  );
}

/** Keys are unique and belong to a shop; shops to a merchant; every currency named is one of `currencies`. */
function checkShops(w: WorldFields, issue: Issue): void {
  w.webhooks.forEach((h, i) => {
    if (!has(w.shops, h.shop_id)) issue(['webhooks', i, 'shop_id'], `unknown shop ${h.shop_id}`);
  });
  const keys = new Set<string>();
  w.api_keys.forEach((k, i) => {
    if (keys.has(k.key)) issue(['api_keys', i, 'key'], 'duplicate key');
    keys.add(k.key);
    if (!has(w.shops, k.shop_id)) issue(['api_keys', i, 'shop_id'], `unknown shop ${k.shop_id}`);
  });
  w.shops.forEach((s, i) => {
    if (!has(w.merchants, s.merchant_id)) issue(['shops', i, 'merchant_id'], `unknown merchant ${s.merchant_id}`);
    for (const c of [...(s.currencies ?? []), ...Object.keys(s.opening_balances), ...Object.keys(s.overdraft_limits)]) {
      if (!w.currencies.includes(c)) issue(['shops', i], `currency ${c} is not in currencies`);
    }
  });
}

/** Methods, banks and providers: their currencies, fx sources and banks exist. */
function checkProviders(w: WorldFields, issue: Issue): void {
  w.methods.forEach((m, i) => {
    if (!w.currencies.includes(m.currency))
      issue(['methods', i, 'currency'], `currency ${m.currency} is not in currencies`);
  });
  w.banks.forEach((b, i) => {
    if (!w.currencies.includes(b.currency))
      issue(['banks', i, 'currency'], `currency ${b.currency} is not in currencies`);
  });
  w.providers.forEach((p, i) => {
    if (p.conversion) {
      if (!w.currencies.includes(p.conversion.to))
        issue(['providers', i, 'conversion', 'to'], `currency ${p.conversion.to} is not in currencies`);
      if (!w.fx_sources.some((f) => f.id === p.conversion!.source))
        issue(['providers', i, 'conversion', 'source'], `unknown fx source ${p.conversion.source}`);
    }
    p.inbound_banks.forEach((b, j) => {
      if (!w.banks.some((x) => x.code === b)) issue(['providers', i, 'inbound_banks', j], `unknown bank ${b}`);
    });
  });
}

/** Routes (one per shop, method and direction), pool layouts, faults and pricing name rows that exist. */
function checkRoutes(w: WorldFields, issue: Issue): void {
  const routeKeys = new Set<string>();
  w.routes.forEach((r, i) => {
    if (!has(w.shops, r.shop_id)) issue(['routes', i, 'shop_id'], `unknown shop ${r.shop_id}`);
    if (!has(w.methods, r.method)) issue(['routes', i, 'method'], `unknown method ${r.method}`);
    r.providers.forEach((p, j) => {
      if (!has(w.providers, p)) issue(['routes', i, 'providers', j], `unknown provider ${p}`);
    });
    const k = `${r.shop_id}/${r.method}/${r.direction}`;
    if (routeKeys.has(k)) issue(['routes', i], `a second route for ${k}`);
    routeKeys.add(k);
  });
  w.pool_layouts.forEach((l, i) => {
    if (!has(w.shops, l.shop_id)) issue(['pool_layouts', i, 'shop_id'], `unknown shop ${l.shop_id}`);
    const route = w.routes.find((r) => r.shop_id === l.shop_id && r.method === l.method && r.direction === 'payout');
    const pooled = route?.providers.some((id) => w.providers.find((p) => p.id === id)?.kind === 'self_matching');
    if (!pooled)
      issue(
        ['pool_layouts', i, 'method'],
        `shop ${l.shop_id} has no ${l.method} payout route through a self_matching provider`,
      );
    if (l.generate && money(l.generate.min).greaterThan(money(l.generate.max)))
      issue(['pool_layouts', i, 'generate', 'min'], 'must not exceed max');
  });
  w.faults.forEach((f, i) => {
    if (f.shop_id !== undefined && !has(w.shops, f.shop_id))
      issue(['faults', i, 'shop_id'], `unknown shop ${f.shop_id}`);
  });
  w.pricing.forEach((p, i) => {
    if (!has(w.shops, p.shop_id)) issue(['pricing', i, 'shop_id'], `unknown shop ${p.shop_id}`);
    if (!has(w.methods, p.method)) issue(['pricing', i, 'method'], `unknown method ${p.method}`);
  });
}

export const WorldSchema = WorldFields.superRefine((w, ctx) => {
  const issue: Issue = (path, message) => ctx.addIssue({ code: 'custom', path, message });
  checkIds(w, issue);
  checkShops(w, issue);
  checkProviders(w, issue);
  checkRoutes(w, issue);
});

/** Compile-time check that the parsed fixture is a domain World. */
export type ParsedWorld = z.output<typeof WorldSchema>;
const _assertWorld = (w: ParsedWorld): World => w;
void _assertWorld;
