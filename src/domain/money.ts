// Exact money arithmetic: one Decimal configuration, one named rounding mode, one wire format.
import { Decimal } from 'decimal.js';

/** Decimal clone used for every amount: 40 significant digits, ROUND_HALF_UP when a scale is applied. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

/** Rounding applied whenever an amount is brought to scale 2 (commission, FX conversion). */
export const ROUNDING = Decimal.ROUND_HALF_UP;

export const ZERO = new Money(0);

const parsed = new Map<string, Decimal>();

/** A Decimal of `value`. Decimals are immutable, so parsed strings are memoised (bounded). */
export function money(value: Decimal.Value): Decimal {
  if (typeof value !== 'string') return new Money(value);
  let d = parsed.get(value);
  if (d === undefined) {
    if (parsed.size >= 50_000) parsed.clear();
    d = new Money(value);
    parsed.set(value, d);
  }
  return d;
}

/** Scale-2 string, e.g. "1500.00". */
export function toScale2(value: Decimal.Value): string {
  if (typeof value === 'string' && /^-?\d+\.\d\d$/.test(value)) return value === '-0.00' ? '0.00' : value;
  const d = money(value).toDecimalPlaces(2, ROUNDING);
  const s = d.toFixed(2);
  return s === '-0.00' ? '0.00' : s;
}

/** Round to scale 2 (kopecks/cents), half up. */
export function round2(value: Decimal.Value): Decimal {
  return money(value).toDecimalPlaces(2, ROUNDING);
}
