// The parts of an operation's page below its fields: the timeline of transitions, receipts with their evidence
// status and links, uploaded files, ledger postings, webhook deliveries with every attempt (what was sent where,
// what came back, how long it took) and a Redeliver button, and the injected faults that touched it.
import type { OperationDetails } from '../../contract/sandbox.js';
import { esc, formatMoney } from '../pages/i18n.js';
import { csrfField } from './layout.js';
import { moment } from './format.js';
import { DASH_MESSAGES, dt, type DashKey } from './messages.js';
import type { DashRequest } from './request.js';
import type { ViolationRow } from './source.js';

type Details = OperationDetails;

/** A table that stacks into cards on a phone; `cells` are HTML. */
export function stackTable(req: DashRequest, caption: string, cols: DashKey[], rows: string[][], cls = ''): string {
  const L = (k: DashKey) => esc(DASH_MESSAGES[req.lang][k]);
  const head = cols.map((c) => `<th scope="col">${L(c)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((cell, i) => `<td data-label="${L(cols[i]!)}">${cell}</td>`).join('')}</tr>`)
    .join('');
  return `<table class="stack ${cls}"><caption class="vh">${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const section = (id: string, title: string, body: string) =>
  `<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`;

/** One line of an operation's timeline: a status move, or a violation seen on it (a source with violations). */
export type TimelineItem =
  | { kind: 'move'; at: string; from: string | null; to: string; cause: string }
  | { kind: 'violation'; at: string; text: string };

/** The operation's status moves and the violations seen on it (oldest first), in one list by time. */
export function timelineItems(d: Details, seen: readonly ViolationRow[]): TimelineItem[] {
  const moves: TimelineItem[] = d.history.map((h) => ({ kind: 'move', ...h }));
  const found: TimelineItem[] = seen.map((v) => ({
    kind: 'violation',
    at: v.at ?? '',
    text: `${v.rule} (${v.section}, ${v.endpoint}, exchange #${v.exchange}): ${v.message}`,
  }));
  const out: TimelineItem[] = [];
  let i = 0;
  let j = 0;
  while (i < moves.length || j < found.length)
    out.push(j >= found.length || (i < moves.length && moves[i]!.at <= found[j]!.at) ? moves[i++]! : found[j++]!);
  return out;
}

export function timeline(req: DashRequest, list: readonly TimelineItem[]): string {
  const items = list.map((h) =>
    h.kind === 'violation'
      ? `<li class="tl-violation" data-violation>${moment(req.lang, h.at)}<br><strong>⚠ ${dt(req.lang, 'op.timeline.violation')}</strong> <span>${esc(h.text)}</span></li>`
      : `<li data-move="${esc(`${h.from ?? ''}:${h.to}`)}">${moment(req.lang, h.at)}<br><strong>${dt(req.lang, 'op.timeline.move', { from: h.from ?? '∅', to: h.to })}</strong> <span class="muted">${esc(h.cause)}</span></li>`,
  );
  return section('h-timeline', dt(req.lang, 'op.timeline'), `<ol class="timeline">${items.join('')}</ol>`);
}

/** Whether a URL is http(s): only those are links (on the proxy a receipt's URL comes from the upstream). */
const isWebUrl = (url: string) => URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol);

/** A receipt's download link; a URL of any other scheme (`javascript:`, `data:`…) shown as text, not followed. */
function receiptLink(req: DashRequest, url: string | null): string {
  if (!url) return '<span class="muted">—</span>';
  if (!isWebUrl(url)) return `<span class="mono" data-unlinked>${esc(url)}</span>`;
  return `<a href="${esc(url)}" rel="noreferrer">${dt(req.lang, 'op.receipt.download')}</a>`;
}

export function receipts(req: DashRequest, d: Details): string {
  const op = d.operation;
  const evidence = `<p>${dt(req.lang, 'op.evidence', { status: op.receipt_evidence_status })}</p>`;
  const rows = op.receipts.map((r) => [
    `<span class="mono">${esc(r.id)}</span>`,
    esc(formatMoney(req.lang, r.amount.toFixed(2), op.currency)),
    moment(req.lang, r.completed_at),
    receiptLink(req, r.receipt_url),
  ]);
  const list = rows.length
    ? stackTable(req, dt(req.lang, 'op.receipts'), ['col.id2', 'col.amount', 'col.completed', 'col.file'], rows)
    : `<p>${dt(req.lang, 'op.receipts.none')}</p>`;
  const uploads = d.uploads.length
    ? `<h3>${dt(req.lang, 'op.uploads')}</h3>${stackTable(
        req,
        dt(req.lang, 'op.uploads'),
        ['col.file', 'col.at', 'col.review'],
        d.uploads.map((u) => [
          `${esc(u.filename)} <span class="muted">(${esc(u.content_type)}, ${u.size} B)</span>`,
          moment(req.lang, u.uploaded_at),
          `${esc(u.review.rule)} → ${esc(u.review.to)}${u.review.reason ? ` <span class="muted">${esc(u.review.reason)}</span>` : ''}`,
        ]),
      )}`
    : '';
  return section('h-receipts', dt(req.lang, 'op.receipts'), `${evidence}${list}${uploads}`);
}

export function postings(req: DashRequest, d: Details): string {
  const rows = d.postings.map((p) => [
    moment(req.lang, p.at),
    esc(p.kind),
    `<span class="mono">${esc(p.source)}</span>`,
    `<span class="mono">${esc(p.destination)}</span>`,
    esc(formatMoney(req.lang, p.amount, p.currency)),
  ]);
  const body = rows.length
    ? stackTable(
        req,
        dt(req.lang, 'op.postings'),
        ['col.at', 'col.kind', 'col.source', 'col.destination', 'col.amount'],
        rows,
      )
    : `<p>${dt(req.lang, 'op.postings.none')}</p>`;
  return section('h-postings', dt(req.lang, 'op.postings'), body);
}

function redeliverForm(req: DashRequest, id: string, eventId: string): string {
  return `<form method="post" action="${esc(`${req.base}/operations/${encodeURIComponent(id)}`)}">${csrfField(req)}<input type="hidden" name="action" value="redeliver"><input type="hidden" name="event_id" value="${esc(eventId)}"><button type="submit" class="secondary" data-action="redeliver">${dt(req.lang, 'act.redeliver')} <span class="vh">${esc(eventId)}</span></button></form>`;
}

export function webhooks(req: DashRequest, d: Details): string {
  if (d.webhooks.length === 0)
    return section('h-webhooks', dt(req.lang, 'op.webhooks'), `<p>${dt(req.lang, 'op.webhooks.none')}</p>`);
  const id = d.operation.operation_id;
  const blocks = d.webhooks.map((w) => {
    const attempts = w.attempts.map((a) => [
      moment(req.lang, a.at),
      `POST <span class="mono">${esc(w.url)}</span><br><span class="muted">${esc(w.event_type)} · ${esc(w.event_id)}${a.webhook_timestamp ? ` · webhook-timestamp ${a.webhook_timestamp}` : ''}</span>`,
      a.status_code !== undefined ? `HTTP ${a.status_code}` : esc(a.error ?? '—'),
      dt(req.lang, 'wh.ms', { ms: String(a.duration_ms) }),
    ]);
    const table = attempts.length
      ? stackTable(
          req,
          `${w.event_type} ${w.event_id}`,
          ['col.at', 'col.request', 'col.response', 'col.duration'],
          attempts,
        )
      : `<p class="muted">${dt(req.lang, 'wh.none_yet')}</p>`;
    const next = w.next_attempt_at ? ` · ${dt(req.lang, 'col.next')}: ${moment(req.lang, w.next_attempt_at)}` : '';
    return `<div class="delivery" data-delivery="${esc(w.id)}" data-delivery-status="${esc(w.status)}"><h3><span class="mono">${esc(w.event_type)}</span> — ${esc(w.status)}</h3><p class="muted">${esc(w.url)}${next}${w.error ? ` · ${esc(w.error)}` : ''}</p>${table}${redeliverForm(req, id, w.event_id)}</div>`;
  });
  return section('h-webhooks', dt(req.lang, 'op.webhooks'), blocks.join(''));
}

export function faults(req: DashRequest, d: Details): string {
  const list = d.faults ?? [];
  const body = list.length
    ? stackTable(
        req,
        dt(req.lang, 'op.faults'),
        ['col.at', 'col.fault', 'col.endpoint', 'col.effect'],
        list.map((f) => [
          moment(req.lang, f.at),
          `<span class="mono">${esc(f.fault_id)}</span>`,
          `<span class="mono">${esc(f.endpoint)}</span>`,
          esc(
            f.kind === 'latency'
              ? `+${f.latency_ms ?? 0} ms`
              : f.kind === 'status'
                ? `HTTP ${f.status ?? ''} ${f.code ?? ''}`.trim()
                : f.kind,
          ),
        ]),
      )
    : `<p>${dt(req.lang, 'op.faults.none')}</p>`;
  return section('h-faults', dt(req.lang, 'op.faults'), body);
}

export { section };
