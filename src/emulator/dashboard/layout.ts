// The dashboard's document: the head (its own stylesheet and script from the sandbox, no inline script: the
// script's settings travel as data attributes), a skip link, the header with the navigation to every section the
// session may see, who is signed in and the sign-out form (POST with the session's CSRF token), the language
// switch, and the page's <main>. The same look for the sign-in page, without navigation.
import { esc, LANGS, type Lang } from '../pages/i18n.js';
import { DASH_ASSETS } from './assets.js';
import { dt } from './messages.js';
import type { DashRequest } from './request.js';
import type { SectionId } from './sections.js';

export interface DashPage {
  /** The document title (text, escaped here). */
  title: string;
  /** The inner HTML of <main>. */
  main: string;
  /** The section the navigation marks as current. */
  section?: SectionId | undefined;
  /** Where the page's live updates come from (an SSE URL under the base); none for a page that does not change. */
  live?: string | undefined;
  /** The live URL follows one operation: the script stops listening once it is terminal. */
  liveOne?: boolean | undefined;
}

const LANG_NAMES: Record<Lang, string> = { ru: 'Русский', en: 'English' };

/** The request's own path and query with `lang` set (the switch's links). */
function withLang(req: DashRequest, lang: Lang): string {
  const url = req.event.url;
  const q = new URLSearchParams(url.search);
  q.set('lang', lang);
  return `${req.base}${url.pathname.slice('/dashboard'.length)}?${q.toString()}`;
}

function languageSwitch(req: DashRequest): string {
  const links = LANGS.map((l) => {
    const current = l === req.lang ? ' aria-current="true"' : '';
    return `<a href="${esc(withLang(req, l))}" lang="${l}" hreflang="${l}"${current}>${LANG_NAMES[l]}</a>`;
  });
  return `<nav class="langs" aria-label="${dt(req.lang, 'nav.language')}">${links.join('')}</nav>`;
}

/** The hidden CSRF field of a state-changing form of the session. */
export function csrfField(req: DashRequest): string {
  return req.session ? `<input type="hidden" name="_csrf" value="${esc(req.session.csrf)}">` : '';
}

function navigation(req: DashRequest, current: SectionId | undefined): string {
  const items = req.d.source.sections
    .filter((s) => !s.adminOnly || req.shop === undefined)
    .map((s) => {
      const mark = s.id === current ? ' aria-current="page"' : '';
      return `<li><a href="${esc(`${req.base}/${s.id}`)}"${mark}>${dt(req.lang, s.label)}</a></li>`;
    });
  return `<nav class="sections" aria-label="${dt(req.lang, 'nav.label')}"><ul>${items.join('')}</ul></nav>`;
}

function who(req: DashRequest): string {
  const text = req.shop === undefined ? dt(req.lang, 'who.admin') : dt(req.lang, 'who.shop', { shop: req.shop });
  const form = `<form method="post" action="${esc(`${req.base}/sign-out`)}" class="signout">${csrfField(req)}<button type="submit">${dt(req.lang, 'signout.button')}</button></form>`;
  return `<div class="who"><p>${text}</p>${form}</div>`;
}

export function renderDashboard(req: DashRequest, page: DashPage): string {
  const { lang } = req;
  const signedIn = req.session !== undefined;
  const live = page.live ? ` data-live="${esc(page.live)}"${page.liveOne ? ' data-live-one' : ''}` : '';
  const header = signedIn
    ? `<header class="top"><p class="brand"><a href="${esc(`${req.base}/operations`)}">${dt(lang, 'app.name')}</a></p>${who(req)}${navigation(req, page.section)}</header>`
    : `<header class="top"><p class="brand">${dt(lang, 'app.name')}</p></header>`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(page.title)} — ${dt(lang, 'app.name')}</title><meta name="robots" content="noindex,nofollow"><link rel="icon" href="data:,">
<link rel="stylesheet" href="${esc(req.base + DASH_ASSETS.css)}"><script src="${esc(req.base + DASH_ASSETS.js)}" defer></script>
</head><body>
<a class="skip" href="#dash-main">${dt(lang, 'nav.skip')}</a>
${header}
<main id="dash-main" tabindex="-1"${live} data-updated="${dt(lang, 'updated')}">
${page.main}
</main>
<footer class="footer"><p class="live-note" data-live-note hidden>${dt(lang, 'live.on')}</p>${languageSwitch(req)}<p>${dt(lang, req.d.source.labels.footer)}</p></footer>
<p id="dash-announce" class="vh" aria-live="polite"></p>
</body></html>`;
}
