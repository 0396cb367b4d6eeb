// Which page a request is for, and whether it may see it: a payment created through a link endpoint (a fixed
// link's page answers to anyone with its URL; a flexible link's only with its k credential, spec §4.3 rule 1), or
// a flexible link still waiting for the payer's amount (k required). Anything else is not found. Also the page's
// own URLs: every link and form of the page goes back to the same operation, with the same k and language.
import type { H3Event } from 'h3';
import type { LinkRecord } from '../../domain/links.js';
import type { AppContext } from '../context.js';
import type { PublicOperation } from '../wire.js';
import { header } from '../http/headers.js';
import { negotiate, type Lang } from './i18n.js';
import { sameCredential } from './security.js';

/** One request of the page: the operation it is about, the credential it came with, its language. */
export interface PageRequest {
  id: string;
  /** The k credential, when the page needs one and it was right. */
  k: string | undefined;
  lang: Lang;
  /** Whether the language was asked for (`?lang=`, the switch): then every URL of the page keeps it. */
  langAsked: boolean;
  /** The public base of the page routes ({payment_page_url}): every URL the page gives is built from it. */
  base: string;
}

export type PageTarget = { kind: 'payment'; op: PublicOperation } | { kind: 'link'; link: LinkRecord };

export function pageRequest(event: H3Event, ctx: AppContext): PageRequest {
  const id = (event.context.params?.id ?? '').toLowerCase();
  const asked = event.url.searchParams.get('lang');
  const lang = negotiate(asked, header(event, 'accept-language'));
  return { id, k: undefined, lang, langAsked: asked === lang, base: ctx.urls.paymentPage };
}

/** The k presented, if it is the credential of this id. */
function credential(event: H3Event, ctx: AppContext, id: string): string | undefined {
  const k = event.url.searchParams.get('k') ?? '';
  return k !== '' && sameCredential(k, ctx.service.linkCredential(id)) ? k : undefined;
}

/** The page's target, or undefined (404): the request is then told nothing about whether the id exists. */
export function findTarget(event: H3Event, ctx: AppContext, req: PageRequest): PageTarget | undefined {
  const { service } = ctx;
  const op = service.state.operation(req.id);
  if (op) {
    if (op.status === 'admitting' || op.type !== 'payment') return undefined;
    if (!service.world.shops.get(op.shop_id)?.hosted_page) return undefined;
    // Only payments created through a link endpoint have a page: the id of any other is derivable, not a secret.
    if (!op.flexible_link && !op.hosted_link) return undefined;
    if (op.flexible_link) {
      req.k = credential(event, ctx, req.id);
      if (req.k === undefined) return undefined;
    }
    return { kind: 'payment', op };
  }
  const link = service.state.link(req.id);
  if (!link || !service.world.shops.get(link.shop_id)?.hosted_page) return undefined;
  req.k = credential(event, ctx, req.id);
  return req.k === undefined ? undefined : { kind: 'link', link };
}

/**
 * The page's own URL (`suffix`: '', '/receipt', '/amount', '/events'), with its k, and its language when one was
 * asked for (`lang`: the switch's links); otherwise each request negotiates it from Accept-Language again.
 */
export function pageHref(req: PageRequest, suffix = '', lang?: Lang): string {
  const q = new URLSearchParams();
  if (req.k !== undefined) q.set('k', req.k);
  if (lang !== undefined || req.langAsked) q.set('lang', lang ?? req.lang);
  const query = q.toString();
  return `${req.base}/${encodeURIComponent(req.id)}${suffix}${query ? `?${query}` : ''}`;
}
