// A posting is made from one object (no positional strings to swap) and validated before it is applied: two
// different accounts, a currency, a positive amount of scale 2; a posting set nets to zero per currency. The state
// refuses a posting that breaks those rules, changing nothing.
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  LedgerInvariantError,
  posting,
  validatePosting,
  validatePostings,
  type Posting,
} from '../../src/domain/ledger.js';
import { SandboxState } from '../../src/store/state.js';

const base = {
  id: 'op_1:settle',
  shopId: 'shop_a',
  operationId: 'op_1',
  kind: 'payment_settled' as const,
  source: 'world:payins',
  destination: 'shop:shop_a:balance',
  currency: 'RUB',
  at: '2026-01-01T00:00:00.000Z',
};

describe('posting({ ... })', () => {
  it('takes an object and rounds the amount to scale 2', () => {
    expect(posting({ ...base, amount: new Decimal('10.005') })).toEqual({
      id: 'op_1:settle',
      shop_id: 'shop_a',
      operation_id: 'op_1',
      kind: 'payment_settled',
      source: 'world:payins',
      destination: 'shop:shop_a:balance',
      currency: 'RUB',
      amount: '10.01',
      at: base.at,
    });
  });

  it('refuses a zero or negative amount, one account on both sides, no currency', () => {
    expect(() => posting({ ...base, amount: new Decimal(0) })).toThrow(LedgerInvariantError);
    expect(() => posting({ ...base, amount: new Decimal(-1) })).toThrow(/positive/);
    expect(() => posting({ ...base, destination: base.source, amount: new Decimal(1) })).toThrow(
      /two different accounts/,
    );
    expect(() => posting({ ...base, currency: '', amount: new Decimal(1) })).toThrow(/currency/);
  });

  it('validatePostings: a set nets to zero per currency; a malformed amount is refused', () => {
    const a = posting({ ...base, amount: new Decimal('5.00') });
    const b = posting({
      ...base,
      id: 'op_1:fee',
      destination: 'gateway:fees',
      amount: new Decimal('1.00'),
      currency: 'USD',
    });
    expect(() => validatePostings([a, b])).not.toThrow();
    expect(() => validatePosting({ ...a, amount: '5' })).toThrow(/scale 2/);
    expect(() => validatePostings([{ ...a, amount: '1e3' } as Posting])).toThrow(LedgerInvariantError);
  });
});

describe('the state applies only valid postings', () => {
  it('a posting with the same account on both sides is refused and nothing of its transaction stays', () => {
    const state = new SandboxState();
    const good = posting({ ...base, amount: new Decimal('5.00') });
    const bad = { ...good, id: 'op_2:settle', destination: good.source };
    expect(() =>
      state.apply([
        { kind: 'posting', posting: good },
        { kind: 'posting', posting: bad },
      ]),
    ).toThrow(LedgerInvariantError);
    expect(state.postings.has(good.id)).toBe(false);
    expect(state.accountTotal(good.destination, 'RUB').toString()).toBe('0');
  });
});
