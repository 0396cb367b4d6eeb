// Owns what the dashboard's tests share: signing in over raw HTTP (the session cookie and CSRF token a browser
// would hold), form posts with the dashboard's own origin, and the checks of its safety headers and markup.
import { expect } from 'vitest';
import type { CallResult, Harness } from '../helpers/harness.js';

export const ADMIN_TOKEN = 'pg_admin_dashboard_test_0001';

export interface Signed {
  /** The Cookie header to send. */
  cookie: string;
  /** The session's CSRF token, read from a page's sign-out form. */
  csrf: string;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** POST a url-encoded form as a browser on the dashboard's own page would (same-origin). */
export function postForm(
  h: Harness,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  return h.call('POST', path, {
    key: null,
    raw: form(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', ...headers },
  });
}

export function get(h: Harness, path: string, s?: Signed, headers: Record<string, string> = {}): Promise<CallResult> {
  return h.call('GET', path, { key: null, headers: { ...(s ? { cookie: s.cookie } : {}), ...headers } });
}

/** Sign in with `credential`; the cookie and the CSRF token of the new session. */
export async function signIn(h: Harness, credential: string, base = '/dashboard'): Promise<Signed> {
  const r = await postForm(h, `${base}/sign-in`, { credential });
  expect(r.status).toBe(303);
  const setCookie = r.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0]!;
  const page = await get(h, `${base}/operations`, { cookie, csrf: '' });
  expect(page.status).toBe(200);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  expect(csrf).not.toBe('');
  return { cookie, csrf };
}

/** The dashboard's safety headers on an HTML answer. */
export function expectSafeHeaders(r: CallResult): void {
  const csp = r.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  expect(r.headers.get('referrer-policy')).toBe('no-referrer');
  expect(r.headers.get('cache-control')).toBe('no-store');
  expect(r.headers.get('x-frame-options')).toBe('DENY');
}

/** No inline script or style, no handler attribute, no address outside the dashboard (or a data: icon). */
export function expectCleanMarkup(html: string, base = '/dashboard'): void {
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/ src="[^"]*\/assets\/dashboard\.js\?v=/);
  expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
  for (const [, url] of html.matchAll(/(?:src|href|action)="([^"]+)"/g))
    expect(url!).toMatch(new RegExp(`^(${base.replace(/\//g, '\\/')}(\\/|\\?|$)|#dash-main$|data:,$)`));
}
