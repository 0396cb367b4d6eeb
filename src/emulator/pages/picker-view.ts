// The flexible link's picker (spec §4.3 rules 5–7): what the payer may choose now — the link's bounds within the
// route's limits, the pool's live availability inside them, clipped to the shop's pricing — and its card: either
// one amount field with the nearest payable amounts, or the list of available ranges, as the shop is configured.
import type { Decimal } from 'decimal.js';
import { payinRoute, poolIntervals } from '../../domain/amounts.js';
import type { LinkRecord } from '../../domain/links.js';
import { money, toScale2 } from '../../domain/money.js';
import { mergeRanges, rank, type Range } from '../../domain/pool.js';
import type { DomainContext } from '../../domain/state.js';
import type { PricingDef } from '../../domain/world.js';
import { pageHref, type PageRequest } from './access.js';
import { esc, formatMoney, t, type Lang } from './i18n.js';
import { deadlineHtml, noticeHtml, type Notice } from './payment-view.js';

/** Most ranges the list shows (those nearest the amount the payer is after); most suggested amounts. */
export const MAX_RANGES_SHOWN = 8;
const MAX_SUGGESTIONS = 3;

export interface PickerOffer {
  /** What the payer may enter at all: the link's bounds within the route's limits. */
  lo: Decimal;
  hi: Decimal;
  /** What the pool can take now, sorted. */
  intervals: Range[];
  /** The payable amounts nearest `around` (exact free remainders first). */
  suggestions: Decimal[];
}

const maxOf = (a: Decimal, b: Decimal) => (a.greaterThan(b) ? a : b);
const minOf = (a: Decimal, b: Decimal) => (a.lessThan(b) ? a : b);

/** The parts of `intervals` that lie in one of the pricing's tiers: only those amounts can be paid. */
function priced(intervals: Range[], pricing: PricingDef | undefined): Range[] {
  if (!pricing) return [];
  const out: Range[] = [];
  for (const r of intervals) {
    for (const tier of pricing.tiers) {
      const lo = maxOf(r.lo, money(tier.min_amount));
      const hi = minOf(r.hi, money(tier.max_amount));
      if (lo.lessThanOrEqualTo(hi)) out.push({ lo, hi });
    }
  }
  return mergeRanges(out);
}

/** The picker's offer now, the nearest amounts counted around `around` (default: the recommended amount). */
export function pickerOffer(ctx: DomainContext, link: LinkRecord, around?: Decimal): PickerOffer {
  const p = link.params;
  const { route, pools } = payinRoute(ctx, link.shop_id, p.method);
  const lo = maxOf(money(p.min_amount ?? route.min_amount), money(route.min_amount));
  const hi = minOf(money(p.max_amount ?? route.max_amount), money(route.max_amount));
  const pivot = around ?? money(p.recommended_amount);
  const found = poolIntervals(ctx, pools, p.method, p.currency, lo, hi, pivot);
  const intervals = priced(found.intervals, ctx.world.pricingFor(link.shop_id, p.method, 'payin'));
  const suggestions = rank(found.rows, intervals, pivot, MAX_SUGGESTIONS).map((r) => r.amount);
  return { lo, hi, intervals, suggestions };
}

/** An amount as the payer types it in this language: `24500.00` / `24500,00`. */
const typed = (lang: Lang, amount: Decimal) => (lang === 'ru' ? toScale2(amount).replace('.', ',') : toScale2(amount));

/** The intervals to list: at most MAX_RANGES_SHOWN, those nearest `pivot`, in ascending order. */
function nearestRanges(intervals: Range[], pivot: Decimal): Range[] {
  const dist = (r: Range) =>
    pivot.lessThan(r.lo) ? r.lo.minus(pivot) : pivot.greaterThan(r.hi) ? pivot.minus(r.hi) : money(0);
  return intervals
    .map((r, i) => ({ r, i, d: dist(r) }))
    .sort((a, b) => a.d.comparedTo(b.d) || a.i - b.i)
    .slice(0, MAX_RANGES_SHOWN)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.r);
}

function amountForm(req: PageRequest, id: string, label: string, value: string): string {
  return `<form class="pick-range" method="post" action="${esc(pageHref(req, '/amount'))}">
<label for="${id}">${label}</label>
<div class="inline"><input id="${id}" name="amount" type="text" inputmode="decimal" autocomplete="off" required value="${esc(value)}"><button type="submit" class="primary">${t(req.lang, 'pick.submit')}</button></div>
</form>`;
}

/** One submit button per amount: a choice in one press. */
function exactButtons(req: PageRequest, amounts: Decimal[], currency: string, legend: string): string {
  if (amounts.length === 0) return '';
  const buttons = amounts
    .map(
      (a) =>
        `<li><button type="submit" name="amount" value="${esc(toScale2(a))}" class="choice">${t(req.lang, 'pick.exact', { amount: formatMoney(req.lang, toScale2(a), currency) })}</button></li>`,
    )
    .join('');
  return `<form class="pick-exact" method="post" action="${esc(pageHref(req, '/amount'))}"><fieldset><legend>${legend}</legend><ul class="choices">${buttons}</ul></fieldset></form>`;
}

/** The ranges list (rule 7, `ranges`): a button for each single amount, an amount field for each range. */
function rangesList(req: PageRequest, offer: PickerOffer, currency: string, pivot: Decimal): string {
  const shown = nearestRanges(offer.intervals, pivot);
  const points = shown.filter((r) => r.lo.equals(r.hi)).map((r) => r.lo);
  const fields = shown
    .filter((r) => !r.lo.equals(r.hi))
    .map((r) => {
      const label = t(req.lang, 'pick.range', {
        min: formatMoney(req.lang, toScale2(r.lo), currency),
        max: formatMoney(req.lang, toScale2(r.hi), currency),
      });
      const near = pivot.lessThan(r.lo) ? r.lo : pivot.greaterThan(r.hi) ? r.hi : pivot;
      // The id follows the range's start, so a live update that narrows the range keeps what the payer typed.
      return amountForm(req, `pg-range-${toScale2(r.lo).replace('.', '-')}`, label, typed(req.lang, near));
    })
    .join('');
  const more = offer.intervals.length > shown.length ? `<p class="hint">${t(req.lang, 'pick.more')}</p>` : '';
  return `${exactButtons(req, points, currency, t(req.lang, 'pick.legend'))}${fields}${more}`;
}

/** The inner HTML of the picker's card. `tried`: the amount the payer last asked for, when it was refused. */
export function pickerCard(
  link: LinkRecord,
  offer: PickerOffer,
  picker: 'ranges' | 'amount',
  req: PageRequest,
  notice?: Notice,
  tried?: Decimal,
): string {
  const { lang } = req;
  const p = link.params;
  const fmt = (d: Decimal) => formatMoney(lang, toScale2(d), p.currency);
  const pivot = tried ?? money(p.recommended_amount);
  const heading = `<h1 class="state wait">${t(lang, 'state.choose')}</h1>`;
  const lead =
    picker === 'amount'
      ? t(lang, 'lead.choose.amount', { min: fmt(offer.lo), max: fmt(offer.hi) })
      : t(lang, 'lead.choose.ranges', { amount: formatMoney(lang, toScale2(p.recommended_amount), p.currency) });
  let body: string;
  if (offer.intervals.length === 0) body = `<p class="notice">${t(lang, 'pick.none')}</p>`;
  else if (picker === 'amount') {
    const field = amountForm(
      req,
      'pg-amount',
      t(lang, 'pick.field', { min: fmt(offer.lo), max: fmt(offer.hi) }),
      typed(lang, offer.suggestions[0] ?? pivot),
    );
    body = `${field}${exactButtons(req, offer.suggestions, p.currency, t(lang, 'pick.suggest'))}`;
  } else body = rangesList(req, offer, p.currency, pivot);
  const deadline = link.status === 'amount_selection' ? deadlineHtml(lang, 'label.choose_before', link.expires_at) : '';
  return `${heading}<p class="lead">${lead}</p>${noticeHtml(lang, notice)}${body}${deadline}`;
}
