// What the payer is shown, as one of the page's states: derived from the operation (or the flexible link still
// waiting for an amount) and the sandbox time. The payer's words, never the gateway's: manual_check is "under
// review" whatever its reason, every rejection but an expiry is "declined".
import { linkExpiry, type LinkRecord } from '../../domain/links.js';
import { money } from '../../domain/money.js';
import type { PageTarget } from './access.js';

/** Every state of the hosted page, in the order a payer meets them. */
export const PAGE_STATES = [
  'choose',
  'waiting',
  'upload',
  'review',
  'paid',
  'paid_other',
  'declined',
  'expired',
  'cancelled',
] as const;
export type PageState = (typeof PAGE_STATES)[number];

/** States after which nothing changes any more: the live update stops. */
export const FINAL_STATES: ReadonlySet<PageState> = new Set(['paid', 'paid_other', 'declined', 'expired', 'cancelled']);

/** A finer reason inside a state, for its wording (never shown as a code). */
export type StateDetail = 'taken' | 'nothing' | 'link' | undefined;

export interface PageView {
  state: PageState;
  detail: StateDetail;
}

/** Whether a link's time to choose is over at `now` (its timer may not have run yet). */
export function linkExpired(link: LinkRecord, now: number): boolean {
  const expiry = linkExpiry(link);
  return link.status === 'expired' || (expiry !== undefined && Date.parse(expiry) <= now);
}

export function viewOf(target: PageTarget, now: number): PageView {
  if (target.kind === 'link') {
    const { link } = target;
    if (linkExpired(link, now)) return { state: 'expired', detail: 'link' };
    if (link.status === 'rejected') return { state: 'declined', detail: 'nothing' };
    return { state: 'choose', detail: undefined };
  }
  const { op } = target;
  switch (op.status) {
    case 'pending':
      return { state: 'waiting', detail: undefined };
    case 'awaiting_confirmation':
      return { state: 'upload', detail: undefined };
    case 'manual_check':
      return { state: 'review', detail: undefined };
    case 'completed':
      return {
        state: money(op.actual_amount).equals(money(op.expected_amount)) ? 'paid' : 'paid_other',
        detail: undefined,
      };
    case 'cancelled':
      return { state: 'cancelled', detail: undefined };
    case 'rejected':
      if (op.reject_reason === 'expired') return { state: 'expired', detail: undefined };
      return { state: 'declined', detail: op.reject_reason === 'amount_taken' ? 'taken' : undefined };
  }
}
