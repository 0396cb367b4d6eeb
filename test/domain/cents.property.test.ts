// Property test: the integer-cents fast path of a create's pricing gives exactly what the Decimal path gives (the
// commission, its scale-2 text, the tier chosen), and declines (undefined) whatever it cannot do exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsOf, centsText, money, toScale2 } from '../../src/domain/money.js';
import { commissionCents, commissionOn, tierFor, tierForCents } from '../../src/domain/pricing.js';

const amountText = (cents: number, decimals: 0 | 1 | 2) =>
  decimals === 2
    ? centsText(cents)
    : decimals === 1
      ? `${Math.floor(cents / 100)}.${Math.floor((cents % 100) / 10)}`
      : `${Math.floor(cents / 100)}`;
const cents = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 99_999_999_999_99 }));
const percent = fc.oneof(
  fc.constantFrom('0', '1.0', '2.5', '1.75', '3', '0.125', '100', '12.345678'),
  fc
    .tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 6 }))
    .map(([w, f, n]) => (n === 0 ? `${w}` : `${w}.${String(f).padStart(6, '0').slice(0, n)}`)),
);

describe('integer cents against Decimal', () => {
  it('centsOf and centsText round-trip scale-2 amounts as toScale2 writes them', () => {
    fc.assert(
      fc.property(cents, fc.constantFrom(0, 1, 2), (c, d) => {
        const text = amountText(c, d as 0 | 1 | 2);
        const parsed = centsOf(text);
        expect(parsed).toBeDefined();
        expect(centsText(parsed!)).toBe(toScale2(text));
        expect(centsText(-parsed!)).toBe(toScale2(money(text).negated()));
      }),
    );
  });

  it('centsOf declines what is not a plain amount', () => {
    for (const s of ['-1.00', '1.001', '1e3', '', '.5', '1.', ' 1.00', '12345678901234.00', '0x10'])
      expect(centsOf(s)).toBeUndefined();
  });

  it('commissionCents equals commissionOn whenever it answers, and answers for the fixtures\u2019 kind of tiers', () => {
    fc.assert(
      fc.property(cents, percent, fc.integer({ min: 0, max: 10_000_00 }), (gross, pct, fixed) => {
        const tier = { percent: pct, fixed: centsText(fixed) };
        const fast = commissionCents(gross, tier);
        const exact = commissionOn(money(centsText(gross)), tier);
        if (gross <= 1_000_000 && pct.length <= 9) expect(fast).toBeDefined();
        if (fast !== undefined) expect(centsText(fast)).toBe(toScale2(exact));
      }),
      { numRuns: 2000 },
    );
  });

  it('half up at the exact midpoint, as Decimal rounds', () => {
    // 50 cents × 1 % = 0.5 cent → 1 cent; 150 × 1 % = 1.5 → 2; 49 × 1 % = 0.49 → 0
    expect(commissionCents(50, { percent: '1', fixed: '0.00' })).toBe(1);
    expect(commissionCents(150, { percent: '1.0', fixed: '0' })).toBe(2);
    expect(commissionCents(49, { percent: '1', fixed: '0.00' })).toBe(0);
    expect(commissionCents(100, { percent: '-1', fixed: '0.00' })).toBeUndefined();
  });

  it('tierForCents picks the tier tierFor picks', () => {
    const pricing = {
      tiers: [
        { min_amount: '0.01', max_amount: '99999.99' },
        { min_amount: '100000.00', max_amount: '999999999.99' },
      ],
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000_000_00 }), (c) => {
        expect(tierForCents(pricing, c)).toBe(tierFor(pricing as never, money(centsText(c))));
      }),
    );
    expect(tierForCents({ tiers: [{ min_amount: '1e2', max_amount: '5' }] }, 100)).toBeNull();
    expect(tierForCents(undefined, 100)).toBeUndefined();
  });
});
