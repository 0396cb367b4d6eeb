// The Pool page: each self-matching pool window's open payouts (pool.show, as `paygate sandbox pool show` reads
// it: the first POOL_READ in matching order) drawn as their free remainders by amount — a bar per payout, smallest
// first — with the intervals an availability read returns (GET /v1/payment/availability run as the chosen shop,
// docs/pool.md) as bands over the same amount axis, and both as tables. pool.show is an admin control: a shop's
// key gets the availability read only (its own key may make it), for the methods of the sandbox.
import type { AvailabilityResponse } from '../../../contract/availability.js';
import type { PoolState } from '../../../contract/sandbox.js';
import { esc, formatMoney } from '../../pages/i18n.js';
import type { DashRequest } from '../request.js';
import { sandboxOf } from '../source.js';
import { H, PLOT, scale, svg, W, yAxis, legend } from './chart.js';
import { adminOnly, cards, panel, refusedNotice, render, tryInvoke, visibleShops } from './common.js';
import { PAGE_MESSAGES, pt } from './messages.js';

/** Payouts read per pool window. */
export const POOL_READ = 200;

type Window = PoolState['pools'][number];
type Ask = { shop: string; method: string; currency: string; min: string; max: string };

/** What to ask the availability read: the form's choice, else the shop of the pool's first payout (its route reaches the pool), from `min` to `max`. */
function askOf(
  req: DashRequest,
  method: string,
  currency: string,
  d: { shop?: string; min: string; max: string },
): Ask {
  const q = req.event.url.searchParams;
  const shops = visibleShops(req);
  const mine = q.get('method') === method;
  const fallback = d.shop !== undefined && shops.includes(d.shop) ? d.shop : shops[0]!;
  const shop = mine && shops.includes(q.get('shop') ?? '') ? q.get('shop')! : fallback;
  return {
    shop,
    method,
    currency,
    min: (mine && q.get('min_amount')) || d.min,
    max: (mine && q.get('max_amount')) || d.max,
  };
}

function askForm(req: DashRequest, a: Ask, n: number): string {
  const { lang } = req;
  const shops = visibleShops(req).map((s) => `<option${s === a.shop ? ' selected' : ''}>${esc(s)}</option>`);
  const f = (id: string, label: Parameters<typeof pt>[1], name: string, v: string) =>
    `<div><label for="${id}-${n}">${pt(lang, label)}</label><input id="${id}-${n}" name="${name}" value="${esc(v)}" inputmode="decimal" autocomplete="off"></div>`;
  return `<form method="get" action="${esc(`${req.base}/pool`)}" class="inline-form"><input type="hidden" name="method" value="${esc(a.method)}"><div><label for="pool-shop-${n}">${pt(lang, 'pool.shop')}</label><select id="pool-shop-${n}" name="shop">${shops.join('')}</select></div>${f('pool-min', 'pool.min', 'min_amount', a.min)}${f('pool-max', 'pool.max', 'max_amount', a.max)}<button type="submit">${pt(lang, 'pool.ask')}</button></form>`;
}

function chart(req: DashRequest, w: Window, intervals: AvailabilityResponse['intervals'], id: string): string {
  const { lang } = req;
  const slots = [...w.first].sort((a, b) => Number(a.free) - Number(b.free) || a.payout_id.localeCompare(b.payout_id));
  const top = Math.max(1, ...slots.map((s) => Number(s.free)), ...intervals.map((i) => Number(i.min_amount)));
  const sc = scale(0, Math.max(1, slots.length), 0, top);
  const bw = (W - PLOT.LEFT - PLOT.RIGHT) / Math.max(1, slots.length);
  const bands = intervals.map((i) => {
    const y1 = sc.y(Math.min(top, Number(i.max_amount)));
    const y0 = sc.y(Number(i.min_amount));
    return `<rect class="band" x="${PLOT.LEFT}" width="${W - PLOT.LEFT - PLOT.RIGHT}" y="${y1}" height="${Math.max(1, Math.round((y0 - y1) * 10) / 10)}" data-min="${esc(i.min_amount)}" data-max="${esc(i.max_amount)}"><title>${esc(`${i.min_amount} – ${i.max_amount}`)}</title></rect>`;
  });
  const bars = slots.map((s, i) => {
    const y = sc.y(Number(s.free));
    const h = Math.round((H - PLOT.BOTTOM - y) * 10) / 10;
    return `<rect class="bar" x="${Math.round((sc.x(i) + bw * 0.15) * 10) / 10}" width="${Math.max(1, Math.round(bw * 0.7 * 10) / 10)}" y="${y}" height="${h}" data-payout="${esc(s.payout_id)}" data-free="${esc(s.free)}"><title>${esc(`${s.payout_id}: ${s.free}`)}</title></rect>`;
  });
  const M = PAGE_MESSAGES[lang];
  const title = M['pool.chart'].replace('{method}', w.method);
  const desc = M['pool.chart.desc']
    .replace('{count}', String(slots.length))
    .replace('{free}', w.free_total)
    .replace('{intervals}', String(intervals.length));
  const axis = yAxis(sc, 0, top, (v) => formatMoney(lang, v.toFixed(2), w.currency));
  const keys = legend([
    ['bar-key', M['pool.legend.free']],
    ['band-key', M['pool.legend.interval']],
  ]);
  return `<figure class="chart-box" data-chart="pool" data-method="${esc(w.method)}">${svg(id, 'pool-chart', title, desc, `${bands.join('')}${axis}${bars.join('')}`)}<figcaption>${keys}</figcaption></figure>`;
}

/** The status of the page: a refused availability read the form asked for makes it the read's 4xx. */
const refusedStatus = new WeakMap<DashRequest, number>();

async function availability(req: DashRequest, a: Ask) {
  const r = await tryInvoke<AvailabilityResponse>(req, 'payment.availability', {
    shopId: a.shop,
    query: { method: a.method, currency: a.currency, min_amount: a.min, max_amount: a.max },
  });
  if (!r.ok && req.event.url.searchParams.get('method') === a.method) refusedStatus.set(req, r.refusal.status);
  return r;
}

function intervalsBlock(req: DashRequest, a: Ask, r: Awaited<ReturnType<typeof availability>>): string {
  const { lang } = req;
  const head = `<h3>${pt(lang, 'pool.intervals')}</h3><p class="muted">${pt(lang, 'pool.intervals.for', { shop: a.shop, min: a.min, max: a.max })}</p>`;
  if (!r.ok) return `${head}${refusedNotice(req, r.refusal.message)}`;
  const m = (v: string) => esc(formatMoney(lang, v, a.currency));
  const list = r.value.intervals.length
    ? cards(
        req,
        PAGE_MESSAGES[lang]['pool.intervals'],
        ['col.from', 'col.to'],
        r.value.intervals.map((i) => [m(i.min_amount), m(i.max_amount)]),
        'intervals',
      )
    : `<p>${pt(lang, 'pool.intervals.none')}</p>`;
  return `${head}<p>${pt(lang, 'pool.coverage', { coverage: r.value.coverage })}</p>${list}`;
}

async function windowPanel(req: DashRequest, w: Window, n: number): Promise<string> {
  const { lang } = req;
  const maxFree = w.first.reduce((m, s) => Math.max(m, Number(s.amount)), 0);
  const a = askOf(req, w.method, w.currency, {
    ...(w.first[0] ? { shop: w.first[0].shop_id } : {}),
    min: w.min_piece,
    max: maxFree > 0 ? maxFree.toFixed(2) : '100000.00',
  });
  const r = await availability(req, a);
  const intervals = r.ok ? r.value.intervals : [];
  const m = (v: string) => esc(formatMoney(lang, v, w.currency));
  const facts = `<p>${pt(lang, 'pool.facts', { slots: String(w.slots), free: formatMoney(lang, w.free_total, w.currency), piece: w.min_piece, rem: w.min_remainder })}</p>`;
  const slots = cards(
    req,
    PAGE_MESSAGES[lang]['pool.slots'],
    ['col.payout', 'col.shop', 'col.amount', 'col.claimed', 'col.paid', 'col.free'],
    w.first.map((s) => [
      `<span class="mono">${esc(s.payout_id)}</span>`,
      esc(s.shop_id),
      m(s.amount),
      m(s.claimed),
      m(s.paid),
      m(s.free),
    ]),
  );
  const title = pt(lang, 'pool.window', { pool: w.pool_id, method: w.method, currency: w.currency });
  return panel(
    `h-pool-${n}`,
    title,
    `${facts}${chart(req, w, intervals, `pool-${n}`)}${askForm(req, a, n)}${intervalsBlock(req, a, r)}<details><summary>${pt(lang, 'pool.slots')}</summary>${slots}</details>`,
  );
}

/** The availability read alone, for a shop's session (no pool.show): one panel per method of the sandbox. */
async function shopView(req: DashRequest): Promise<string> {
  const out: string[] = [adminOnly(req, 'pool.show')];
  for (const [n, method] of sandboxOf(req).service.world.data.methods.entries()) {
    const a = askOf(req, method.id, method.currency, { min: '1.00', max: '100000.00' });
    const r = await availability(req, a);
    out.push(
      panel(
        `h-pool-${n}`,
        esc(`${method.id} (${method.currency})`),
        `${askForm(req, a, n)}${intervalsBlock(req, a, r)}`,
      ),
    );
  }
  return out.join('');
}

/** GET <dashboard>/pool. */
export async function poolPage(req: DashRequest): Promise<string> {
  const title = PAGE_MESSAGES[req.lang]['pool.title'];
  let body: string;
  if (req.shop !== undefined) {
    body = await shopView(req);
  } else {
    const s = await tryInvoke<PoolState>(req, 'pool.show', { shopId: '', query: { limit: String(POOL_READ) } });
    if (!s.ok) body = refusedNotice(req, s.refusal.message);
    else if (!s.value.pools.some((w) => w.slots > 0)) body = `<p>${pt(req.lang, 'pool.none')}</p>`;
    else {
      const parts: string[] = [];
      for (const [n, w] of s.value.pools.entries()) if (w.slots > 0) parts.push(await windowPanel(req, w, n));
      body = parts.join('');
    }
  }
  return render(req, { title, main: `<h1>${esc(title)}</h1>${body}`, section: 'pool' }, refusedStatus.get(req) ?? 200);
}
