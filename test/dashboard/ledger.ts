// Owns what the dashboard's page tests read back: the balance chart's points from its SVG's data attributes, and
// the ledger's postings of a shop read through the API (operations.list, then each operation's postings).
import type { Harness } from '../helpers/harness.js';

export const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];

export type Point = { posting: string; kind: string; at: string; balance: string; reserved: string; minus: string };
/** The balance chart's points of one shop and currency, from the SVG's data attributes. */
export function chartPoints(html: string, shop: string, currency = 'RUB'): Point[] {
  const start = html.indexOf(`data-chart="balance" data-shop="${shop}" data-currency="${currency}"`);
  if (start < 0) return [];
  const fig = html.slice(start, html.indexOf('</figure>', start));
  return [...fig.matchAll(/<circle class="pt"[^>]*>/g)].map(([tag]) => ({
    posting: attr(tag, 'data-posting')!,
    kind: attr(tag, 'data-kind')!,
    at: attr(tag, 'data-at')!,
    balance: attr(tag, 'data-balance')!,
    reserved: attr(tag, 'data-reserved')!,
    minus: attr(tag, 'data-current-minus')!,
  }));
}

export type Posting = {
  id: string;
  currency: string;
  source: string;
  destination: string;
  amount: string;
  kind: string;
};
/** Every posting of the shop's operations, read through the API (operations.list, then operations.show). */
export async function postingsViaApi(h: Harness, key: string): Promise<Map<string, Posting>> {
  const list = await h.call('GET', '/sandbox/operations?limit=200', { key });
  const out = new Map<string, Posting>();
  for (const op of list.body.operations as Array<{ operation_id: string }>) {
    const d = await h.call('GET', `/sandbox/operations/${op.operation_id}`, { key });
    for (const p of d.body.postings as Posting[]) out.set(p.id, p);
  }
  return out;
}
