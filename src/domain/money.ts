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

// Integer cents: the exact fast path of a create's arithmetic. An amount with at most 2 decimals and at most 13 whole
// digits is an exact integer number of cents (< 2^53); anything else (more decimals, a sign, an exponent) gives
// undefined and the caller keeps Decimal. Read digit by digit: no regex match, no memo (a request's amount is a new
// string every time, and hashing it for a memo costs more than reading it).

/** `value` in cents ("1500.00" → 150000, "0.5" → 50), or undefined when it is not such a plain amount. */
export function centsOf(value: string): number | undefined {
  const n = value.length;
  let whole = 0;
  let i = 0;
  for (; i < n; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    whole = whole * 10 + d;
  }
  if (i === 0 || i > 13) return undefined;
  if (i === n) return whole * 100;
  if (value.charCodeAt(i) !== 46 || n - i < 2 || n - i > 3) return undefined; // "." then 1 or 2 digits
  const d1 = value.charCodeAt(i + 1) - 48;
  const d2 = n - i === 3 ? value.charCodeAt(i + 2) - 48 : 0;
  if (d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return undefined;
  return whole * 100 + d1 * 10 + d2;
}

/** A number of cents as a scale-2 string, as `toScale2` writes it (150000 → "1500.00", -50 → "-0.50", never "-0.00"). */
export function centsText(cents: number): string {
  const a = cents < 0 ? -cents : cents;
  const frac = a % 100;
  const s = `${(a - frac) / 100}.${frac < 10 ? '0' : ''}${frac}`;
  return cents < 0 ? `-${s}` : s;
}
