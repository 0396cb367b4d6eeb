// The dashboard's answers and forms: an HTML page with the payment page's safety headers (strict CSP, no
// referrer, no caching, no framing), a 303 after a form, and the rule every form POST passes — it comes from the
// dashboard's own origin (Sec-Fetch-Site / Origin, as the payment page checks) and, once signed in, carries the
// session's CSRF token. Form bodies are small and url-encoded; they are read here and never logged.
import type { H3Event } from 'h3';
import { readLimited } from '../http/body.js';
import { header } from '../http/headers.js';
import { html, sameOrigin } from '../pages/security.js';
import { renderDashboard, type DashPage } from './layout.js';
import { csrfValid, type DashRequest } from './request.js';

/** The largest form body taken (bytes): a credential or an action's few fields. */
export const FORM_LIMIT = 8 * 1024;

export const SEE_OTHER = 303;

export function answer(req: DashRequest, status: number, page: DashPage): string {
  return html(req.event, status, renderDashboard(req, page));
}

/** 303 to `location` (after a form; a page that needs a session). */
export function seeOther(event: H3Event, location: string, cookie?: string): string {
  event.res.status = SEE_OTHER;
  event.res.headers.set('location', location);
  event.res.headers.set('cache-control', 'no-store');
  event.res.headers.set('referrer-policy', 'no-referrer');
  if (cookie !== undefined) event.res.headers.set('set-cookie', cookie);
  return '';
}

/** The url-encoded form of the request; undefined when it is not one (or is too large). */
export async function readForm(event: H3Event): Promise<URLSearchParams | undefined> {
  const type = (header(event, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  try {
    return new URLSearchParams(new TextDecoder().decode(await readLimited(event, FORM_LIMIT)));
  } catch {
    return undefined;
  }
}

/** Whether the POST came from the dashboard's own origin. */
export const fromOwnOrigin = (req: DashRequest) =>
  sameOrigin(req.event, req.d.source.publicRoot() ?? req.event.url.href);

/** Whether a signed-in form may act: its own origin, and the session's CSRF token in `_csrf`. */
export function formAllowed(req: DashRequest, form: URLSearchParams | undefined): boolean {
  return fromOwnOrigin(req) && form !== undefined && csrfValid(req, form.get('_csrf') ?? undefined);
}
