// The Balances page: each shop's balances per currency now (balances.all for the admin, as `paygate balances
// --all-shops` reads them; GET /v1/balances for a shop's key), and per shop and currency a chart of balance,
// reserved and current_minus over sandbox time from the ledger's postings (balance-series.ts), with the moments
// payouts were reserved and settled marked. Every point carries its posting and exact figures in data attributes,
// and the same points are in a table under the chart.
import type { BalancesResponse } from '../../../contract/balances.js';
import type { AllBalances } from '../../../contract/support.js';
import type { z } from 'zod';
import { esc, formatMoney } from '../../pages/i18n.js';
import { money as moneyCell, moment, operationHref } from '../format.js';
import type { DashRequest } from '../request.js';
import { sandboxOf } from '../source.js';
import { balanceSeries, MAX_POINTS, WINDOW_OPS, type BalancePoint, type BalanceSeries } from './balance-series.js';
import { legend, PLOT, scale, stepPath, svg, xLabels, yAxis, type Scale } from './chart.js';
import { cards, panel, refusedNotice, render, tryInvoke, visibleShops } from './common.js';
import { PAGE_MESSAGES, pt } from './messages.js';

type Row = { currency: string; balance: string; reserved: string; current_minus: string };

/** The balances now of each visible shop, through the same control as the CLI. */
async function nowOf(req: DashRequest): Promise<{ rows: Map<string, Row[]>; refusal?: string }> {
  const rows = new Map<string, Row[]>();
  if (req.shop === undefined) {
    const r = await tryInvoke<z.infer<typeof AllBalances>>(req, 'balances.all', { shopId: '' });
    if (!r.ok) return { rows, refusal: r.refusal.message };
    for (const s of r.value.shops) rows.set(s.shop_id, s.balances);
    return { rows };
  }
  const r = await tryInvoke<BalancesResponse>(req, 'balances.list', { shopId: req.shop });
  if (!r.ok) return { rows, refusal: r.refusal.message };
  rows.set(req.shop, r.value.balances);
  return { rows };
}

/** The chart's height: the balance on top, reserved and current_minus below, on their own scales. */
const CH = 340;
const TOP_BAND = [PLOT.TOP, 160] as const;
const LOW_BAND = [196, CH - PLOT.BOTTOM] as const;

/**
 * x positions: half by order, half by sandbox time — later is always further right, and postings made at one
 * moment (a frozen clock) still stand apart so each step shows.
 */
function xPositions(points: readonly BalancePoint[]): number[] {
  const t = points.map((p) => Date.parse(p.at));
  const n = points.length;
  const byTime = scale(t[0]!, t[n - 1]!, 0, 1);
  const byOrder = scale(0, Math.max(1, n - 1), 0, 1);
  return t.map((v, i) => Math.round(((byTime.x(v) + byOrder.x(i)) / 2) * 10) / 10);
}

const range = (values: number[]) => [Math.min(...values), Math.max(...values)] as const;

function chart(req: DashRequest, shop: string, s: BalanceSeries, id: string): string {
  const { lang } = req;
  const pts = s.points;
  const [b0, b1] = range(pts.map((p) => Number(p.balance)));
  const top = scale(0, 1, b0, b1, ...TOP_BAND);
  const [, l1] = range([0, ...pts.flatMap((p) => [Number(p.reserved), Number(p.current_minus)])]);
  const low = scale(0, 1, 0, l1, ...LOW_BAND);
  const xs = xPositions(pts);
  const line = (cls: string, sc: Scale, f: (p: BalancePoint) => string) =>
    `<path class="line ${cls}" d="${stepPath(pts.map((p, i) => [xs[i]!, sc.y(Number(f(p)))]))}"/>`;
  const marks = pts.flatMap((p, i) =>
    p.kind === 'payout_reserved' || p.kind === 'payout_settled'
      ? [
          `<line class="mark ${p.kind}" data-mark="${p.kind}" data-at="${esc(p.at)}" x1="${xs[i]}" x2="${xs[i]}" y1="${PLOT.TOP}" y2="${CH - PLOT.BOTTOM}"><title>${esc(`${p.kind} ${p.operation_id ?? ''} ${p.at}`)}</title></line>`,
        ]
      : [],
  );
  const dots = pts.map(
    (p, i) =>
      `<circle class="pt" r="3" cx="${xs[i]}" cy="${top.y(Number(p.balance))}" data-posting="${esc(p.posting_id)}" data-kind="${esc(p.kind)}" data-at="${esc(p.at)}" data-balance="${p.balance}" data-reserved="${p.reserved}" data-current-minus="${p.current_minus}"/>`,
  );
  const label = (v: number) => formatMoney(lang, v.toFixed(2), s.currency);
  const M = PAGE_MESSAGES[lang];
  const title = M['bal.chart'].replace('{shop}', shop).replace('{currency}', s.currency);
  const desc = M['bal.chart.desc']
    .replace('{count}', String(pts.length))
    .replace('{from}', pts[0]!.at)
    .replace('{to}', pts[pts.length - 1]!.at);
  const axes = `${yAxis(top, b0, b1, label)}${yAxis(low, 0, l1, label)}${xLabels(pts[0]!.at.slice(0, 19), pts[pts.length - 1]!.at.slice(0, 19), CH)}`;
  const body = `${axes}${marks.join('')}${line('reserved', low, (p) => p.reserved)}${line('minus', low, (p) => p.current_minus)}${line('balance', top, (p) => p.balance)}<g class="pts">${dots.join('')}</g>`;
  const keys = legend([
    ['line balance', M['bal.legend.balance']],
    ['line reserved', M['bal.legend.reserved']],
    ['line minus', M['bal.legend.minus']],
    ['mark payout_reserved', M['bal.legend.reserve']],
    ['mark payout_settled', M['bal.legend.settle']],
  ]);
  const truncated = s.truncated
    ? `<p class="muted">${pt(lang, 'bal.truncated', { ops: String(WINDOW_OPS), count: String(MAX_POINTS) })}</p>`
    : '';
  return `<figure class="chart-box" data-chart="balance" data-shop="${esc(shop)}" data-currency="${esc(s.currency)}">${svg(id, 'balance-chart', title, desc, body, CH)}<figcaption>${keys}${truncated}</figcaption></figure>${pointsTable(req, s, title)}`;
}

function pointsTable(req: DashRequest, s: BalanceSeries, caption: string): string {
  const m = (v: string) => esc(formatMoney(req.lang, v, s.currency));
  const rows = [...s.points]
    .reverse()
    .map((p) => [
      moment(req.lang, p.at),
      `<span class="mono">${esc(p.kind)}</span>`,
      p.operation_id
        ? `<a class="mono" href="${esc(operationHref(req, p.operation_id))}">${esc(p.operation_id)}</a>`
        : '—',
      m(p.balance),
      m(p.reserved),
      m(p.current_minus),
    ]);
  const table = cards(
    req,
    caption,
    ['col.at', 'col.kind', 'col.operation', 'col.balance', 'col.reserved', 'col.minus'],
    rows,
  );
  return `<details><summary>${pt(req.lang, 'bal.points')}</summary>${table}</details>`;
}

function shopPanel(req: DashRequest, shop: string, now: Row[], n: number): string {
  const rows = now.map((b) => [
    esc(b.currency),
    moneyCell(req.lang, b.balance, b.currency),
    moneyCell(req.lang, b.reserved, b.currency),
    moneyCell(req.lang, b.current_minus, b.currency),
  ]);
  const table = cards(req, shop, ['col.currency', 'col.balance', 'col.reserved', 'col.minus'], rows, 'balances');
  const { service } = sandboxOf(req);
  const series = balanceSeries(service.state, shop, service.world.shopCurrencies(shop));
  const charts = series.length
    ? series.map((s, i) => chart(req, shop, s, `bal-${n}-${i}`)).join('')
    : `<p>${pt(req.lang, 'bal.none')}</p>`;
  return panel(`h-shop-${n}`, `<span class="mono">${esc(shop)}</span>`, `${table}${charts}`);
}

/** GET <dashboard>/balances. */
export async function balancesPage(req: DashRequest): Promise<string> {
  const title = PAGE_MESSAGES[req.lang]['bal.title'];
  const now = await nowOf(req);
  const shops = visibleShops(req);
  const body = now.refusal
    ? refusedNotice(req, now.refusal)
    : shops.map((s, i) => shopPanel(req, s, now.rows.get(s) ?? [], i)).join('');
  const main = `<h1>${esc(title)}</h1><p class="muted">${pt(req.lang, 'bal.lead')}</p>${body}`;
  return render(req, { title, main, section: 'balances' });
}
