// The Requests page: the newest requests the sandbox answered (logs.list, what `paygate logs tail` reads: the ring
// of the request log, secrets in URLs masked, no header or body ever kept) and, live, each new one as it is answered
// (GET <dashboard>/requests/events: logs.stream run with the session's scope in place of a key, as events.ts runs
// the operations stream). A shop's session sees its own shop's requests only. Nothing listens while no Requests
// page is open: the stream's listener lives as long as the page's EventSource.
import { esc } from '../../pages/i18n.js';
import type { DashRequest } from '../request.js';
import type { RequestLog } from '../source.js';
import { refusedNotice, render } from './common.js';
import { PAGE_MESSAGES, pt, type PageKey } from './messages.js';

/** Requests shown when the page opens (the live ones are added on top, the page keeping at most LIVE_MAX). */
export const REQUESTS_SHOWN = 100;
export const LIVE_MAX = 300;

const COLS: PageKey[] = ['col.time', 'col.method', 'col.path', 'col.status', 'col.latency', 'col.shop', 'col.error'];

type Entry = RequestLog['requests'][number];

function row(req: DashRequest, e: Entry): string {
  const L = (k: PageKey) => esc(PAGE_MESSAGES[req.lang][k]);
  const cells = [
    `<span class="mono">${esc(e.at)}</span>`,
    esc(e.method),
    `<span class="mono">${esc(e.path)}</span>`,
    String(e.status),
    `${e.latency_ms} ms`,
    esc(e.shop_id || '—'),
    esc(e.error_code ?? '—'),
  ];
  return `<tr data-request="${esc(e.id)}">${cells.map((c, i) => `<td data-label="${L(COLS[i]!)}">${c}</td>`).join('')}</tr>`;
}

/** GET <dashboard>/requests. */
export async function requestsPage(req: DashRequest): Promise<string> {
  const { lang } = req;
  const title = PAGE_MESSAGES[lang]['req.title'];
  const r = await req.d.source.logs(req.shop, REQUESTS_SHOWN);
  let body: string;
  if (!r.ok) {
    req.event.context.errorCode = r.code;
    body = refusedNotice(req, `${r.code}: ${r.message}`);
  } else {
    const head = COLS.map((c) => `<th scope="col">${esc(PAGE_MESSAGES[lang][c])}</th>`).join('');
    const live = `${req.base}/requests/events`;
    body = `<table class="stack requests" data-requests-live="${esc(live)}" data-max="${LIVE_MAX}"><caption class="vh">${esc(title)}</caption><thead><tr>${head}</tr></thead><tbody>${r.value.requests.map((e) => row(req, e)).join('')}</tbody></table>${r.value.requests.length ? '' : `<p data-empty>${pt(lang, 'req.none')}</p>`}`;
  }
  const main = `<h1>${esc(title)}</h1><p class="muted">${pt(lang, 'req.lead')}</p>${body}`;
  return render(req, { title, main, section: 'requests' });
}

/** GET <dashboard>/requests/events: the request log's stream in the session's scope. */
export function requestEvents(req: DashRequest): Promise<unknown> {
  return req.d.source.logStream(req);
}
