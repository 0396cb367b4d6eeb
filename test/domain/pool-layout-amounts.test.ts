// A generated layout's amounts are drawn in whole cents (fast enough not to hold the event loop
// for a layout of 10,000); they are exactly the amounts the decimal computation gives, for any generator.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money, toScale2 } from '../../src/domain/money.js';
import { generateAmounts, type LayoutGenerator } from '../../src/domain/pool-layout.js';

/** The amounts as first computed, in decimals throughout (mulberry32, as in src/domain/pool-layout.ts). */
function reference(g: LayoutGenerator): string[] {
  let a = g.seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const min = money(g.min);
  const step = money(g.step);
  const steps = money(g.max).minus(min).dividedToIntegerBy(step).toNumber();
  return Array.from({ length: g.count }, () => toScale2(min.plus(step.times(Math.floor(next() * (steps + 1))))));
}

const cents = (max: number) =>
  fc.integer({ min: 1, max }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);

describe('generateAmounts', () => {
  it('gives the decimal computation’s amounts for any generator', () => {
    fc.assert(
      fc.property(
        cents(10_000_000),
        cents(10_000_000),
        cents(100_000),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        fc.integer({ min: 1, max: 300 }),
        (a, b, step, seed, count) => {
          const [min, max] = money(a).lte(money(b)) ? [a, b] : [b, a];
          const g = { count, min, max, step, seed };
          expect(generateAmounts(g)).toEqual(reference(g));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the benchmark layout of 10,000 is unchanged', () => {
    const g = { count: 10_000, min: '100.00', max: '100000.00', step: '10.00', seed: 7 };
    expect(generateAmounts(g)).toEqual(reference(g));
    expect(generateAmounts({ ...g, min: '0.05', step: '0.10', max: '3.00' })).toEqual(
      reference({ ...g, min: '0.05', step: '0.10', max: '3.00' }),
    );
  });
});
