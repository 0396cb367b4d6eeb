// GET /sandbox/webhooks/deliveries answered every delivery in one page (72 MB). It now answers
// `limit` (default 50, at most 200) newest first, with `has_more` and `next_cursor` for the next page.
import { describe, expect, it } from 'vitest';
import { DELIVERIES_PAGE_DEFAULT, DELIVERIES_PAGE_MAX } from '../../src/contract/sandbox-webhooks.js';
import { KEY_B, paymentBody, type Harness } from '../helpers/harness.js';
import { useCleanup } from '../helpers/cleanup.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { closedPort, startReceiver } from './receiver.js';

const defer = useCleanup();
const open = useSandboxes(defer);

interface Page {
  deliveries: {
    id: string;
    event_id: string;
    event_type: string;
    endpoint_id: string;
    url: string;
    status: string;
    attempts: unknown[];
  }[];
  has_more: boolean;
  next_cursor: string | null;
}

async function list(h: Harness, query = '', key?: string): Promise<Page> {
  const r = await h.call('GET', `/sandbox/webhooks/deliveries${query}`, key ? { key } : {});
  expect(r.status, r.text).toBe(200);
  return r.body as Page;
}

/** A sandbox whose shop A has `endpoints` endpoints at a receiver answering 204, and `creates` payments made. */
async function withDeliveries(endpoints: number, creates: number): Promise<Harness> {
  const rx = await startReceiver(() => ({ status: 204 }));
  defer(() => rx.close());
  const h = await open({ frozenClock: true });
  for (let i = 0; i < endpoints; i++)
    expect((await h.call('POST', '/sandbox/webhooks', { body: { url: `${rx.url}/${i}` } })).status).toBe(201);
  for (let i = 0; i < creates; i++)
    expect((await h.call('POST', '/v1/payment', { body: paymentBody() })).status).toBe(200);
  await h.sandbox.webhooks.idle();
  return h;
}

describe('GET /sandbox/webhooks/deliveries pages', () => {
  it('answers 50 by default, newest first, with has_more and a cursor; the pages together are every delivery once', async () => {
    const h = await withDeliveries(4, 15); // 60 deliveries
    const all = h.sandbox.webhooks.deliveries('shop_a').map((d) => d.id);
    expect(all).toHaveLength(60);
    const first = await list(h);
    expect(first.deliveries).toHaveLength(DELIVERIES_PAGE_DEFAULT);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(first.deliveries.at(-1)!.id);
    const second = await list(h, `?cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(second.deliveries).toHaveLength(10);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.deliveries, ...second.deliveries].map((d) => d.id)).toEqual(all.slice().reverse());
    // Each listed delivery shows what it refers to: the endpoint's URL and the event's type.
    for (const d of first.deliveries) {
      expect(d.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/\d$/);
      expect(d.event_type).toBe('operation.pending');
    }
  });

  it('limit pages through small pages; a filter applies to every page', async () => {
    const h = await withDeliveries(2, 3); // 6 deliveries, 3 events
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await list(h, `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.deliveries.length).toBeLessThanOrEqual(4);
      seen.push(...page.deliveries.map((d) => d.id));
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(
      h.sandbox.webhooks
        .deliveries('shop_a')
        .map((d) => d.id)
        .reverse(),
    );

    const event = h.sandbox.webhooks.deliveries('shop_a')[0]!.event_id;
    const one = await list(h, `?limit=1&event_id=${event}`);
    expect(one.deliveries.map((d) => d.event_id)).toEqual([event]);
    expect(one.has_more).toBe(true);
    const rest = await list(h, `?limit=1&event_id=${event}&cursor=${encodeURIComponent(one.next_cursor!)}`);
    expect(rest.deliveries.map((d) => d.event_id)).toEqual([event]);
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect(await list(h, '?failed=true&limit=1')).toEqual({ deliveries: [], has_more: false, next_cursor: null });
  });

  it(`a limit outside 1…${DELIVERIES_PAGE_MAX}, a cursor not from this shop's list: 400 validation_error`, async () => {
    const h = await withDeliveries(1, 1);
    const own = (await list(h)).deliveries[0]!.id;
    for (const q of ['?limit=0', `?limit=${DELIVERIES_PAGE_MAX + 1}`, '?limit=ten', '?cursor=dlv_nope']) {
      const r = await h.call('GET', `/sandbox/webhooks/deliveries${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body, q).toMatchObject({ code: 'validation_error' });
    }
    // Shop B cannot page from shop A's delivery.
    const other = await h.call('GET', `/sandbox/webhooks/deliveries?cursor=${encodeURIComponent(own)}`, { key: KEY_B });
    expect(other.status).toBe(400);
    expect((other.body as { message: string }).message).toContain('start again without it');
    expect((await list(h, `?limit=${DELIVERIES_PAGE_MAX}`)).deliveries).toHaveLength(1);
  });

  it('a page stays bounded however many deliveries there are', async () => {
    const port = await closedPort();
    const h = await open({ frozenClock: true, webhookUrl: `http://127.0.0.1:${port}/hooks` });
    for (let i = 0; i < DELIVERIES_PAGE_MAX + 5; i++) await h.call('POST', '/v1/payment', { body: paymentBody() });
    await h.sandbox.webhooks.idle();
    const page = await list(h, `?limit=${DELIVERIES_PAGE_MAX}`);
    expect(page.deliveries).toHaveLength(DELIVERIES_PAGE_MAX);
    expect(page.has_more).toBe(true);
  });
});
