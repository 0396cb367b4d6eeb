// The Operations page: the support listing (operations.list, the index `paygate ops list` reads) with its filters,
// newest first, 50 a page (a cursor for the older ones), every row an operation's id, merchant_operation_id, shop,
// type, method, status, amounts and time. Live: the page listens to the operations stream with the same filters
// (events.ts) and its script fetches the page again after a change, swapping the results in.
import { OperationStatus, OperationType } from '../../contract/common.js';
import type { ListOperationsResponse, OperationRow } from '../../contract/sandbox.js';
import { esc, formatMoney } from '../pages/i18n.js';
import { answer } from './forms.js';
import { money, moment, operationHref, statusBadge } from './format.js';
import { DASH_MESSAGES, dt, type DashKey } from './messages.js';
import type { DashRequest } from './request.js';

/** Operations on one page. */
export const PAGE_SIZE = 50;

/** The listing's filters, as the query of the page (and of its stream) names them. */
export const FILTERS = [
  'status',
  'type',
  'method',
  'shop',
  'client_id',
  'merchant_operation_id',
  'since',
  'until',
  'min_amount',
  'max_amount',
] as const;
type Filter = (typeof FILTERS)[number];

/** The filters the request sets (a shop's session never sets another shop). */
export function filtersOf(req: DashRequest): Partial<Record<Filter, string>> {
  const q = req.event.url.searchParams;
  const out: Partial<Record<Filter, string>> = {};
  for (const f of FILTERS) {
    const v = q.get(f)?.trim();
    if (v) out[f] = v;
  }
  if (req.shop !== undefined) delete out.shop;
  return out;
}

const query = (fields: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

function select(req: DashRequest, name: Filter, label: DashKey, options: readonly string[], value?: string): string {
  const opts = options.map((o) => `<option value="${esc(o)}"${o === value ? ' selected' : ''}>${esc(o)}</option>`);
  return `<div><label for="f-${name}">${dt(req.lang, label)}</label><select id="f-${name}" name="${name}"><option value="">${dt(req.lang, 'f.any')}</option>${opts.join('')}</select></div>`;
}

function input(req: DashRequest, name: Filter, label: DashKey, value: string | undefined, extra = ''): string {
  return `<div><label for="f-${name}">${dt(req.lang, label)}</label><input id="f-${name}" name="${name}" value="${esc(value ?? '')}"${extra}></div>`;
}

function filterForm(req: DashRequest, f: Partial<Record<Filter, string>>): string {
  const shops = req.d.source.shops();
  const fields = [
    select(req, 'status', 'f.status', OperationStatus.options, f.status),
    select(req, 'type', 'f.type', OperationType.options, f.type),
    input(req, 'method', 'f.method', f.method, ' autocomplete="off"'),
    req.shop === undefined ? select(req, 'shop', 'f.shop', shops, f.shop) : '',
    input(req, 'client_id', 'f.client', f.client_id, ' autocomplete="off"'),
    input(req, 'merchant_operation_id', 'f.moid', f.merchant_operation_id, ' autocomplete="off"'),
    input(req, 'since', 'f.since', f.since, ' placeholder="2026-07-01T00:00:00Z"'),
    input(req, 'until', 'f.until', f.until, ' placeholder="2026-07-02T00:00:00Z"'),
    input(req, 'min_amount', 'f.min', f.min_amount, ' inputmode="decimal"'),
    input(req, 'max_amount', 'f.max', f.max_amount, ' inputmode="decimal"'),
  ];
  const actions = `<div class="actions"><button type="submit">${dt(req.lang, 'f.apply')}</button><a class="button secondary" href="${esc(`${req.base}/operations`)}">${dt(req.lang, 'f.clear')}</a></div>`;
  // Folded unless a filter is set (the script unfolds it on a wide screen): on a phone the rows come first.
  const open = Object.keys(f).length > 0 ? ' open' : '';
  return `<details class="panel filter-box" data-wide-open${open}><summary><h2>${dt(req.lang, 'ops.filters')}</h2></summary><form method="get" action="${esc(`${req.base}/operations`)}"><div class="filters">${fields.join('')}${actions}</div></form></details>`;
}

function amountCell(req: DashRequest, op: OperationRow): string {
  const expected = money(req.lang, op.expected_amount, op.currency);
  if (op.actual_amount === op.expected_amount || Number(op.actual_amount) === 0) return expected;
  const actual = formatMoney(req.lang, op.actual_amount, op.currency);
  return `${expected}<br><span class="muted">${dt(req.lang, 'amount.actual', { amount: actual })}</span>`;
}

export function operationRow(req: DashRequest, op: OperationRow): string {
  const L = (k: DashKey) => esc(DASH_MESSAGES[req.lang][k]);
  return `<tr data-row="${esc(op.operation_id)}" data-status="${esc(op.status)}">
<td data-label="${L('col.id')}"><a class="mono" href="${esc(operationHref(req, op.operation_id))}">${esc(op.operation_id)}</a></td>
<td data-label="${L('col.moid')}" class="mono">${esc(op.merchant_operation_id)}</td>
<td data-label="${L('col.shop')}">${esc(op.shop_id)}</td>
<td data-label="${L('col.type')}">${esc(op.type)}</td>
<td data-label="${L('col.method')}" class="mono">${esc(op.method)}</td>
<td data-label="${L('col.status')}">${statusBadge(op.status)}</td>
<td data-label="${L('col.amount')}" class="num">${amountCell(req, op)}</td>
<td data-label="${L('col.time')}">${moment(req.lang, op.created_at)}</td></tr>`;
}

function table(req: DashRequest, ops: readonly OperationRow[]): string {
  if (ops.length === 0) return `<p>${dt(req.lang, 'ops.none')}</p>`;
  const L = (k: DashKey) => dt(req.lang, k);
  const head = `<tr><th scope="col">${L('col.id')}</th><th scope="col">${L('col.moid')}</th><th scope="col">${L('col.shop')}</th><th scope="col">${L('col.type')}</th><th scope="col">${L('col.method')}</th><th scope="col">${L('col.status')}</th><th scope="col" class="num">${L('col.amount')}</th><th scope="col">${L('col.time')}</th></tr>`;
  return `<table class="stack ops"><caption class="vh">${L('ops.caption')}</caption><thead>${head}</thead><tbody>${ops.map((op) => operationRow(req, op)).join('')}</tbody></table>`;
}

function pager(req: DashRequest, f: Partial<Record<Filter, string>>, list: ListOperationsResponse, after?: string) {
  const links: string[] = [];
  if (after) links.push(`<a href="${esc(`${req.base}/operations${query(f)}`)}">${dt(req.lang, 'pager.first')}</a>`);
  if (list.has_more && list.next_cursor) {
    const next = query({ ...f, starting_after: list.next_cursor });
    links.push(`<a href="${esc(`${req.base}/operations${next}`)}" rel="next">${dt(req.lang, 'pager.next')}</a>`);
  }
  return links.length ? `<nav class="pager" aria-label="${dt(req.lang, 'pager.label')}">${links.join('')}</nav>` : '';
}

/** GET <dashboard>/operations. */
export async function operationsPage(req: DashRequest): Promise<string> {
  const f = filtersOf(req);
  const after = req.event.url.searchParams.get('starting_after') ?? undefined;
  const title = DASH_MESSAGES[req.lang]['ops.title'];
  let results: string;
  let status = 200;
  const answered = await req.d.source.list(req.shop, { ...f, limit: String(PAGE_SIZE), starting_after: after });
  if (answered.ok) {
    const list = answered.value;
    const count = list.total === undefined ? '' : `${dt(req.lang, 'ops.total', { count: String(list.total) })} `;
    const summary = `<p class="muted">${count}${dt(req.lang, 'ops.shown', { count: String(list.operations.length) })}</p>`;
    results = `${summary}${table(req, list.operations)}${pager(req, f, list, after)}`;
  } else {
    status = answered.status;
    req.event.context.errorCode = answered.code;
    results = `<p class="notice" role="alert">${dt(req.lang, 'ops.refused', { message: answered.message })}</p>`;
  }
  const live = `${req.base}/events${query(f)}`;
  const main = `<h1>${esc(title)}</h1>${filterForm(req, f)}<section id="ops-results" data-swap aria-live="off">${results}</section>`;
  return answer(req, status, { title, main, section: 'operations', live });
}
