// How the dashboard shows gateway values: money exactly (the wire's decimal string through Intl, never a float), a
// sandbox moment in UTC with seconds (inside <time datetime>), a status with its colour class (and its own word:
// never colour alone), and an operation's link.
import { esc, formatMoney, type Lang } from '../pages/i18n.js';
import type { DashRequest } from './request.js';

export const money = (lang: Lang, amount: string, currency: string) => esc(formatMoney(lang, amount, currency));

const timeFormats = new Map<Lang, Intl.DateTimeFormat>();

/** `2026-07-01T10:00:00.000Z` → `1 Jul 2026, 10:00:00 UTC`, in a <time> element. */
export function moment(lang: Lang, iso: string | number): string {
  let f = timeFormats.get(lang);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
    timeFormats.set(lang, f);
  }
  const d = new Date(iso);
  return `<time datetime="${d.toISOString()}">${esc(f.format(d))} UTC</time>`;
}

export const statusBadge = (status: string) => `<span class="status s-${esc(status)}">${esc(status)}</span>`;

/** The dashboard's page of an operation. */
export const operationHref = (req: DashRequest, id: string) => `${req.base}/operations/${encodeURIComponent(id)}`;
