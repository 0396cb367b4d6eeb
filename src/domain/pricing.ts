// Commission: percent + fixed per amount tier, in the settlement currency, rounded half up to scale 2; and FX
// conversion of a request-currency amount into the ledger currency, rounded the same way.
import type { Decimal } from 'decimal.js';
import type { Conversion } from './operation.js';
import type { PricingDef } from './world.js';
import { money, round2 } from './money.js';

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
  return pricing?.tiers.find((t) => amount.greaterThanOrEqualTo(money(t.min_amount)) && amount.lessThanOrEqualTo(money(t.max_amount)));
}

/** Commission on a gross settlement amount. */
export function commissionOn(gross: Decimal, tier: { percent: string; fixed: string }): Decimal {
  return round2(gross.times(money(tier.percent)).dividedBy(100).plus(money(tier.fixed)));
}

/** Whether the tiers cover every amount (at cent granularity) from `lo` to `hi` inclusive. */
export function pricingCovers(pricing: PricingDef | undefined, lo: Decimal, hi: Decimal): boolean {
  if (!pricing) return false;
  const tiers = pricing.tiers.map((t) => ({ min: money(t.min_amount), max: money(t.max_amount) })).sort((a, b) => a.min.comparedTo(b.min));
  let cursor = lo;
  for (const t of tiers) {
    if (t.min.greaterThan(cursor)) break;
    if (t.max.greaterThanOrEqualTo(cursor)) cursor = t.max.plus(money('0.01'));
    if (cursor.greaterThan(hi)) return true;
  }
  return cursor.greaterThan(hi);
}
