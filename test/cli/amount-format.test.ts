// One amount format in every human view: amounts as the API writes them (`1000000.00 RUB`), never
// grouped, so any printed amount can be pasted back into a flag; a signed difference keeps an ASCII sign.
import { describe, expect, it } from 'vitest';
import { RequestAmount } from '../../src/contract/money.js';
import { groupedCount, signedAmount } from '../../src/cli/render.js';

describe('signedAmount', () => {
  it.each([
    ['300.00', '+300.00'],
    ['+300.00', '+300.00'],
    ['-4700.00', '-4700.00'],
    ['0.00', '0.00'],
    ['-0.00', '0.00'],
    ['1000000.00', '+1000000.00'],
  ])('%s → %s', (value, shown) => {
    expect(signedAmount(value)).toBe(shown);
  });

  it('what it prints, without its sign, is an amount the CLI accepts', () => {
    for (const v of ['-4700.00', '1000000.00', '25000.00'])
      expect(RequestAmount.safeParse(signedAmount(v).replace(/^[-+]/, '')).success).toBe(true);
  });
});

describe('groupedCount', () => {
  it('groups counts (not amounts) for reading', () => {
    expect(groupedCount(10000)).toBe('10,000');
    expect(groupedCount(999)).toBe('999');
  });
});
