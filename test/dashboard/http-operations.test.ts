// The Operations page and an operation's page over HTTP, no browser: the listing's rows, filters, paging and a
// shop key's scope; an operation's fields, timeline, state diagram (the path taken highlighted), receipts,
// postings, webhook deliveries and faults; every action button the state table allows, its effect through the
// same controls as the CLI, a refusal, and the CSRF refusal of an action; the live feed (the operations stream).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { KEY_A, KEY_B, paymentBody, payoutBody } from '../helpers/harness.js';
import { useSandbox, type SandboxUnderTest } from '../helpers/sandbox.js';
import { deadPort } from '../helpers/transport.js';
import { ADMIN_TOKEN, expectSafeHeaders, get, postForm, signIn, type Signed } from './helpers.js';

type Create = Parameters<SandboxUnderTest['client']['payments']['create']>[0];
const pay = (over: Record<string, unknown> = {}) => paymentBody(over) as Create;
const T0 = '2026-07-01T10:00:00.000Z';
const receipt = (name: string) => fileURLToPath(new URL(`../../fixtures/receipts/${name}`, import.meta.url));
const rowIds = (html: string) => [...html.matchAll(/<tr data-row="([^"]+)"/g)].map((m) => m[1]!);
/** The buttons of the Actions panel (not the Redeliver buttons of the webhooks). */
const actionButtons = (html: string) => {
  const panel = html.slice(html.indexOf('id="h-actions"')).split('</section>')[0]!;
  return [...panel.matchAll(/data-action="(\w+)"/g)].map((m) => m[1]);
};

describe('dashboard operations over HTTP', () => {
  let port = 0;
  beforeAll(async () => {
    port = await deadPort();
  });
  const h = useSandbox(() => ({
    adminToken: ADMIN_TOKEN,
    frozenClock: true,
    startTime: T0,
    webhookUrl: `http://127.0.0.1:${port}/hooks`,
  }));
  const act = (s: Signed, id: string, fields: Record<string, string>) =>
    postForm(h, `/dashboard/operations/${id}`, { _csrf: s.csrf, ...fields }, { cookie: s.cookie });

  it('the list: every column, newest first, the filters, a shop key sees only its shop', async () => {
    const a1 = await h.client.payments.create(pay({ merchant_operation_id: 'dash-a1', amount: '100.00' }));
    const b = h.make({ apiKey: KEY_B });
    const b1 = await b.payments.create(pay({ merchant_operation_id: 'dash-b1', amount: '2500.00' }));
    const a2 = await h.client.payments.create(pay({ merchant_operation_id: 'dash-a2', amount: '700.00' }));
    const admin = await signIn(h, ADMIN_TOKEN);
    const page = await get(h, '/dashboard/operations', admin);
    expect(page.status).toBe(200);
    expectSafeHeaders(page);
    expect(rowIds(page.text)).toEqual([a2.operation_id, b1.operation_id, a1.operation_id]);
    const row = page.text.slice(page.text.indexOf(`<tr data-row="${b1.operation_id}"`)).split('</tr>')[0]!;
    for (const cell of ['dash-b1', 'shop_b', 'payment', 'WT_RUB_C2C', 'pending', '2,500.00', '2026', 'UTC'])
      expect(row).toContain(cell);
    expect(page.text).toContain(`data-live="/dashboard/events"`);

    const filtered = async (q: string, s = admin) => rowIds((await get(h, `/dashboard/operations?${q}`, s)).text);
    expect(await filtered('shop=shop_a')).toEqual([a2.operation_id, a1.operation_id]);
    expect(await filtered('merchant_operation_id=dash-b1')).toEqual([b1.operation_id]);
    expect(await filtered('min_amount=500&max_amount=1000')).toEqual([a2.operation_id]);
    expect(await filtered('status=completed')).toEqual([]);
    expect(await filtered('type=payout')).toEqual([]);
    expect(await filtered('method=WT_RUB_C2C&client_id=client-1')).toHaveLength(3);
    expect(await filtered('since=2026-07-02')).toEqual([]);
    const bad = await get(h, '/dashboard/operations?min_amount=lots', admin);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('role="alert"');
    // The live feed carries the page's filters.
    expect((await get(h, '/dashboard/operations?status=pending&shop=shop_a', admin)).text).toContain(
      'data-live="/dashboard/events?status=pending&#38;shop=shop_a"',
    );

    const shopA = await signIn(h, KEY_A);
    expect(await filtered('', shopA)).toEqual([a2.operation_id, a1.operation_id]);
    // shop= of another shop is ignored for a key: still its own only.
    expect(await filtered('shop=shop_b', shopA)).toEqual([a2.operation_id, a1.operation_id]);
    expect((await get(h, `/dashboard/operations/${b1.operation_id}`, shopA)).status).toBe(404);
    expect((await act(shopA, b1.operation_id, { action: 'cancel' })).status).toBe(404);
    expect((await b.sandbox.operations.details({ operation_id: b1.operation_id })).operation.status).toBe('pending');
  });

  it('pages of 50, newest first, with a link to the older ones', async () => {
    for (let i = 0; i < 52; i++) await h.client.payments.create(pay({ merchant_operation_id: `page-${i}` }));
    const s = await signIn(h, KEY_A);
    const first = await get(h, '/dashboard/operations', s);
    expect(rowIds(first.text)).toHaveLength(50);
    expect(first.text).toContain('52 match.');
    const older = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await get(h, older, s);
    expect(rowIds(second.text)).toHaveLength(2);
    expect(second.text).toContain('page-0');
    expect(second.text).not.toContain('rel="next"');
  });

  it('a completed payment: fields, timeline, the diagram with its path highlighted, postings, webhooks, redeliver', async () => {
    const op = await h.client.payments.create(pay({ merchant_operation_id: 'dash-done' }));
    const s = await signIn(h, ADMIN_TOKEN);
    const before = await get(h, `/dashboard/operations/${op.operation_id}`, s);
    expect(before.status).toBe(200);
    expect(before.text).toContain(`data-live="/dashboard/events?id=${op.operation_id}"`);
    const buttons = actionButtons;
    expect(buttons(before.text)).toEqual(['pay', 'pay_other', 'cancel']);

    const paid = await act(s, op.operation_id, { action: 'pay' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/dashboard/operations/${op.operation_id}?done=pay`);
    await h.sandbox.webhooks.idle();
    const page = await get(h, paid.headers.get('location')!, s);
    expect(page.text).toContain('Done: Pay the expected amount.');
    // Its fields as the gateway returns them.
    expect(page.text).toMatch(/data-field="status"><span class="mono">completed</);
    expect(page.text).toMatch(/data-field="actual_amount"><span class="mono">1500.00</);
    expect(page.text).toMatch(/data-field="merchant_operation_id"><span class="mono">dash-done</);
    // The timeline, with causes.
    expect([...page.text.matchAll(/<li data-move="([^"]*)"/g)].map((m) => m[1])).toEqual([
      ':pending',
      'pending:completed',
    ]);
    // The diagram, in both layouts (wide for a desktop, tall for a phone): the edge it took and the statuses it
    // was in are highlighted, no other.
    for (const o of ['wide', 'tall']) {
      const svg = page.text.slice(page.text.indexOf(`<svg class="diagram ${o}"`)).split('</svg>')[0]!;
      expect([...svg.matchAll(/class="edge on" data-edge="([^"]+)"/g)].map((m) => m[1])).toEqual(['pending:completed']);
      expect([...svg.matchAll(/class="node on( now)?" data-status="(\w+)"/g)].map((m) => m[2])).toEqual([
        'pending',
        'completed',
      ]);
      expect(svg).toContain('class="node on now" data-status="completed"');
      expect(svg).toContain(`<desc id="${o}-dg-desc">pending → completed</desc>`);
    }
    // No action is left; it is terminal, so the page no longer listens.
    expect(buttons(page.text)).toEqual([]);
    expect(page.text).toContain('No action applies in this status.');
    expect(page.text).not.toContain('data-live=');
    expect(page.text).toContain('payment_settled');
    expect(page.text).toContain('operation.completed');
    // Webhooks: the failed attempt to the dead port, and redeliver adds one.
    const attempts = (html: string) => (html.match(/<td data-label="Response">/g) ?? []).length;
    const n = attempts(page.text);
    expect(n).toBeGreaterThan(0);
    const eventId = /name="event_id" value="([^"]+)"/.exec(page.text)![1]!;
    const again = await act(s, op.operation_id, { action: 'redeliver', event_id: eventId });
    expect(again.status).toBe(303);
    await h.sandbox.webhooks.idle();
    expect(attempts((await get(h, `/dashboard/operations/${op.operation_id}`, s)).text)).toBe(n + 1);
  });

  it('pay another amount, cancel, settle a payout, approve and decline a review — and a refusal', async () => {
    const s = await signIn(h, KEY_A);
    const buttons = async (id: string) => actionButtons((await get(h, `/dashboard/operations/${id}`, s)).text);
    const status = async (id: string) => (await h.client.sandbox.operations.details({ operation_id: id })).operation;

    const other = await h.client.payments.create(pay());
    expect((await act(s, other.operation_id, { action: 'pay_other', amount: '1400.00' })).status).toBe(303);
    expect(await status(other.operation_id)).toMatchObject({ status: 'completed', actual_amount: '1400.00' });

    const cancel = await h.client.payments.create(pay());
    expect((await act(s, cancel.operation_id, { action: 'cancel' })).status).toBe(303);
    expect((await status(cancel.operation_id)).status).toBe('cancelled');

    for (const outcome of ['completed', 'failed'] as const) {
      const payout = await h.client.payouts.create(payoutBody() as never);
      expect(await buttons(payout.operation_id)).toEqual(['settle_completed', 'settle_failed']);
      expect((await act(s, payout.operation_id, { action: `settle_${outcome}` })).status).toBe(303);
      expect((await status(payout.operation_id)).status).toBe(outcome === 'completed' ? 'completed' : 'rejected');
    }

    for (const decision of ['approve', 'decline'] as const) {
      const phone = await h.client.payments.create(pay({ method: 'WT_RUB_PHONE' }));
      await h.client.payments.confirm({ operation_id: phone.operation_id, receipt: receipt('mismatch-1499.pdf') });
      expect(await buttons(phone.operation_id)).toEqual(['approve', 'decline']);
      expect((await act(s, phone.operation_id, { action: decision })).status).toBe(303);
      expect((await status(phone.operation_id)).status).toBe(decision === 'approve' ? 'completed' : 'rejected');
    }

    // A refusal of the control comes back on the page, with its status and message; nothing changed.
    const refused = await h.client.payments.create(pay());
    const r = await act(s, refused.operation_id, { action: 'pay_other', amount: '-5' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('role="alert"');
    expect(r.text).toContain('validation_error');
    expect((await status(refused.operation_id)).status).toBe('pending');
  });

  it('an action without the CSRF token, or from another site, is refused and does nothing', async () => {
    const op = await h.client.payments.create(pay());
    const s = await signIn(h, ADMIN_TOKEN);
    const path = `/dashboard/operations/${op.operation_id}`;
    expect((await postForm(h, path, { action: 'pay' }, { cookie: s.cookie })).status).toBe(403);
    expect((await postForm(h, path, { action: 'pay', _csrf: 'nope' }, { cookie: s.cookie })).status).toBe(403);
    const cross = await postForm(
      h,
      path,
      { action: 'pay', _csrf: s.csrf },
      { cookie: s.cookie, 'sec-fetch-site': 'cross-site' },
    );
    expect(cross.status).toBe(403);
    // Another session's token is not this one's.
    const other = await signIn(h, ADMIN_TOKEN);
    expect((await postForm(h, path, { action: 'pay', _csrf: other.csrf }, { cookie: s.cookie })).status).toBe(403);
    // Without a session at all: 401.
    expect((await postForm(h, path, { action: 'pay', _csrf: s.csrf })).status).toBe(401);
    expect((await h.client.sandbox.operations.details({ operation_id: op.operation_id })).operation.status).toBe(
      'pending',
    );
  });
});
