// Commission: percent + fixed per amount tier, in the settlement currency, rounded half up to scale 2; and FX
// conversion of a request-currency amount into the ledger currency, rounded the same way.
import type { Decimal } from 'decimal.js';
import type { Conversion } from './operation.js';
import type { PricingDef } from './world.js';
import { centsOf, money, round2 } from './money.js';

/**
 * `amount` (request currency) in the ledger currency: amount × rate, half up to scale 2; unchanged without a
 * conversion. The one conversion behind the gross of a quote, a settlement, `recorded_amount` and the `fx_rate`
 * quote (expected amount × rate, spec §2.3).
 */
export function converted(amount: Decimal, conversion: Pick<Conversion, 'rate'> | undefined): Decimal {
  return conversion ? round2(amount.times(money(conversion.rate))) : amount;
}

/** The tier covering `amount` (in the request currency), or undefined. */
export function tierFor(pricing: PricingDef | undefined, amount: Decimal) {
  return pricing?.tiers.find(
    (t) => amount.greaterThanOrEqualTo(money(t.min_amount)) && amount.lessThanOrEqualTo(money(t.max_amount)),
  );
}

/** Commission on a gross settlement amount. */
export function commissionOn(gross: Decimal, tier: { percent: string; fixed: string }): Decimal {
  return round2(gross.times(money(tier.percent)).dividedBy(100).plus(money(tier.fixed)));
}

/** The tier covering `cents` (the request currency's amount in cents); undefined for none, null when a tier's bounds are not plain amounts (then use `tierFor`). */
export function tierForCents<T extends { min_amount: string; max_amount: string }>(
  pricing: { tiers: readonly T[] } | undefined,
  cents: number,
): T | undefined | null {
  if (!pricing) return undefined;
  for (const t of pricing.tiers) {
    const min = centsOf(t.min_amount);
    const max = centsOf(t.max_amount);
    if (min === undefined || max === undefined) return null;
    if (cents >= min && cents <= max) return t;
  }
  return undefined;
}

const PERCENT = /^(\d{1,6})(?:\.(\d{1,6}))?$/;
const percents = new Map<string, { units: number; scale: number } | undefined>();

/** A percent as an integer and its power of ten ("2.5" → 25, 10), memoised; undefined when not plain. */
function percentOf(value: string): { units: number; scale: number } | undefined {
  if (percents.has(value)) return percents.get(value);
  const m = PERCENT.exec(value);
  const frac = m?.[2] ?? '';
  const p = m ? { units: Number(m[1]! + frac), scale: 10 ** frac.length } : undefined;
  if (percents.size >= 1_000) percents.clear();
  percents.set(value, p);
  return p;
}

/**
 * `commissionOn` in integer cents: round half up of gross × percent ÷ 100 + fixed, the same value exactly (no
 * step is inexact while every product stays below 2^53). Undefined when a value is not a plain non-negative amount
 * or the products could leave the safe range: then use `commissionOn`.
 */
export function commissionCents(grossCents: number, tier: { percent: string; fixed: string }): number | undefined {
  const pct = percentOf(tier.percent);
  const fixed = centsOf(tier.fixed);
  if (!pct || fixed === undefined || grossCents < 0) return undefined;
  // commission in cents = (gross × units + fixed × 100 × scale) ÷ (100 × scale), half up
  const d = 100 * pct.scale;
  const n = grossCents * pct.units + fixed * d;
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(grossCents * pct.units)) return undefined;
  let q = Math.floor(n / d);
  let r = n - q * d;
  if (r < 0) {
    q -= 1;
    r += d;
  } else if (r >= d) {
    q += 1;
    r -= d;
  }
  return 2 * r >= d ? q + 1 : q;
}

/** Whether the tiers cover every amount (at cent granularity) from `lo` to `hi` inclusive. */
export function pricingCovers(pricing: PricingDef | undefined, lo: Decimal, hi: Decimal): boolean {
  if (!pricing) return false;
  const tiers = pricing.tiers
    .map((t) => ({ min: money(t.min_amount), max: money(t.max_amount) }))
    .sort((a, b) => a.min.comparedTo(b.min));
  let cursor = lo;
  for (const t of tiers) {
    if (t.min.greaterThan(cursor)) break;
    if (t.max.greaterThanOrEqualTo(cursor)) cursor = t.max.plus(money('0.01'));
    if (cursor.greaterThan(hi)) return true;
  }
  return cursor.greaterThan(hi);
}
