// The card of a payment's page, one state at a time: the amount, the requisites grouped for reading with copy
// buttons, the deadline (in UTC here; the script shows it in the payer's own time and counts down), the receipt
// upload where the route takes one, and the outcome in the payer's words. Every value escaped.
import type { AppContext } from '../context.js';
import { toWireOperation, type PublicOperation } from '../wire.js';
import { pageHref, type PageRequest } from './access.js';
import { esc, formatMoney, formatUtc, groupNumber, t, type Lang } from './i18n.js';
import type { MessageKey } from './messages.js';
import type { PageView } from './state.js';

/** A message shown above the card's actions: an upload or a choice refused, in the payer's words. */
export interface Notice {
  key: MessageKey;
  vars?: Record<string, string>;
}

export function noticeHtml(lang: Lang, notice: Notice | undefined, id = 'pg-notice'): string {
  return notice ? `<p id="${id}" class="notice" role="alert">${t(lang, notice.key, notice.vars)}</p>` : '';
}

function copyButton(lang: Lang, value: string, label: MessageKey): string {
  return `<button type="button" class="copy" data-copy="${esc(value)}" aria-label="${t(lang, label)}" hidden>${t(lang, 'copy.button')}</button>`;
}

/** A deadline: the moment in UTC (replaced by the payer's local time), and the countdown the script fills. */
export function deadlineHtml(lang: Lang, label: MessageKey, iso: string): string {
  return `<p class="deadline">${t(lang, label)} <time datetime="${esc(iso)}" data-local>${esc(formatUtc(lang, iso))}</time> <span class="utc">${t(lang, 'label.utc')}</span> <span class="countdown" data-countdown="${esc(iso)}"></span></p>`;
}

function row(label: string, value: string, extra = ''): string {
  return `<div class="row"><dt>${label}</dt><dd><span class="value">${value}</span>${extra}</dd></div>`;
}

/** The requisites of a payment waiting for the transfer: amount, card or phone, recipient, bank, deadline. */
function requisites(
  op: PublicOperation,
  ctx: AppContext,
  lang: Lang,
): { html: string; rail: 'card' | 'phone'; bank: string } {
  const wire = toWireOperation(op, ctx.service.world);
  const rail = ctx.service.world.methods.get(op.method)?.rail === 'phone' ? 'phone' : 'card';
  const bank = wire.bankname_details ?? '';
  const amount = formatMoney(lang, op.expected_amount, op.currency);
  const rows = [
    row(
      t(lang, 'label.amount'),
      `<strong>${esc(amount)}</strong>`,
      copyButton(lang, op.expected_amount, 'copy.amount'),
    ),
  ];
  if (wire.number) {
    const label = rail === 'phone' ? 'label.phone' : 'label.card';
    const raw = rail === 'phone' ? wire.number : wire.number.replace(/\D/g, '');
    rows.push(
      row(
        t(lang, label),
        `<span class="mono">${esc(groupNumber(wire.number, rail))}</span>`,
        copyButton(lang, raw, rail === 'phone' ? 'copy.phone' : 'copy.card'),
      ),
    );
  }
  if (wire.name) rows.push(row(t(lang, 'label.recipient'), esc(wire.name)));
  if (bank) rows.push(row(t(lang, 'label.bank'), esc(bank)));
  const deadline = wire.expires_at ? deadlineHtml(lang, 'label.pay_before', wire.expires_at) : '';
  return {
    html: `<dl class="requisites">${rows.join('')}</dl>${deadline}<p class="copied" role="status" data-copied></p>`,
    rail,
    bank,
  };
}

function uploadForm(req: PageRequest, notice: Notice | undefined): string {
  const { lang } = req;
  const message = notice ? t(lang, notice.key, notice.vars) : '';
  return `<form class="upload" method="post" action="${esc(pageHref(req, '/receipt'))}" enctype="multipart/form-data" data-upload>
<label for="pg-receipt">${t(lang, 'upload.label')}</label>
<p id="pg-receipt-hint" class="hint">${t(lang, 'upload.hint')}</p>
<input id="pg-receipt" type="file" name="receipt" accept="application/pdf,.pdf" required aria-describedby="pg-receipt-hint pg-upload-msg"${notice ? ' aria-invalid="true"' : ''}>
<p id="pg-upload-msg" class="msg${notice ? ' error' : ''}" aria-live="polite">${message}</p>
<progress id="pg-progress" max="100" value="0" hidden></progress>
<button type="submit" class="primary">${t(lang, 'upload.button')}</button>
</form>`;
}

function lead(view: PageView, op: PublicOperation, lang: Lang, rail: 'card' | 'phone', bank: string): string {
  const amount = formatMoney(lang, op.expected_amount, op.currency);
  switch (view.state) {
    case 'waiting':
    case 'upload':
      return t(lang, `lead.${view.state}.${rail}`, { amount, bank });
    case 'paid':
      return t(lang, 'lead.paid', { amount: formatMoney(lang, op.actual_amount, op.currency) });
    case 'paid_other':
      return t(lang, 'lead.paid_other', { actual: formatMoney(lang, op.actual_amount, op.currency), expected: amount });
    case 'declined':
      return t(lang, view.detail === 'taken' ? 'lead.declined.taken' : 'lead.declined');
    default:
      return t(lang, `lead.${view.state}` as MessageKey);
  }
}

/** The amount line of a card: what to pay, or what arrived against what was expected. */
function amountLine(view: PageView, op: PublicOperation, lang: Lang): string {
  if (view.state === 'paid_other') {
    return `<dl class="amounts"><div class="row"><dt>${t(lang, 'label.received')}</dt><dd class="amount">${esc(formatMoney(lang, op.actual_amount, op.currency))}</dd></div><div class="row"><dt>${t(lang, 'label.expected')}</dt><dd>${esc(formatMoney(lang, op.expected_amount, op.currency))}</dd></div></dl>`;
  }
  return `<p class="amount">${esc(formatMoney(lang, view.state === 'paid' ? op.actual_amount : op.expected_amount, op.currency))}</p>`;
}

const TONE: Record<PageView['state'], string> = {
  choose: 'wait',
  waiting: 'wait',
  upload: 'wait',
  review: 'review',
  paid: 'ok',
  paid_other: 'ok',
  declined: 'bad',
  expired: 'bad',
  cancelled: 'bad',
};

export function toneOf(view: PageView): string {
  return TONE[view.state];
}

/** The inner HTML of the card for a payment. */
export function paymentCard(
  op: PublicOperation,
  view: PageView,
  ctx: AppContext,
  req: PageRequest,
  notice?: Notice,
): string {
  const { lang } = req;
  const open = view.state === 'waiting' || view.state === 'upload';
  const req$ = open ? requisites(op, ctx, lang) : { html: '', rail: 'card' as const, bank: '' };
  const heading = `<h1 class="state ${TONE[view.state]}">${t(lang, `state.${view.state}`)}</h1>`;
  const amount = open ? '' : amountLine(view, op, lang);
  const upload = view.state === 'upload' ? uploadForm(req, notice) : noticeHtml(lang, notice);
  return `${heading}${amount}<p class="lead">${lead(view, op, lang, req$.rail, req$.bank)}</p>${req$.html}${upload}`;
}

/** The inner HTML of the card of a flexible link that ended without a payment (expired, or nothing available). */
export function endedLinkCard(view: PageView, lang: Lang): string {
  const key: MessageKey = view.state === 'expired' ? 'lead.expired.link' : 'lead.declined.nothing';
  return `<h1 class="state ${TONE[view.state]}">${t(lang, `state.${view.state}`)}</h1><p class="lead">${t(lang, key)}</p>`;
}
