// The page as a document: the card of the current state (rendered once here, for the first answer and for every
// live update alike), the head with the sandbox's own stylesheet and script (no inline script; the script's texts
// travel as a JSON data block), the language switch, and the fallbacks without script — a meta refresh while the
// payer only waits, a "check again" link always.
import { createHash } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import type { AppContext } from '../context.js';
import { pageHref, type PageRequest, type PageTarget } from './access.js';
import { ASSET_PATHS } from './assets.js';
import { esc, LANGS, t, type Lang } from './i18n.js';
import { MESSAGES, SCRIPT_MESSAGES } from './messages.js';
import { endedLinkCard, paymentCard, type Notice } from './payment-view.js';
import { pickerCard, pickerOffer } from './picker-view.js';
import { FINAL_STATES, viewOf, type PageState } from './state.js';

export interface Card {
  state: PageState;
  final: boolean;
  /** The document title for this state. */
  title: string;
  /** Inner HTML of the page's <main>. */
  html: string;
  /** A short hash of `html`: the script's polling swaps the card only when it changed. */
  version: string;
}

/** What a refused form asks the card to show: the message, and the amount the payer tried (picker). */
export interface CardNotice {
  notice?: Notice | undefined;
  tried?: Decimal | undefined;
}

/** Seconds between refreshes of a page without script, for the states where the payer only waits. */
const REFRESH_S: Partial<Record<PageState, number>> = { waiting: 15, review: 30 };

export function renderCard(target: PageTarget, ctx: AppContext, req: PageRequest, extra: CardNotice = {}): Card {
  const { service } = ctx;
  const now = service.clock.now();
  const view = viewOf(target, now);
  const shopId = target.kind === 'payment' ? target.op.shop_id : target.link.shop_id;
  const shop = service.world.shops.get(shopId)!;
  let inner: string;
  if (target.kind === 'payment') inner = paymentCard(target.op, view, ctx, req, extra.notice);
  else if (view.state === 'choose') {
    const offer = pickerOffer(service.ctx(), target.link, extra.tried);
    inner = pickerCard(target.link, offer, shop.flexible_link_picker, req, extra.notice, extra.tried);
  } else inner = endedLinkCard(view, req.lang);
  const title = t(req.lang, 'doc.title', { shop: shop.name, state: MESSAGES[req.lang][`state.${view.state}`] });
  const html = `<div class="card"><p class="shop">${esc(shop.name)}</p>${inner}</div>`;
  const version = createHash('sha256').update(html).digest('base64url').slice(0, 12);
  return { state: view.state, final: FINAL_STATES.has(view.state), title, html, version };
}

function languageSwitch(req: PageRequest): string {
  const names: Record<Lang, string> = { ru: 'Русский', en: 'English' };
  const links = LANGS.map((l) =>
    l === req.lang
      ? `<a href="${esc(pageHref(req, '', l))}" lang="${l}" hreflang="${l}" aria-current="true">${names[l]}</a>`
      : `<a href="${esc(pageHref(req, '', l))}" lang="${l}" hreflang="${l}">${names[l]}</a>`,
  );
  return `<nav class="langs" aria-label="${t(req.lang, 'footer.language')}">${links.join('')}</nav>`;
}

/** The texts the script shows (upload checks, progress, copy, countdown), as a JSON data block (never executed). */
function scriptTexts(lang: Lang): string {
  const texts = Object.fromEntries(SCRIPT_MESSAGES.map((k) => [k, MESSAGES[lang][k]]));
  return JSON.stringify(texts).replace(/</g, '\\u003c');
}

export function renderDocument(card: Card, ctx: AppContext, req: PageRequest): string {
  const { lang } = req;
  const refresh = REFRESH_S[card.state];
  const noscript = refresh ? `<noscript><meta http-equiv="refresh" content="${refresh}"></noscript>` : '';
  const clock = ctx.service.clock;
  const live = card.final ? '' : ` data-events="${esc(pageHref(req, '/events'))}"`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${card.title}</title><meta name="robots" content="noindex,nofollow"><link rel="icon" href="data:,">
<link rel="stylesheet" href="${esc(req.base + ASSET_PATHS.css)}"><script src="${esc(req.base + ASSET_PATHS.js)}" defer></script>${noscript}
</head><body>
<main id="pg-main" data-state="${card.state}" data-final="${card.final}" data-version="${card.version}" data-page="${esc(pageHref(req))}" data-now="${clock.now()}" data-frozen="${clock.frozen}"${live}>
${card.html}
</main>
<footer class="footer"><p class="live" data-live hidden>${t(lang, 'footer.live')}</p><p>${t(lang, 'footer.payment_id')}: <span class="mono">${esc(req.id)}</span></p><p><a href="${esc(pageHref(req))}" data-check-again>${t(lang, 'footer.check_again')}</a></p>${languageSwitch(req)}<p class="sandbox">${t(lang, 'footer.sandbox')}</p></footer>
<p id="pg-announce" class="vh" aria-live="polite"></p>
<script type="application/json" id="pg-text">${scriptTexts(lang)}</script>
</body></html>`;
}

/** The not-found page: the same look, nothing about whether the id exists. */
export function notFoundDocument(req: PageRequest): string {
  const { lang } = req;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${t(lang, 'notfound.title')}</title><meta name="robots" content="noindex,nofollow"><link rel="icon" href="data:,"><link rel="stylesheet" href="${esc(req.base + ASSET_PATHS.css)}">
</head><body><main id="pg-main" data-state="not_found"><div class="card"><h1 class="state bad">${t(lang, 'notfound.title')}</h1><p class="lead">${t(lang, 'notfound.text')}</p></div></main></body></html>`;
}
