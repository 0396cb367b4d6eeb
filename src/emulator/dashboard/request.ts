// One request of the dashboard as its pages see it: the app's context and sessions, the session of the cookie (if
// live), the language, and the dashboard's own base path (under a workspace `/w/<id>/dashboard`, behind a proxy its
// public path prefix too). Every URL the dashboard gives is built from that base; the cookie's Path is that base.
import type { H3Event } from 'h3';
import { header } from '../http/headers.js';
import { negotiate, type Lang } from '../pages/i18n.js';
import { sameSecret, sessionIdOf, type Session, type Sessions } from './session.js';
import type { DashSource } from './source.js';

/** What the dashboard's routes share in one app: where it reads from (the sandbox or the proxy) and its sessions. */
export interface Dashboard {
  readonly source: DashSource;
  readonly sessions: Sessions;
}

/** A page of a signed-in session: its HTML answer (or a Response: a stream). */
export type PageHandler = (req: DashRequest) => unknown;

export interface DashRequest {
  readonly event: H3Event;
  readonly d: Dashboard;
  /** The live session of the request's cookie, its credential still valid. */
  readonly session: Session | undefined;
  readonly lang: Lang;
  /** The dashboard's base path, e.g. `/dashboard` or `/w/ws_1/dashboard`. */
  readonly base: string;
  /** The shop the session is limited to; undefined for the admin (every shop). */
  readonly shop: string | undefined;
}

/** The dashboard's base path for the app's public URL (its path prefix kept). */
export function dashboardBase(d: Dashboard): string {
  const root = d.source.publicRoot();
  return `${root === undefined ? '' : new URL(root).pathname.replace(/\/+$/, '')}/dashboard`;
}

/** Whether the public URL (else the request's own) is https (the cookie is then Secure). */
export const secureSite = (req: DashRequest) => (req.d.source.publicRoot() ?? req.event.url.href).startsWith('https:');

/** The session of the cookie, if it is live and its shop key still valid. */
function liveSession(event: H3Event, d: Dashboard): Session | undefined {
  const s = d.sessions.get(sessionIdOf(header(event, 'cookie'), d.source.cookie));
  if (!s || s.scope.kind === 'admin') return s;
  if (d.source.shopOfKey(s.key ?? '') === s.scope.shopId) return s;
  d.sessions.close(s.id);
  return undefined;
}

export function dashRequest(event: H3Event, d: Dashboard): DashRequest {
  const session = liveSession(event, d);
  const asked = event.url.searchParams.get('lang');
  const lang = negotiate(asked ?? session?.lang ?? null, header(event, 'accept-language'));
  if (session && (asked === 'ru' || asked === 'en')) session.lang = asked;
  const shop = session?.scope.kind === 'shop' ? session.scope.shopId : undefined;
  return { event, d, session, lang, base: dashboardBase(d), shop };
}

/** Whether a form's `_csrf` is the session's token. */
export function csrfValid(req: DashRequest, given: string | undefined): boolean {
  return req.session !== undefined && given !== undefined && sameSecret(given, req.session.csrf);
}
