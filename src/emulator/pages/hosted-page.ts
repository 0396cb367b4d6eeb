// The hosted payment page at {payment_page_url}/<operation_id> (spec §4.2, §4.3): GET shows the page of the
// payment, or of a flexible link still waiting for the payer's amount; its static files; and a stray GET of a
// form's address goes back to the page. The forms are upload.ts (receipt) and picker.ts (amount); the live
// updates are events.ts.
import type { H3Event } from 'h3';
import type { AppContext } from '../context.js';
import { STATUS_OF } from '../http/errors.js';
import { findTarget, pageHref, pageRequest, type PageRequest, type PageTarget } from './access.js';
import { pageAsset } from './assets.js';
import { notFoundDocument, renderCard, renderDocument, type CardNotice } from './layout.js';
import { html } from './security.js';

/** A page shown; the redirect back to the page after a form. Errors take their status from STATUS_OF. */
export const PAGE_OK = 200;
export const PAGE_SEE_OTHER = 303;

/** The page of `target` in its current state, with `status` and what a refused form asks it to say. */
export function answerPage(
  event: H3Event,
  ctx: AppContext,
  req: PageRequest,
  target: PageTarget,
  status: number,
  extra: CardNotice = {},
): string {
  return html(event, status, renderDocument(renderCard(target, ctx, req, extra), ctx, req));
}

export function notFoundPage(event: H3Event, req: PageRequest): string {
  return html(event, STATUS_OF.not_found, notFoundDocument(req));
}

/** 303 to the page itself (after a form, or for a GET of a form's address). */
export function backToPage(event: H3Event, req: PageRequest): string {
  event.res.status = PAGE_SEE_OTHER;
  event.res.headers.set('location', pageHref(req));
  event.res.headers.set('cache-control', 'no-store');
  event.res.headers.set('referrer-policy', 'no-referrer');
  return '';
}

/** GET /pay/:id: the payment's page, or a flexible link's page while it waits for the payer's amount. */
export function showPaymentPage(event: H3Event, ctx: AppContext): string {
  const req = pageRequest(event, ctx);
  const target = findTarget(event, ctx, req);
  return target ? answerPage(event, ctx, req, target, PAGE_OK) : notFoundPage(event, req);
}

/** GET /pay/:id/receipt and /pay/:id/amount (a reload after a refused form): back to the page. */
export function showFormTarget(event: H3Event, ctx: AppContext): string {
  const req = pageRequest(event, ctx);
  return findTarget(event, ctx, req) ? backToPage(event, req) : notFoundPage(event, req);
}

/** GET /pay/assets/:file: the page's stylesheet and script. */
export function servePageAsset(event: H3Event, ctx: AppContext): string {
  return pageAsset(event) ?? notFoundPage(event, pageRequest(event, ctx));
}
