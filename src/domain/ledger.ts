// The append-only ledger: postings move an amount of one currency from one account to another.
// Balances are derived; corrections are new postings, never edits.
import type { Decimal } from 'decimal.js';
import { money, toScale2, ZERO } from './money.js';

export type PostingKind =
  | 'opening_balance'
  | 'payment_settled'
  | 'payment_commission'
  | 'payout_reserved'
  | 'payout_settled'
  | 'payout_commission'
  | 'payout_released';

export type Posting = {
  /** Deterministic: `<operation_id>:<n>` or `opening:<shop>:<currency>`. */
  id: string;
  shop_id: string;
  operation_id: string | null;
  kind: PostingKind;
  source: string;
  destination: string;
  currency: string;
  /** Positive, scale 2. */
  amount: string;
  at: string;
};

/** The suffixes of an operation's posting ids (`<operation_id>:<suffix>`), in the order they can be made. */
export const POSTING_SUFFIXES = [
  'reserve',
  'settle',
  'fee',
  'payout',
  'payout-excess',
  'release',
  'fee-excess',
] as const;

/** An operation's postings, looked up by their deterministic ids. */
export function postingsOf(
  state: { postings: { get(id: string): Posting | undefined } },
  operationId: string,
): Posting[] {
  return POSTING_SUFFIXES.map((s) => state.postings.get(`${operationId}:${s}`)).filter(
    (p): p is Posting => p !== undefined,
  );
}

export const accounts = {
  balance: (shopId: string) => `shop:${shopId}:balance`,
  reserved: (shopId: string) => `shop:${shopId}:reserved`,
  fees: 'gateway:fees',
  payins: 'world:payins',
  payouts: 'world:payouts',
  opening: 'world:opening',
} as const;

export interface BalanceFigures {
  currency: string;
  balance: Decimal;
  reserved: Decimal;
  current_minus: Decimal;
}

/** current_minus = max(-(balance + reserved), 0) — spec §2.5. */
export function balanceRow(currency: string, balance: Decimal, reserved: Decimal): BalanceFigures {
  const minus = balance.plus(reserved).negated();
  return { currency, balance, reserved, current_minus: minus.greaterThan(0) ? minus : ZERO };
}

/** Running per-account, per-currency totals; a pure fold over postings. */
export class AccountTotals {
  private readonly totals = new Map<string, Decimal>();

  apply(p: Posting): void {
    const amount = money(p.amount);
    this.add(p.destination, p.currency, amount);
    this.add(p.source, p.currency, amount.negated());
  }

  /** Take back a posting that was never written (a rolled-back commit). Postings themselves are never undone. */
  unapply(p: Posting): void {
    const amount = money(p.amount);
    this.add(p.destination, p.currency, amount.negated());
    this.add(p.source, p.currency, amount);
  }

  clear(): void {
    this.totals.clear();
  }

  get(account: string, currency: string): Decimal {
    return this.totals.get(`${account}|${currency}`) ?? ZERO;
  }

  /** Sum over every account of one currency; zero for a balanced ledger. */
  net(currency: string): Decimal {
    let total = ZERO;
    for (const [k, v] of this.totals) if (k.endsWith(`|${currency}`)) total = total.plus(v);
    return total;
  }

  private add(account: string, currency: string, amount: Decimal): void {
    const k = `${account}|${currency}`;
    this.totals.set(k, (this.totals.get(k) ?? ZERO).plus(amount));
  }
}

/** What a posting is made of; `amount` is positive (rounded to scale 2). */
export interface PostingInput {
  id: string;
  shopId: string;
  operationId: string | null;
  kind: PostingKind;
  source: string;
  destination: string;
  currency: string;
  amount: Decimal;
  at: string;
}

export function posting(p: PostingInput): Posting {
  const made: Posting = {
    id: p.id,
    shop_id: p.shopId,
    operation_id: p.operationId,
    kind: p.kind,
    source: p.source,
    destination: p.destination,
    currency: p.currency,
    amount: toScale2(p.amount),
    at: p.at,
  };
  validatePosting(made);
  return made;
}

/** A posting or a posting set that breaks the ledger's rules: a bug in the domain, never a client's mistake. */
export class LedgerInvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerInvariantError';
  }
}

const SCALE2 = /^\d+\.\d{2}$/;

/**
 * The rules a posting must keep before it is applied (formance's postings are validated so): an id, two different
 * accounts, a currency, and a positive amount of scale 2. A posting moves its amount out of one account into
 * another, so every valid posting set nets to zero per currency; `validatePostings` checks that too.
 */
export function validatePosting(p: Posting): void {
  if (!p.id) throw new LedgerInvariantError('posting without an id');
  if (!p.source || !p.destination || p.source === p.destination)
    throw new LedgerInvariantError(`posting ${p.id}: source and destination must be two different accounts`);
  if (!p.currency) throw new LedgerInvariantError(`posting ${p.id}: no currency`);
  if (typeof p.amount !== 'string' || !SCALE2.test(p.amount) || money(p.amount).isZero()) {
    throw new LedgerInvariantError(`posting ${p.id}: amount ${String(p.amount)} must be positive with scale 2`);
  }
}

/** Validate a posting set: each posting, and the set's net per currency (zero). */
export function validatePostings(set: readonly Posting[]): void {
  const totals = new AccountTotals();
  const currencies = new Set<string>();
  for (const p of set) {
    validatePosting(p);
    totals.apply(p);
    currencies.add(p.currency);
  }
  for (const c of currencies)
    if (!totals.net(c).isZero()) throw new LedgerInvariantError(`postings do not net to zero in ${c}`);
}
