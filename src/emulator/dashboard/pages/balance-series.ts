// A shop's balances over sandbox time, from the ledger's postings (src/domain/ledger.ts): the postings that move
// its balance or reserved account, in the order they were written (creation order is time order: the sandbox clock
// only moves forward), folded exactly (decimal.js) into balance, reserved and current_minus after each — the same
// fold as the ledger's totals, so the last point is what GET /v1/balances answers. The moments payouts were
// reserved and settled are the postings of those kinds.
import type { Decimal } from 'decimal.js';
import { accounts, balanceRow, type Posting, type PostingKind } from '../../../domain/ledger.js';
import { money, toScale2, ZERO } from '../../../domain/money.js';

/** The most points a chart shows: the newest ones (the earlier postings still count in their figures). */
export const MAX_POINTS = 400;

export interface BalancePoint {
  posting_id: string;
  operation_id: string | null;
  kind: PostingKind;
  at: string;
  /** Exact, scale 2, after this posting. */
  balance: string;
  reserved: string;
  current_minus: string;
}

export interface BalanceSeries {
  currency: string;
  points: BalancePoint[];
  /** Postings of the currency in all (points may hold only the newest MAX_POINTS). */
  total: number;
}

/** How a posting moves the shop's two accounts. */
function effect(p: Posting, shop: string): { balance: Decimal; reserved: Decimal } | undefined {
  const bal = accounts.balance(shop);
  const res = accounts.reserved(shop);
  const a = money(p.amount);
  let balance = ZERO;
  let reserved = ZERO;
  if (p.destination === bal) balance = balance.plus(a);
  if (p.source === bal) balance = balance.minus(a);
  if (p.destination === res) reserved = reserved.plus(a);
  if (p.source === res) reserved = reserved.minus(a);
  return balance.isZero() && reserved.isZero() ? undefined : { balance, reserved };
}

/** The postings of each of `shops`, in the order they were written: one pass over the state's posting map. */
export function shopPostings(
  postings: { keys(): Iterable<string>; get(id: string): Posting | undefined },
  shops: readonly string[],
): Map<string, Posting[]> {
  const out = new Map<string, Posting[]>(shops.map((s) => [s, []]));
  for (const id of postings.keys()) {
    const p = postings.get(id);
    if (p) out.get(p.shop_id)?.push(p);
  }
  return out;
}

/** The series of each currency the shop's postings touch, in the order the currencies first appear. */
export function balanceSeries(postings: readonly Posting[], shop: string): BalanceSeries[] {
  const byCurrency = new Map<string, { balance: Decimal; reserved: Decimal; series: BalanceSeries }>();
  for (const p of postings) {
    const e = effect(p, shop);
    if (!e) continue;
    let c = byCurrency.get(p.currency);
    if (!c) {
      c = { balance: ZERO, reserved: ZERO, series: { currency: p.currency, points: [], total: 0 } };
      byCurrency.set(p.currency, c);
    }
    c.balance = c.balance.plus(e.balance);
    c.reserved = c.reserved.plus(e.reserved);
    const row = balanceRow(p.currency, c.balance, c.reserved);
    c.series.total++;
    c.series.points.push({
      posting_id: p.id,
      operation_id: p.operation_id,
      kind: p.kind,
      at: p.at,
      balance: toScale2(row.balance),
      reserved: toScale2(row.reserved),
      current_minus: toScale2(row.current_minus),
    });
    if (c.series.points.length > MAX_POINTS * 2) c.series.points.splice(0, c.series.points.length - MAX_POINTS);
  }
  return [...byCurrency.values()].map(({ series }) => ({
    ...series,
    points: series.points.slice(-MAX_POINTS),
  }));
}
