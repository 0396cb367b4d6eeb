// The dashboard's routes under /dashboard (a workspace's under /w/<id>/dashboard: the host strips the prefix), built
// once per app with its own sessions. Every page but sign-in needs a live session: without one a page is a 303 to
// sign-in (coming back to it after), a stream or a form a 401. The pages themselves are listed in table.ts.
import type { H3Event } from 'h3';
import type { RouteContext } from '../context.js';
import { dashAsset } from './assets.js';
import { seeOther } from './forms.js';
import { comingPage, notFoundPage } from './frame.js';
import { dashRequest, type Dashboard, type DashRequest, type PageHandler } from './request.js';
import { sectionOf, type SectionId } from './sections.js';
import { sameSecret, Sessions } from './session.js';
import { showSignIn, signIn, signOut } from './sign-in.js';
import { sandboxSource, type DashSource } from './source.js';
import { PAGE_ROUTES, SECTION_PAGES } from './table.js';

export const UNAUTHORIZED = 401;

/** A page's answer with the time the server took to make it (`Server-Timing: app;dur=<ms>`; not on a stream). */
async function timed(event: H3Event, t0: number, answer: unknown): Promise<unknown> {
  const result = await answer;
  if (!(result instanceof Response))
    event.res.headers.set('server-timing', `app;dur=${(performance.now() - t0).toFixed(1)}`);
  return result;
}

/** Run `handler` for a live session; else send the browser to sign in (a GET) or answer 401. */
function signedIn(d: Dashboard, handler: PageHandler) {
  return (event: H3Event) => {
    const t0 = performance.now();
    const req = dashRequest(event, d);
    if (req.session) {
      if (req.shop !== undefined) event.context.shopId = req.shop;
      return timed(event, t0, handler(req));
    }
    event.context.errorCode = 'not_signed_in';
    if (event.req.method === 'GET' && !event.url.pathname.endsWith('/events')) {
      const next = `${req.base}${event.url.pathname.slice('/dashboard'.length)}${event.url.search}`;
      return seeOther(event, `${req.base}/sign-in?${new URLSearchParams({ next }).toString()}`);
    }
    event.res.status = UNAUTHORIZED;
    event.res.headers.set('cache-control', 'no-store');
    return 'sign in first';
  };
}

/** A section's page: 404 for a section this dashboard does not offer. */
const sectionPage = (pages: Partial<Record<SectionId, PageHandler>>) => (req: DashRequest) => {
  const s = sectionOf(req.event.context.params?.section ?? '', req.d.source.sections);
  if (!s || (s.adminOnly && req.shop !== undefined)) return notFoundPage(req);
  return (pages[s.id] ?? ((r: DashRequest) => comingPage(r, s.id)))(req);
};

export type DashRoute = { method: 'GET' | 'POST'; path: string; handler: (event: H3Event) => unknown };

/** The sandbox's dashboard of one app: its sessions, and its routes to mount (paths under the app's root). */
export function createDashboard(ctx: RouteContext) {
  const isAdmin = (credential: string) => (ctx.isAdminToken ?? ((t) => sameSecret(t, ctx.adminToken)))(credential);
  return dashboardOf(sandboxSource(ctx, isAdmin), SECTION_PAGES, PAGE_ROUTES);
}

/**
 * A dashboard reading from `source`: its sessions, and its routes — sign-in and out, the assets, the section
 * `pages`, the signed-in `pageRoutes`; any other path under it (a GET or a POST) is the 404 page.
 */
export function dashboardOf(
  source: DashSource,
  pages: Partial<Record<SectionId, PageHandler>>,
  pageRoutes: ReadonlyArray<{ method: 'GET' | 'POST'; path: string; handler: PageHandler }>,
): { dashboard: Dashboard; routes: DashRoute[] } {
  const d: Dashboard = { source, sessions: new Sessions() };
  const home = (event: H3Event) => {
    const req = dashRequest(event, d);
    return seeOther(event, `${req.base}/${req.session ? 'operations' : 'sign-in'}`);
  };
  const routes: DashRoute[] = [
    { method: 'GET', path: '/dashboard', handler: home },
    { method: 'GET', path: '/dashboard/assets/:file', handler: (e) => dashAsset(e) ?? notFoundPage(dashRequest(e, d)) },
    { method: 'GET', path: '/dashboard/sign-in', handler: (e) => showSignIn(e, d) },
    { method: 'POST', path: '/dashboard/sign-in', handler: (e) => signIn(e, d) },
    { method: 'POST', path: '/dashboard/sign-out', handler: (e) => signOut(e, d) },
    ...pageRoutes.map((r) => ({ method: r.method, path: `/dashboard${r.path}`, handler: signedIn(d, r.handler) })),
    { method: 'GET', path: '/dashboard/:section', handler: signedIn(d, sectionPage(pages)) },
    { method: 'GET', path: '/dashboard/**', handler: (e: H3Event) => notFoundPage(dashRequest(e, d)) },
    { method: 'POST', path: '/dashboard/**', handler: (e: H3Event) => notFoundPage(dashRequest(e, d)) },
  ];
  return { dashboard: d, routes };
}
