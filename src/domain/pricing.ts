// Commission: percent + fixed per amount tier, in the settlement currency, rounded half up to scale 2.
import type { Decimal } from 'decimal.js';
import type { PricingDef } from './world.js';
import { money, round2 } from './money.js';

/** The tier covering `amount` (in the request currency), or undefined. */
export function tierFor(pricing: PricingDef | undefined, amount: Decimal) {
  return pricing?.tiers.find((t) => amount.greaterThanOrEqualTo(money(t.min_amount)) && amount.lessThanOrEqualTo(money(t.max_amount)));
}

/** Commission on a gross settlement amount. */
export function commissionOn(gross: Decimal, tier: { percent: string; fixed: string }): Decimal {
  return round2(gross.times(money(tier.percent)).dividedBy(100).plus(money(tier.fixed)));
}
