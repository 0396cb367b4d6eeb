// The Webhooks page: each visible shop's endpoints (webhooks.list: secrets masked, as `paygate sandbox webhooks
// list` shows them) and its deliveries (webhooks.deliveries, newest first), filtered by status, each with a
// Redeliver button calling webhooks.redeliver as the delivery's shop — the same control as `paygate sandbox
// webhooks redeliver`.
import type { SandboxWebhookDeliveries, SandboxWebhookList } from '../../../contract/sandbox-webhooks.js';
import { esc } from '../../pages/i18n.js';
import { moment } from '../format.js';
import { csrfField } from '../layout.js';
import type { DashRequest } from '../request.js';
import {
  actOn,
  cards,
  doneNotice,
  panel,
  refusedNotice,
  render,
  tryInvoke,
  visibleShops,
  type Refusal,
} from './common.js';
import { PAGE_MESSAGES, pt } from './messages.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
/** Deliveries read per shop for the page (the control's largest page). */
const READ = 200;

function statusFilter(req: DashRequest): string | undefined {
  const s = req.event.url.searchParams.get('status') ?? '';
  return (DELIVERY_STATUSES as readonly string[]).includes(s) ? s : undefined;
}

function filterForm(req: DashRequest, status: string | undefined): string {
  const { lang } = req;
  const opts = DELIVERY_STATUSES.map((s) => `<option value="${s}"${s === status ? ' selected' : ''}>${s}</option>`);
  return `<form method="get" action="${esc(`${req.base}/webhooks`)}" class="inline-form"><div><label for="wh-status">${pt(lang, 'wh.status')}</label><select id="wh-status" name="status"><option value="">${pt(lang, 'wh.any')}</option>${opts.join('')}</select></div><button type="submit">${pt(lang, 'wh.apply')}</button></form>`;
}

function redeliverForm(req: DashRequest, shop: string, eventId: string): string {
  return `<form method="post" action="${esc(`${req.base}/webhooks`)}">${csrfField(req)}<input type="hidden" name="shop" value="${esc(shop)}"><input type="hidden" name="event_id" value="${esc(eventId)}"><button type="submit" class="secondary" data-do="redeliver">${pt(req.lang, 'wh.redeliver')} <span class="vh">${esc(eventId)}</span></button></form>`;
}

async function shopSection(req: DashRequest, shop: string, status: string | undefined, n: number): Promise<string> {
  const { lang } = req;
  const list = await tryInvoke<SandboxWebhookList>(req, 'webhooks.list', { shopId: shop });
  if (!list.ok) return panel(`h-wh-${n}`, esc(shop), refusedNotice(req, list.refusal.message));
  const endpoints = list.value.webhooks.length
    ? cards(
        req,
        PAGE_MESSAGES[lang]['wh.endpoints'],
        ['col.url', 'col.secret', 'col.created'],
        list.value.webhooks.map((w) => [
          `<span class="mono">${esc(w.url)}</span>`,
          `<span class="mono" data-secret>${esc(w.secret)}</span>`,
          moment(lang, w.created_at),
        ]),
      )
    : `<p>${pt(lang, 'wh.endpoints.none')}</p>`;
  const q = { limit: String(READ), ...(status === 'failed' ? { failed: 'true' } : {}) };
  const d = await tryInvoke<SandboxWebhookDeliveries>(req, 'webhooks.deliveries', { shopId: shop, query: q });
  if (!d.ok) return panel(`h-wh-${n}`, esc(shop), refusedNotice(req, d.refusal.message));
  const shown = d.value.deliveries.filter((x) => !status || x.status === status);
  const rows = shown.map((x) => {
    const last = x.attempts[x.attempts.length - 1];
    const answer = !last ? '—' : last.status_code !== undefined ? `HTTP ${last.status_code}` : esc(last.error ?? '—');
    return [
      `<span class="mono">${esc(x.event_type)}</span><br><span class="muted mono">${esc(x.event_id)}</span>`,
      `<span class="status s-${esc(x.status)}" data-delivery-status="${esc(x.status)}">${esc(x.status)}</span>`,
      String(x.attempts.length),
      answer,
      x.next_attempt_at ? moment(lang, x.next_attempt_at) : '—',
      redeliverForm(req, shop, x.event_id),
    ];
  });
  const deliveries = rows.length
    ? cards(
        req,
        PAGE_MESSAGES[lang]['wh.deliveries'],
        ['col.event', 'col.status', 'col.attempts', 'col.last', 'col.next', 'col.action'],
        rows,
        'deliveries',
      )
    : `<p>${pt(lang, 'wh.deliveries.none')}</p>`;
  return panel(
    `h-wh-${n}`,
    `<span class="mono">${esc(shop)}</span>`,
    `<h3>${pt(lang, 'wh.endpoints')}</h3>${endpoints}<h3>${pt(lang, 'wh.deliveries')}</h3>${deliveries}`,
  );
}

/** GET <dashboard>/webhooks (and the page again after a refused Redeliver). */
export async function webhooksPage(req: DashRequest, refusal?: Refusal): Promise<string> {
  const title = PAGE_MESSAGES[req.lang]['wh.title'];
  const status = statusFilter(req);
  const sections: string[] = [];
  for (const [i, shop] of visibleShops(req).entries()) sections.push(await shopSection(req, shop, status, i));
  const done = req.event.url.searchParams.get('redelivered');
  const notice = refusal
    ? refusedNotice(req, refusal.message)
    : doneNotice(req, done ? PAGE_MESSAGES[req.lang]['wh.redelivered'].replace('{event}', done) : undefined);
  const main = `<h1>${esc(title)}</h1>${notice}${filterForm(req, status)}<div id="wh-live" data-swap>${sections.join('')}</div>`;
  return render(req, { title, main, section: 'webhooks' }, refusal?.status ?? 200);
}

/** POST <dashboard>/webhooks: Redeliver an event as its shop (a shop's session: its own shop only). */
export function redeliver(req: DashRequest): Promise<string> {
  return actOn(
    req,
    '/webhooks',
    (form) => {
      const shop = form.get('shop') ?? '';
      const eventId = form.get('event_id') ?? '';
      if (!visibleShops(req).includes(shop)) return { refusal: { status: 404, message: `not_found: no shop ${shop}` } };
      return {
        id: 'webhooks.redeliver',
        inv: { shopId: shop, body: { event_id: eventId } },
        done: { redelivered: eventId },
      };
    },
    webhooksPage,
  );
}
