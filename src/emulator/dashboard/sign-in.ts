// Signing in and out. The sign-in form has one password field taking the admin token (every shop) or a shop's
// API key (that shop only); it is POSTed (never in a URL), checked in constant time, and answered with a new
// random session id in the cookie — the credential itself stays on the server, is never echoed into the page
// (a wrong one comes back as an empty field) and never logged (the request log keeps no body or header).
import type { H3Event } from 'h3';
import { esc } from '../pages/i18n.js';
import { answer, formAllowed, fromOwnOrigin, readForm, seeOther } from './forms.js';
import { DASH_MESSAGES, dt, type DashKey } from './messages.js';
import { dashRequest, secureSite, type Dashboard, type DashRequest } from './request.js';
import { sessionCookie, type Scope } from './session.js';

/** The status of each refusal of the sign-in form. */
const SIGN_IN_STATUS = { empty: 400, wrong: 401, origin: 403 } as const;

/** Where to go after signing in: a path under the dashboard only (never another site). */
function nextOf(req: DashRequest, asked: string | null): string {
  const fallback = `${req.base}/operations`;
  if (!asked || !asked.startsWith(`${req.base}/`) || /[\\\s]|\/\/|\/\.\.?(\/|\?|$)/.test(asked)) return fallback;
  return asked.startsWith(`${req.base}/sign-`) ? fallback : asked;
}

function signInPage(req: DashRequest, status: number, notice?: DashKey, next?: string): string {
  const { lang } = req;
  const { labels } = req.d.source;
  if (notice === 'signin.wrong') notice = labels.signInWrong;
  const n = notice
    ? `<p class="notice${notice === 'signin.out' ? ' ok' : ''}" role="${status >= 400 ? 'alert' : 'status'}">${dt(lang, notice)}</p>`
    : '';
  const nextField = next ? `<input type="hidden" name="next" value="${esc(next)}">` : '';
  const main = `<div class="panel narrow"><h1>${dt(lang, 'signin.title')}</h1>${n}<p>${dt(lang, labels.signInLead)}</p>
<form method="post" action="${esc(`${req.base}/sign-in`)}" autocomplete="off">${nextField}
<div class="field"><label for="credential">${dt(lang, labels.signInLabel)}</label>
<input id="credential" name="credential" type="password" required autocomplete="current-password" spellcheck="false" autocapitalize="off"></div>
<button type="submit">${dt(lang, 'signin.button')}</button></form></div>`;
  return answer(req, status, { title: DASH_MESSAGES[lang]['signin.title'], main });
}

/** GET <dashboard>/sign-in (a signed-in session goes on to the operations). */
export function showSignIn(event: H3Event, d: Dashboard): string {
  const req = dashRequest(event, d);
  const q = event.url.searchParams;
  if (req.session) return seeOther(event, nextOf(req, q.get('next')));
  const notice = q.has('out') ? 'signin.out' : q.has('expired') ? 'signin.expired' : undefined;
  return signInPage(req, 200, notice, q.get('next') ?? undefined);
}

/** Who the credential is: the admin, a shop (its key), or nobody. */
function scopeOf(d: Dashboard, credential: string): Scope | undefined {
  if (d.source.isAdmin(credential)) return { kind: 'admin' };
  const shopId = d.source.shopOfKey(credential);
  return shopId !== undefined ? { kind: 'shop', shopId } : undefined;
}

/** POST <dashboard>/sign-in: a new session for a right credential. */
export async function signIn(event: H3Event, d: Dashboard): Promise<string> {
  const req = dashRequest(event, d);
  const form = await readForm(event);
  const next = form?.get('next') ?? undefined;
  if (!fromOwnOrigin(req)) return signInPage(req, SIGN_IN_STATUS.origin, 'csrf.refused');
  const credential = (form?.get('credential') ?? '').trim();
  if (credential === '') return signInPage(req, SIGN_IN_STATUS.empty, 'signin.empty', next);
  const scope = scopeOf(d, credential);
  if (!scope) return signInPage(req, SIGN_IN_STATUS.wrong, 'signin.wrong', next);
  if (req.session) d.sessions.close(req.session.id);
  const session = d.sessions.open(scope, scope.kind === 'shop' ? credential : undefined, req.lang);
  if (scope.kind === 'shop') event.context.shopId = scope.shopId;
  return seeOther(
    event,
    nextOf(req, next ?? null),
    sessionCookie(session.id, req.base, secureSite(req), d.source.cookie),
  );
}

/** POST <dashboard>/sign-out: the session ends (with its CSRF token: no other site can sign you out). */
export async function signOut(event: H3Event, d: Dashboard): Promise<string> {
  const req = dashRequest(event, d);
  if (!req.session) return seeOther(event, `${req.base}/sign-in`);
  if (!formAllowed(req, await readForm(event))) return refused(req);
  d.sessions.close(req.session.id);
  return seeOther(
    event,
    `${req.base}/sign-in?out=1`,
    sessionCookie(undefined, req.base, secureSite(req), d.source.cookie),
  );
}

/** A signed-in form refused (another origin, no or a wrong CSRF token): 403, nothing done. */
export function refused(req: DashRequest): string {
  req.event.context.errorCode = 'csrf_refused';
  const main = `<div class="panel"><h1>${dt(req.lang, 'refused.title')}</h1><p class="notice" role="alert">${dt(req.lang, 'csrf.refused')}</p><p><a href="${esc(`${req.base}/operations`)}">${dt(req.lang, 'back.operations')}</a></p></div>`;
  return answer(req, SIGN_IN_STATUS.origin, { title: DASH_MESSAGES[req.lang]['refused.title'], main });
}
