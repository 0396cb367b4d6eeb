// A shop's balances over sandbox time, from the ledger's postings (src/domain/ledger.ts). Reading every posting of a
// big store would read them back from the snapshot file, so the chart covers the postings of the shop's newest
// WINDOW_OPS operations (found through the listing's index, their postings by their deterministic ids — nothing of
// another shop is read) and, when that is all of them, its opening balances. Where the window starts is the
// ledger's totals now minus the window's postings, so every point is exact and the last is what GET /v1/balances
// answers. Points are in sandbox-time order (postings made at one moment: in their operations' order, then the
// order an operation makes them), each balance, reserved and current_minus after its posting, folded exactly.
import type { Decimal } from 'decimal.js';
import { accounts, balanceRow, postingsOf, type Posting, type PostingKind } from '../../../domain/ledger.js';
import { money, toScale2, ZERO } from '../../../domain/money.js';
import type { SandboxState } from '../../../store/state.js';

/** The operations whose postings a chart covers: the shop's newest. */
export const WINDOW_OPS = 150;
/** The most points a chart shows: the newest (the earlier ones still count in the figures). */
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
  /** Whether earlier postings (older operations, or more than MAX_POINTS) are not drawn. */
  truncated: boolean;
}

type Effect = { balance: Decimal; reserved: Decimal };

/** How a posting moves the shop's balance and reserved accounts (undefined: not at all). */
function effect(p: Posting, shop: string): Effect | undefined {
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

/** The window's postings that move the shop's accounts, oldest first; whether older ones are left out. */
function windowOf(state: SandboxState, shop: string, currencies: readonly string[]) {
  const page = state.operationIndex.page({ shop }, { limit: WINDOW_OPS });
  const found: Array<{ p: Posting; e: Effect; n: number }> = [];
  const add = (p: Posting | undefined, n: number) => {
    const e = p && effect(p, shop);
    if (p && e) found.push({ p, e, n });
  };
  if (!page.has_more) for (const c of currencies) add(state.postings.get(`opening:${shop}:${c}`), -1);
  page.ids.forEach((id, i) => {
    for (const p of postingsOf(state, id)) add(p, page.ids.length - i);
  });
  // Sandbox time, then the operation's age (the opening first), then the order the operation made them (stable).
  found.sort((a, b) => a.p.at.localeCompare(b.p.at) || a.n - b.n);
  return { found, partial: page.has_more };
}

/** The series of each of the shop's currencies its postings touch. */
export function balanceSeries(state: SandboxState, shop: string, currencies: readonly string[]): BalanceSeries[] {
  const { found, partial } = windowOf(state, shop, currencies);
  const out: BalanceSeries[] = [];
  for (const currency of currencies) {
    const mine = found.filter((f) => f.p.currency === currency);
    if (mine.length === 0) continue;
    // Where the window starts: the totals now, less the window's postings.
    let balance = state.totals.get(accounts.balance(shop), currency);
    let reserved = state.totals.get(accounts.reserved(shop), currency);
    for (const { e } of mine) {
      balance = balance.minus(e.balance);
      reserved = reserved.minus(e.reserved);
    }
    const points = mine.map(({ p, e }) => {
      balance = balance.plus(e.balance);
      reserved = reserved.plus(e.reserved);
      const row = balanceRow(currency, balance, reserved);
      return {
        posting_id: p.id,
        operation_id: p.operation_id,
        kind: p.kind,
        at: p.at,
        balance: toScale2(row.balance),
        reserved: toScale2(row.reserved),
        current_minus: toScale2(row.current_minus),
      };
    });
    out.push({ currency, points: points.slice(-MAX_POINTS), truncated: partial || points.length > MAX_POINTS });
  }
  return out;
}
