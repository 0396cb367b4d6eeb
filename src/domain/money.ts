// Exact money arithmetic: one Decimal configuration, one named rounding mode, one wire format.
import { Decimal } from 'decimal.js';

/** Decimal clone used for every amount: 40 significant digits, ROUND_HALF_UP when a scale is applied. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

/** Rounding applied whenever an amount is brought to scale 2 (commission, FX conversion). */
export const ROUNDING = Decimal.ROUND_HALF_UP;

export const ZERO = new Money(0);

export function money(value: Decimal.Value): Decimal {
  return new Money(value);
}

/** Scale-2 string, e.g. "1500.00". */
export function toScale2(value: Decimal.Value): string {
  const d = new Money(value).toDecimalPlaces(2, ROUNDING);
  const s = d.toFixed(2);
  return s === '-0.00' ? '0.00' : s;
}

/** Round to scale 2 (kopecks/cents), half up. */
export function round2(value: Decimal.Value): Decimal {
  return new Money(value).toDecimalPlaces(2, ROUNDING);
}

export function sum(values: Iterable<Decimal.Value>): Decimal {
  let total = new Money(0);
  for (const v of values) total = total.plus(v);
  return total;
}
