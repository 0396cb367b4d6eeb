// The hosted page's safety rules: the headers of every answer it gives (a Content-Security-Policy with no inline
// script and no origin but its own, nosniff, no referrer — the URL may carry the k credential — no caching, no
// framing), the k credential compared in constant time, and the same-origin rule of its forms (a POST another site
// made the browser send is refused; the page keeps no cookie or session, so that is the whole of CSRF here).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { H3Event } from 'h3';
import { header } from '../http/headers.js';

/** Nothing but the sandbox itself: the page works offline, and an injected inline script would not run. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Set the page's safety headers on the answer (`cache`: the assets' own Cache-Control; else no-store). */
export function pageHeaders(event: H3Event, cache = 'no-store'): void {
  for (const [k, v] of Object.entries(PAGE_HEADERS)) event.res.headers.set(k, v);
  event.res.headers.set('cache-control', cache);
}

/** An HTML answer of the page with its headers. */
export function html(event: H3Event, status: number, body: string): string {
  event.res.status = status;
  pageHeaders(event);
  event.res.headers.set('content-type', 'text/html; charset=utf-8');
  event.res.headers.set('vary', 'Accept-Language');
  return body;
}

/** Constant-time comparison of a presented k credential with the expected one. */
export function sameCredential(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether a form POST may be taken: a browser says where it comes from, and only the page's own origin is accepted.
 * Sec-Fetch-Site first (every current browser sends it): it must be same-origin. Without it, the Origin header
 * must be the request's own origin or the public URL's (behind a proxy). Under the page's no-referrer policy a
 * browser sends `Origin: null` with its own form, so that is accepted, as is a client that sends neither header:
 * neither is a browser made to act for another site. (A fixed link's page needs no credential, so anyone may
 * upload to it directly; a flexible link's form carries the k credential in its address.)
 */
export function sameOrigin(event: H3Event, publicPageUrl: string): boolean {
  const site = header(event, 'sec-fetch-site');
  if (site !== null) return site === 'same-origin';
  const origin = header(event, 'origin');
  if (origin === null || origin === 'null') return true;
  return origin === event.url.origin || origin === new URL(publicPageUrl).origin;
}
