// The dashboard on `paygate proxy` (issue 28: "it works the same … on the proxy"): at <proxy>/dashboard, signed in
// with the proxy's admin token (a wrong one refused), it shows the proxied traffic — the operations list, an
// operation with its timeline, the violations on it and the diagram of the path seen, the violations, the request
// log, live through the proxy's own streams — and offers no sandbox page, form or control: their addresses are 404.
import { describe, expect, it } from 'vitest';
import type { CallResult } from '../helpers/harness.js';
import { useCleanup } from '../helpers/cleanup.js';
import { expectCleanMarkup, expectSafeHeaders } from './helpers.js';
import { createThrough, driftedPayment, gateway, page, postSignIn, proxied, signInProxy } from './proxy-setup.js';

const defer = useCleanup();

/** The first event of an SSE response, as { event, data }. */
async function firstEvent(res: Response): Promise<{ event: string; data: Record<string, unknown> }> {
  const reader = res.body!.getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended');
    text += new TextDecoder().decode(value);
    for (const block of text.split('\n\n').slice(0, -1)) {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) {
        await reader.cancel();
        return { event, data: JSON.parse(data) as Record<string, unknown> };
      }
    }
  }
}

describe('the dashboard on the proxy', () => {
  it('signs in with the proxy’s admin token only; a wrong token (or a shop key of the upstream) is refused', async () => {
    const p = await proxied(defer);
    const first = await fetch(`${p.url}/dashboard/operations`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toMatch(/^\/dashboard\/sign-in\?next=/);
    const form = await fetch(`${p.url}/dashboard/sign-in`);
    const html = await form.text();
    expect(form.status).toBe(200);
    expectSafeHeaders({ headers: form.headers } as CallResult);
    expectCleanMarkup(html);
    expect(html).toContain('type="password"');
    expect(html).toContain('admin token, printed by paygate proxy');

    for (const wrong of ['pg_proxy_not_it', p.sb.keys.shop_a!]) {
      const r = await postSignIn(p, wrong);
      expect(r.status).toBe(401);
      const text = await r.text();
      expect(text).toContain('That is not the admin token of this proxy.');
      expect(text).not.toContain(wrong);
      expect(r.headers.get('set-cookie')).toBeNull();
    }
    const ok = await postSignIn(p, p.proxy.adminToken);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/dashboard/operations');
    expect(ok.headers.get('set-cookie')).toMatch(
      /^paygate_proxy_dashboard=[\w-]+; Path=\/dashboard; HttpOnly; SameSite=Strict$/,
    );
    expect(ok.headers.get('set-cookie')).not.toContain(p.proxy.adminToken);
    // Nothing of the dashboard reaches the proxy's request log (it logs the traffic it forwards) nor its exchanges.
    expect(p.proxy.exchanges).toHaveLength(0);
    const log = await fetch(`${p.url}/sandbox/logs`, { headers: { 'x-admin-token': p.proxy.adminToken } });
    expect(log.status).toBe(200);
    expect(((await log.json()) as { requests: unknown[] }).requests).toEqual([]);
  });

  it('refuses a sign-in from another site (Sec-Fetch-Site cross-site, or a foreign Origin): 403, no cookie', async () => {
    const p = await proxied(defer);
    const foreign: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'http://evil.example' }];
    for (const headers of foreign) {
      const r = await fetch(`${p.url}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ credential: p.proxy.adminToken }).toString(),
      });
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.headers.get('set-cookie')).toBeNull();
      expect(await r.text()).not.toContain(p.proxy.adminToken);
    }
  });

  it('lists an operation created through the proxy, with the filters and no shop key’s narrower view', async () => {
    const p = await proxied(defer);
    const a = await createThrough(p, 'order-a');
    const b = await createThrough(p, 'order-b');
    const cookie = await signInProxy(p);
    const list = await page(p, cookie, '/operations');
    expect(list.status).toBe(200);
    expectSafeHeaders({ headers: list.res.headers } as CallResult);
    expectCleanMarkup(list.text);
    const rows = [...list.text.matchAll(/<tr data-row="([^"]+)" data-status="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual([
      [b, 'pending'],
      [a, 'pending'],
    ]);
    expect(list.text).toContain('order-a');
    expect(list.text).toContain(`data-live="/dashboard/events"`);
    const filtered = await page(p, cookie, '/operations?merchant_operation_id=order-a');
    expect([...filtered.text.matchAll(/<tr data-row="([^"]+)"/g)].map((m) => m[1])).toEqual([a]);
    const refused = await page(p, cookie, '/operations?min_amount=abc');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('The filters were refused');
  });

  it('pages of 50, newest first, with a link to the older ones', async () => {
    const p = await proxied(defer);
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push(await createThrough(p, `paged-${i}`));
    const cookie = await signInProxy(p);
    const first = await page(p, cookie, '/operations');
    const rowsOf = (html: string) => [...html.matchAll(/<tr data-row="([^"]+)"/g)].map((m) => m[1]);
    expect(first.text).toContain('52 match.');
    expect(rowsOf(first.text)).toHaveLength(50);
    const next = /<a href="\/dashboard([^"]+)" rel="next">/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await page(p, cookie, next);
    expect(new Set([...rowsOf(first.text), ...rowsOf(second.text)])).toEqual(new Set(ids));
    expect(rowsOf(second.text)).toHaveLength(2);
  });

  it('an operation’s page: its fields, the timeline with the violation (rule, section, message), the path seen', async () => {
    const p = await proxied(defer);
    const id = await driftedPayment(p);
    const cookie = await signInProxy(p);
    const op = await page(p, cookie, `/operations/${id}`);
    expect(op.status).toBe(200);
    expectCleanMarkup(op.text);
    expect(op.text).toContain('As the proxy saw it');
    // Live until terminal, on the proxy's stream of this one operation.
    expect(op.text).toContain(`data-live="/dashboard/events?id=${id}" data-live-one`);
    const one = await fetch(`${p.url}/dashboard/events?id=${id}`, { headers: { cookie } });
    expect(await firstEvent(one)).toMatchObject({ event: 'operation', data: { operation_id: id, status: 'pending' } });
    // The timeline: the statuses seen, and the violation with its rule id, spec section and what was wrong.
    expect(op.text).toMatch(/<li data-move=":pending">/);
    expect(op.text).toMatch(/<li data-move="pending:completed">/);
    expect(op.text).toMatch(/<li data-move="completed:pending">/);
    expect(op.text).toMatch(
      /<li class="tl-violation" data-violation>.*⚠ Violation<\/strong> <span>state\.illegal_move \(§[\d.]+, operation\.state, exchange #\d+\): expected /,
    );
    // The violations panel and the diagram with the path seen (pending → completed) highlighted.
    expect(op.text).toMatch(/<section class="panel" aria-labelledby="h-violations">.*data-rule="state\.illegal_move"/s);
    expect(op.text).toContain('<g class="edge on" data-edge="pending:completed">');
    // No action: no button, no form but sign-out; no sandbox-only section.
    expect(op.text).not.toContain('data-action=');
    expect(op.text.match(/<form /g)).toHaveLength(1);
    expect(op.text).not.toContain('h-postings');
    expect(op.text).not.toContain('h-webhooks');
    expect(op.text).not.toContain('h-actions');
  });

  it(
    'an operation read 300 times while drifting: the violations do not push its status moves off the page',
    { timeout: 30_000 },
    async () => {
      const p = await proxied(defer);
      const id = await driftedPayment(p);
      const read = () => gateway(p, '/v1/get_operation_state', { operation_id: id });
      for (let i = 0; i < 30; i++) await Promise.all(Array.from({ length: 10 }, read));
      expect(p.proxy.violationCount).toBeGreaterThan(1000);
      const cookie = await signInProxy(p);
      const op = await page(p, cookie, `/operations/${id}`);
      expect(op.status).toBe(200);
      // Every status move is still on the timeline, in order, and the diagram still shows the path seen.
      expect([...op.text.matchAll(/<li data-move="([^"]*)">/g)].map((m) => m[1])).toEqual([
        ':pending',
        'pending:completed',
        'completed:pending',
      ]);
      expect(op.text).toContain('<g class="edge on" data-edge="pending:completed">');
      // The violations seen on it are there too (the newest 200 the proxy keeps per operation), after the moves.
      expect(op.text.match(/<li class="tl-violation" data-violation>/g)).toHaveLength(200);
      expect(op.text.indexOf('data-move="completed:pending"')).toBeLessThan(op.text.indexOf('data-violation>'));
      // The support view's JSON history keeps them as entries of their own, with the moves.
      const json = await fetch(`${p.url}/sandbox/operations/${id}`, {
        headers: { 'x-admin-token': p.proxy.adminToken },
      });
      const history = ((await json.json()) as { history: { from: string | null; to: string; cause: string }[] })
        .history;
      expect(history.filter((h) => !h.cause.startsWith('violation ')).map((h) => `${h.from ?? ''}:${h.to}`)).toEqual([
        ':pending',
        'pending:completed',
        'completed:pending',
      ]);
      expect(history.filter((h) => h.cause.startsWith('violation '))).toHaveLength(200);
    },
  );

  it('the Violations page: newest first, with the rule, the section and the operation’s link', async () => {
    const p = await proxied(defer);
    const cookie = await signInProxy(p);
    expect((await page(p, cookie, '/violations')).text).toContain('No violation so far');
    const id = await driftedPayment(p);
    const v = await page(p, cookie, '/violations');
    expect(v.status).toBe(200);
    expectCleanMarkup(v.text);
    expect(v.text).toContain('data-rule="state.illegal_move"');
    expect(v.text).toContain(`href="/dashboard/operations/${id}"`);
    expect(p.proxy.violations.length).toBeGreaterThan(0);
    expect(v.text).toContain(`${p.proxy.violations.length} in all`);
  });

  it('offers only Operations, Violations and Requests: the sandbox’s pages and every control answer 404', async () => {
    const p = await proxied(defer);
    const id = await createThrough(p, 'order-n');
    const cookie = await signInProxy(p);
    const list = await page(p, cookie, '/operations');
    const nav = /<nav class="sections"[^>]*>(.*?)<\/nav>/s.exec(list.text)![1]!;
    expect([...nav.matchAll(/href="\/dashboard\/(\w+)"/g)].map((m) => m[1])).toEqual([
      'operations',
      'violations',
      'requests',
    ]);
    expect(list.text).toContain('paygate proxy — what passed through it');
    for (const path of [
      '/balances',
      '/clock',
      '/pool',
      '/webhooks',
      '/workspaces',
      '/nothing',
      `/operations/${id}/x`,
    ]) {
      const r = await page(p, cookie, path);
      expect(r.status, path).toBe(404);
      expect(r.text).toContain('Not found');
    }
    const csrf = /name="_csrf" value="([^"]+)"/.exec(list.text)![1]!;
    for (const [path, fields] of [
      [`/operations/${id}`, { action: 'pay' }],
      ['/clock', { duration: '1h' }],
      ['/webhooks', { event_id: 'x' }],
      ['/workspaces', { action: 'create' }],
    ] as const) {
      const r = await fetch(`${p.url}/dashboard${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ ...fields, _csrf: csrf }).toString(),
      });
      expect(r.status, path).toBe(404);
      // The dashboard's own 404 page, as for a GET (not a JSON error).
      expect(r.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await r.text(), path).toContain('Not found');
    }
    // Nothing was paid: the upstream's operation is still pending.
    const upstream = await fetch(`${p.sb.baseUrl}/sandbox/operations/${id}`, {
      headers: { 'x-admin-token': p.sb.adminToken },
    });
    expect(((await upstream.json()) as { operation: { status: string } }).operation.status).toBe('pending');
  });

  it('is live: the list’s stream sends an operation created through the proxy; Requests shows the proxied calls', async () => {
    const p = await proxied(defer);
    const cookie = await signInProxy(p);
    expect((await fetch(`${p.url}/dashboard/events`)).status).toBe(401);
    const events = await fetch(`${p.url}/dashboard/events`, { headers: { cookie } });
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const next = firstEvent(events);
    const id = await createThrough(p, 'order-live');
    expect(await next).toMatchObject({ event: 'operation', data: { operation_id: id, status: 'pending' } });

    const logs = await fetch(`${p.url}/dashboard/requests/events`, { headers: { cookie } });
    const logged = firstEvent(logs);
    await createThrough(p, 'order-live-2');
    expect(await logged).toMatchObject({ event: 'request', data: { method: 'POST', path: '/v1/payment' } });
    const req = await page(p, cookie, '/requests');
    expect(req.status).toBe(200);
    expectCleanMarkup(req.text);
    expect(req.text).toContain('data-requests-live="/dashboard/requests/events"');
    expect(req.text.match(/<tr data-request=/g)).toHaveLength(2);
    expect(req.text).not.toContain(p.sb.keys.shop_a!);
  });
});
