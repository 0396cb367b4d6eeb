// POST /pay/:id/amount: the payer confirms an amount on a flexible link's page (spec §4.3 rules 5 and 6).
//
// The amount is first planned without writing (the domain's planConfirm is pure): when the pool can no longer
// take it — another payer claimed it since the page was shown — nothing is created, and the page answers with
// the refreshed amounts to pick again (rule 6). Otherwise the same confirmation is carried out at once, in the same
// turn of the event loop, so the state it was planned on cannot change in between: the payment is created with the
// chosen amount (rule 5) and the page becomes its page. A page confirmation therefore never ends `rejected`; the §3
// row "amount claimed by another payer in the last moment → rejected" is a claim lost after that check (at the
// provider), which the sandbox control links.confirm stands for (the page then shows "declined").
import type { H3Event } from 'h3';
import { DomainError } from '../../domain/errors.js';
import { StoreUnavailableError } from '../../store/errors.js';
import { planConfirm, type LinkRecord } from '../../domain/links.js';
import { money, toScale2 } from '../../domain/money.js';
import type { AppContext } from '../context.js';
import { readLimited } from '../http/body.js';
import { ApiError, STATUS_OF } from '../http/errors.js';
import { findTarget, pageRequest, type PageRequest } from './access.js';
import { answerPage, backToPage, notFoundPage } from './hosted-page.js';
import { formatMoney } from './i18n.js';
import type { CardNotice } from './layout.js';
import { pickerOffer } from './picker-view.js';
import { sameOrigin } from './security.js';
import { viewOf } from './state.js';

/** Largest amount form accepted (bytes): one short field. */
const AMOUNT_FORM_LIMIT = 4096;

/** What the payer typed, as a scale-2 decimal: `1 500`, `1500,5`, `1500.50 ₽` → `1500.50`; undefined if not an amount. */
export function parseAmount(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  const s = raw
    .replace(/[\s\u00a0\u202f₽]/g, '')
    .replace(/^RUB|RUB$/i, '')
    .replace(',', '.');
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(s) || money(s).isZero()) return undefined;
  return toScale2(s);
}

async function readAmount(event: H3Event): Promise<string | null> {
  const bytes = await readLimited(event, AMOUNT_FORM_LIMIT);
  return new URLSearchParams(new TextDecoder().decode(bytes)).get('amount');
}

/** The picker again, saying why the choice was not taken. */
function again(
  event: H3Event,
  ctx: AppContext,
  req: PageRequest,
  link: LinkRecord,
  status: number,
  extra: CardNotice,
): string {
  const now = findTarget(event, ctx, req) ?? { kind: 'link' as const, link };
  return answerPage(event, ctx, req, now, status, extra);
}

/** Plan the confirmation without writing: 'taken' when the pool cannot take the amount any more. */
function dryRun(ctx: AppContext, link: LinkRecord, amount: string): 'ok' | 'taken' {
  const plan = planConfirm(ctx.service.ctx(), link.shop_id, link.id, amount);
  return plan.kind === 'commit' && plan.op.status === 'rejected' ? 'taken' : 'ok';
}

async function confirm(
  event: H3Event,
  ctx: AppContext,
  req: PageRequest,
  link: LinkRecord,
  amount: string,
): Promise<string> {
  const { service } = ctx;
  try {
    if (dryRun(ctx, link, amount) === 'taken') {
      return again(event, ctx, req, link, STATUS_OF.invalid_state, {
        notice: { key: 'pick.taken' },
        tried: money(amount),
      });
    }
    await service.confirmLink(link.shop_id, link.id, amount);
  } catch (e) {
    if (e instanceof StoreUnavailableError)
      return again(event, ctx, req, link, STATUS_OF.store_unavailable, { notice: { key: 'pick.failed' } });
    if (!(e instanceof DomainError)) throw e;
    if (e.code === 'validation_error') {
      const offer = pickerOffer(service.ctx(), link);
      const vars = {
        min: formatMoney(req.lang, toScale2(offer.lo), link.params.currency),
        max: formatMoney(req.lang, toScale2(offer.hi), link.params.currency),
      };
      return again(event, ctx, req, link, STATUS_OF.validation_error, {
        notice: { key: 'pick.out_of_range', vars },
        tried: money(amount),
      });
    }
    // Expired meanwhile (the page then says so), or the write failed.
    const status = e.code === 'invalid_state' ? STATUS_OF.link_expired : STATUS_OF[e.code];
    return again(event, ctx, req, link, status, e.code === 'invalid_state' ? {} : { notice: { key: 'pick.failed' } });
  }
  return backToPage(event, req);
}

export async function choosePageAmount(event: H3Event, ctx: AppContext): Promise<string> {
  const req = pageRequest(event, ctx);
  const target = findTarget(event, ctx, req);
  if (!target) return notFoundPage(event, req);
  // Already chosen: the page is the payment's now.
  if (target.kind === 'payment') return backToPage(event, req);
  const { link } = target;
  if (!sameOrigin(event, ctx.urls.paymentPage))
    return again(event, ctx, req, link, STATUS_OF.cross_site_request, { notice: { key: 'pick.cross_site' } });
  const view = viewOf(target, ctx.service.clock.now());
  if (view.state !== 'choose')
    return again(
      event,
      ctx,
      req,
      link,
      view.state === 'expired' ? STATUS_OF.link_expired : STATUS_OF.invalid_state,
      {},
    );
  let raw: string | null;
  try {
    raw = await readAmount(event);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return again(event, ctx, req, link, e.status, { notice: { key: 'pick.not_a_number' } });
  }
  const amount = parseAmount(raw);
  if (amount === undefined)
    return again(event, ctx, req, link, STATUS_OF.validation_error, { notice: { key: 'pick.not_a_number' } });
  return confirm(event, ctx, req, link, amount);
}
