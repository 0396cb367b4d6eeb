// The hosted payment page at {payment_page_url}/<operation_id> (spec §4.2): shows the amount and the requisites,
// accepts a receipt upload where the route requires one (the same checks as confirm_payment), and shows the
// payer the outcome: paid, under review, declined or expired. Server-rendered HTML, every value escaped.
import { linkExpiry } from '../../domain/links.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import type { LinkRecord } from '../../domain/links.js';
import { toScale2 } from '../../domain/money.js';
import type { OperationRecord } from '../../domain/operation.js';
import { DomainError } from '../../domain/errors.js';
import { RECEIPT_LIMIT, type AppContext } from '../context.js';
import { ApiError, STATUS_OF } from '../http/errors.js';
import { receiptCheck } from '../receipts/check.js';
import { receiptChecksOf } from '../receipts/queue.js';
import { receiptTarget } from '../receipts/target.js';
import { ReceiptUploadBody } from '../receipts/upload-body.js';
import { toWireOperation, type PublicOperation } from '../wire.js';

/** A page shown; the redirect back to the page after an upload. Errors take their status from STATUS_OF. */
const PAGE_OK = 200;
const PAGE_SEE_OTHER = 303;

/** What the page tells the payer for an upload refused by the HTTP layer (any other: choose a PDF). */
const PAGE_NOTICE = {
  body_too_large: 'The file is too large: a receipt is at most 10 MiB.',
  receipt_checks_busy: 'Too many receipts are being checked for this shop right now. Try again in a few seconds.',
  receipt_checks_full: 'Too many receipts are being checked right now. Try again in a few seconds.',
} as const;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function outcome(op: PublicOperation): { title: string; tone: string; text: string } {
  switch (op.status) {
    case 'pending':
      return { title: 'Waiting for your transfer', tone: 'wait', text: 'Transfer exactly the amount below to these requisites.' };
    case 'awaiting_confirmation':
      return { title: 'Upload your receipt', tone: 'wait', text: 'After the transfer, upload the PDF receipt from your bank.' };
    case 'manual_check':
      return { title: 'Under review', tone: 'review', text: 'Your receipt is being checked. You can close this page.' };
    case 'completed':
      return { title: 'Paid', tone: 'ok', text: 'The payment is complete. Thank you.' };
    case 'rejected':
      return op.reject_reason === 'expired'
        ? { title: 'Expired', tone: 'bad', text: 'The time to pay has run out. Start a new payment with the merchant.' }
        : { title: 'Declined', tone: 'bad', text: 'The payment was declined.' };
    case 'cancelled':
      return { title: 'Declined', tone: 'bad', text: 'The payment was cancelled by the merchant.' };
  }
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>
body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1d2433}
.card{border:1px solid #d8dce6;border-radius:12px;padding:1.5rem}.amount{font-size:2rem;font-weight:600}
.ok{color:#147a3d}.bad{color:#b3261e}.wait{color:#8a5a00}.review{color:#6b3fa0}dt{color:#667}dd{margin:0 0 .6rem;font-family:ui-monospace,monospace}
.note{color:#667;font-size:.85rem}button{font:inherit;padding:.5rem 1rem}
</style></head><body>${body}<p class="note">paygate sandbox — no real money moves.</p></body></html>`;
}

function render(op: PublicOperation, ctx: AppContext, notice?: string, query = ''): string {
  const shop = ctx.service.world.shops.get(op.shop_id)!;
  const wire = toWireOperation(op, ctx.service.world);
  const o = outcome(op);
  const requisites =
    (op.status === 'pending' || op.status === 'awaiting_confirmation') && wire.number
      ? `<dl><dt>${wire.bankname_details ? 'Phone' : 'Card'}</dt><dd>${esc(wire.number)}</dd>${wire.name ? `<dt>Recipient</dt><dd>${esc(wire.name)}</dd>` : ''}${wire.bankname_details ? `<dt>Bank</dt><dd>${esc(wire.bankname_details)}</dd>` : ''}${wire.expires_at ? `<dt>Pay before</dt><dd>${esc(wire.expires_at)}</dd>` : ''}</dl>`
      : '';
  const upload =
    op.status === 'awaiting_confirmation'
      ? `<form method="post" action="${esc(ctx.urls.paymentPage)}/${esc(op.id)}/receipt${esc(query)}" enctype="multipart/form-data"><p><input type="file" name="receipt" accept="application/pdf" required></p><button>Upload receipt</button></form>`
      : '';
  return page(
    `${shop.name}: ${o.title}`,
    `<div class="card"><p>${esc(shop.name)}</p><p class="amount">${esc(wire.expected_amount)} ${esc(wire.currency)}</p>
<h1 class="${o.tone}" data-status="${esc(op.status)}">${esc(o.title)}</h1><p>${esc(o.text)}</p>${notice ? `<p class="note">${esc(notice)}</p>` : ''}${requisites}${upload}</div>`,
  );
}

function html(event: H3Event, status: number, body: string): string {
  event.res.status = status;
  event.res.headers.set('content-type', 'text/html; charset=utf-8');
  event.res.headers.set('cache-control', 'no-store');
  return body;
}

/** Constant-time comparison of a presented k credential with the expected one. */
function sameCredential(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The page of a flexible link still waiting for the payer's amount (the picker itself comes in a later version). */
function renderLink(link: LinkRecord, ctx: AppContext, now: number): string {
  const shop = ctx.service.world.shops.get(link.shop_id)!;
  const p = link.params;
  const expiry = linkExpiry(link);
  const expired = link.status === 'expired' || (expiry !== undefined && Date.parse(expiry) <= now);
  const bounds = `${p.min_amount ?? '—'} … ${p.max_amount ?? '—'} ${p.currency}`;
  const body = expired
    ? `<h1 class="bad" data-status="expired">Expired</h1><p>The time to choose an amount has run out. Start a new payment with the merchant.</p>`
    : link.status === 'rejected'
      ? `<h1 class="bad" data-status="rejected">Declined</h1><p>No amount can be paid right now.</p>`
      : `<h1 class="wait" data-status="amount_selection">Choose an amount</h1><p>Suggested: ${esc(toScale2(p.recommended_amount))} ${esc(p.currency)}. Allowed: ${esc(bounds)}.</p><dl><dt>Choose before</dt><dd>${esc(expiry ?? '')}</dd></dl><p class="note">In this sandbox version the payer's choice is made with <code>paygate sandbox links confirm</code>.</p>`;
  return page(`${shop.name}: choose an amount`, `<div class="card"><p>${esc(shop.name)}</p>${body}</div>`);
}

/** The k credential presented, when the page needs one (flexible links): undefined = refused. */
function credential(event: H3Event, ctx: AppContext, id: string): string | undefined {
  const k = event.url.searchParams.get('k') ?? '';
  return k !== '' && sameCredential(k, ctx.service.linkCredential(id)) ? `?k=${encodeURIComponent(k)}` : undefined;
}

/** The payment of the page, if it has one the caller may see. */
function find(event: H3Event, ctx: AppContext): { op: PublicOperation; query: string } | undefined {
  const id = (event.context.params?.id ?? '').toLowerCase();
  const op: OperationRecord | undefined = ctx.service.state.operation(id);
  if (!op || op.status === 'admitting' || op.type !== 'payment') return undefined;
  if (!ctx.service.world.shops.get(op.shop_id)?.hosted_page) return undefined;
  // Only payments created through a link endpoint have a page: the id of any other is derivable, not a secret.
  if (!op.flexible_link && !op.hosted_link) return undefined;
  if (!op.flexible_link) return { op, query: '' };
  // A flexible link's page answers only with its k credential (spec §4.3 rule 1): without it, not found.
  const query = credential(event, ctx, id);
  return query === undefined ? undefined : { op, query };
}

const notFound = (event: H3Event) =>
  html(event, STATUS_OF.not_found, page('Not found', '<div class="card"><h1>Payment not found</h1><p>Check the link you were given.</p></div>'));

/** GET /pay/:id: the payment's page, or a flexible link's page while it waits for the payer's amount. */
export function showPaymentPage(event: H3Event, ctx: AppContext): string {
  const found = find(event, ctx);
  if (found) return html(event, PAGE_OK, render(found.op, ctx, undefined, found.query));
  const id = (event.context.params?.id ?? '').toLowerCase();
  const link = ctx.service.state.link(id);
  if (link && !ctx.service.state.operation(id) && credential(event, ctx, id) !== undefined) return html(event, PAGE_OK, renderLink(link, ctx, ctx.service.clock.now()));
  return notFound(event);
}

/**
 * POST /pay/:id/receipt: the page's upload form; the same checks as confirm_payment, then back to the page. The
 * payment's status and the declared length are checked, and the shop's place in the receipt-check queue taken,
 * before the body is read.
 */
export async function uploadPageReceipt(event: H3Event, ctx: AppContext): Promise<string> {
  const found = find(event, ctx);
  const body = new ReceiptUploadBody(event, RECEIPT_LIMIT);
  if (!found) {
    body.leaveUnread();
    return notFound(event);
  }
  const { op, query } = found;
  const answer = (status: number, notice: string) => {
    body.leaveUnread();
    return html(event, status, render(find(event, ctx)?.op ?? op, ctx, notice, query));
  };
  try {
    receiptTarget(ctx.service, op.shop_id, op.id);
    body.checkDeclaredLength();
    const ticket = receiptChecksOf(ctx.service).admit(op.shop_id);
    try {
      const { file } = await body.read();
      if (!file || file.bytes.byteLength === 0) return answer(STATUS_OF.validation_error, 'Choose a PDF receipt to upload (at most 10 MiB).');
      const upload = { bytes: file.bytes, filename: file.filename || 'receipt', contentType: file.contentType || 'application/octet-stream' };
      await ctx.service.uploadReceipt(op.shop_id, op.id, upload, receiptCheck(file.bytes, ticket));
    } finally {
      ticket.release();
    }
  } catch (e) {
    if (e instanceof DomainError) {
      return e.code === 'invalid_state'
        ? answer(STATUS_OF.invalid_state, 'This payment does not accept a receipt now.')
        : answer(STATUS_OF[e.code], 'The receipt could not be stored. Try again.');
    }
    if (!(e instanceof ApiError)) throw e;
    for (const [k, v] of Object.entries(e.headers)) event.res.headers.set(k, v);
    return answer(e.status, PAGE_NOTICE[e.code as keyof typeof PAGE_NOTICE] ?? 'Choose a PDF receipt to upload (at most 10 MiB).');
  }
  event.res.status = PAGE_SEE_OTHER;
  event.res.headers.set('location', `${ctx.urls.paymentPage}/${op.id}${query}`);
  return '';
}
