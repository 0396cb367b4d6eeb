// The dashboard's frame over HTTP, no browser: the redirects and 401s without a session, signing in (the cookie's
// attributes, a new random id, the credential never echoed or logged), a wrong or revoked credential, the shop
// key's narrower navigation, sign-out and the CSRF rules of every form, the safety headers and clean markup, the
// language, and the same dashboard under a workspace prefix with that workspace's own token.
import { describe, expect, it } from 'vitest';
import { KEY_A, KEY_REVOKED } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { ADMIN_TOKEN, expectCleanMarkup, expectSafeHeaders, get, postForm, signIn } from './helpers.js';

describe('dashboard frame over HTTP', () => {
  const h = useSandbox({ adminToken: ADMIN_TOKEN, frozenClock: true, startTime: '2026-07-01T10:00:00Z' });

  it('without a session a page goes to sign-in (and back after it), a stream is 401', async () => {
    const home = await get(h, '/dashboard');
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/dashboard/sign-in');
    const ops = await get(h, '/dashboard/operations?status=pending');
    expect(ops.status).toBe(303);
    const to = new URL(ops.headers.get('location')!, 'http://x');
    expect(to.pathname).toBe('/dashboard/sign-in');
    expect(to.searchParams.get('next')).toBe('/dashboard/operations?status=pending');
    expect((await get(h, '/dashboard/events')).status).toBe(401);
    // After signing in from that page, the browser lands on the page it asked for.
    const r = await postForm(h, '/dashboard/sign-in', { credential: ADMIN_TOKEN, next: to.searchParams.get('next')! });
    expect(r.headers.get('location')).toBe('/dashboard/operations?status=pending');
    // …but never on another site.
    for (const next of [
      '//evil.example/x',
      '/dashboard/../sandbox/reset',
      '/dashboard//evil.example',
      'https://evil.example/',
    ]) {
      const away = await postForm(h, '/dashboard/sign-in', { credential: ADMIN_TOKEN, next });
      expect(away.headers.get('location')).toBe('/dashboard/operations');
    }
  });

  it('the sign-in page: one password field, the safety headers, no inline code, nothing from another origin', async () => {
    const r = await get(h, '/dashboard/sign-in');
    expect(r.status).toBe(200);
    expectSafeHeaders(r);
    expectCleanMarkup(r.text);
    expect(r.text.match(/<input\b[^>]*>/g)).toEqual([expect.stringContaining('type="password"')]);
    expect(r.text).toContain('method="post" action="/dashboard/sign-in"');
  });

  it('the admin token signs in: an HttpOnly, SameSite=Strict cookie on the dashboard path holding a random id', async () => {
    const r = await postForm(h, '/dashboard/sign-in', { credential: ADMIN_TOKEN });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard/operations');
    const cookie = r.headers.get('set-cookie')!;
    const attrs = cookie.split(';').map((a) => a.trim());
    expect(attrs).toEqual(expect.arrayContaining(['Path=/dashboard', 'HttpOnly', 'SameSite=Strict']));
    expect(attrs).not.toContain('Secure'); // plain http here; https adds it
    const id = attrs[0]!.split('=')[1]!;
    expect(id).toMatch(/^[\w-]{32}$/);
    expect(cookie).not.toContain(ADMIN_TOKEN);
    const again = await postForm(h, '/dashboard/sign-in', { credential: ADMIN_TOKEN });
    expect(again.headers.get('set-cookie')!.split(';')[0]).not.toBe(attrs[0]);
    const page = await get(h, '/dashboard/operations', { cookie: attrs[0]!, csrf: '' });
    expect(page.status).toBe(200);
    expectSafeHeaders(page);
    expectCleanMarkup(page.text);
    expect(page.text).not.toContain(ADMIN_TOKEN);
    expect(page.text).toContain('href="/dashboard/workspaces"');
    expect(page.text).toContain('Signed in as admin');
    // The server's own time to make the page (what the bench reads).
    expect(page.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d$/);
  });

  it('a wrong, empty or revoked credential is refused, not echoed, and opens no session', async () => {
    for (const [credential, status] of [
      ['pg_admin_wrong', 401],
      [KEY_REVOKED, 401],
      ['   ', 400],
    ] as const) {
      const r = await postForm(h, '/dashboard/sign-in', { credential });
      expect(r.status).toBe(status);
      expect(r.headers.get('set-cookie')).toBeNull();
      if (credential.trim()) expect(r.text).not.toContain(credential);
      expect(r.text).toContain('role="alert"');
    }
    const noForm = await h.call('POST', '/dashboard/sign-in', { key: null, body: { credential: ADMIN_TOKEN } });
    expect(noForm.status).toBe(400);
  });

  it("a shop's key sees its own shop: no Workspaces, which is not found for it", async () => {
    const s = await signIn(h, KEY_A);
    const page = await get(h, '/dashboard/operations', s);
    expect(page.text).toContain('Signed in with the key of shop shop_a');
    expect(page.text).not.toContain('href="/dashboard/workspaces"');
    expect(page.text).not.toContain(KEY_A);
    expect((await get(h, '/dashboard/workspaces', s)).status).toBe(404);
  });

  it('sign-out needs the CSRF token and the own origin; then the session is gone', async () => {
    const s = await signIn(h, ADMIN_TOKEN);
    const noToken = await postForm(h, '/dashboard/sign-out', {}, { cookie: s.cookie });
    expect(noToken.status).toBe(403);
    const wrong = await postForm(h, '/dashboard/sign-out', { _csrf: 'x'.repeat(32) }, { cookie: s.cookie });
    expect(wrong.status).toBe(403);
    const crossSite = await postForm(
      h,
      '/dashboard/sign-out',
      { _csrf: s.csrf },
      { cookie: s.cookie, 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    expect((await get(h, '/dashboard/operations', s)).status).toBe(200);
    const out = await postForm(h, '/dashboard/sign-out', { _csrf: s.csrf }, { cookie: s.cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/dashboard/sign-in?out=1');
    expect(out.headers.get('set-cookie')).toMatch(
      /^paygate_dashboard=; Path=\/dashboard; HttpOnly; SameSite=Strict.*Max-Age=0/,
    );
    expect((await get(h, '/dashboard/operations', s)).status).toBe(303);
  });

  it('a sign-in form another site made the browser send is refused', async () => {
    const r = await postForm(h, '/dashboard/sign-in', { credential: ADMIN_TOKEN }, { 'sec-fetch-site': 'cross-site' });
    expect(r.status).toBe(403);
    expect(r.headers.get('set-cookie')).toBeNull();
    const o = await postForm(
      h,
      '/dashboard/sign-in',
      { credential: ADMIN_TOKEN },
      { 'sec-fetch-site': '', origin: 'http://evil.example' },
    );
    expect(o.status).toBe(403);
  });

  it('a revoked key ends its session', async () => {
    const key = (
      await h.call('POST', '/sandbox/keys', {
        key: null,
        headers: { 'x-admin-token': ADMIN_TOKEN },
        body: { shop_id: 'shop_b' },
      })
    ).body;
    const s = await signIn(h, key.api_key);
    expect((await get(h, '/dashboard/operations', s)).status).toBe(200);
    await h.call('POST', `/sandbox/keys/${key.id}/revoke`, { key: null, headers: { 'x-admin-token': ADMIN_TOKEN } });
    expect((await get(h, '/dashboard/operations', s)).status).toBe(303);
  });

  it('no credential, cookie or session id reaches the request log', async () => {
    const s = await signIn(h, KEY_A);
    await signIn(h, ADMIN_TOKEN);
    await postForm(h, '/dashboard/sign-in', { credential: 'pg_admin_wrong_guess' });
    const log = await h.call('GET', '/sandbox/logs?limit=2000', {
      key: null,
      headers: { 'x-admin-token': ADMIN_TOKEN },
    });
    expect(log.status).toBe(200);
    const text = JSON.stringify(log.body);
    expect(text).toContain('/dashboard/sign-in');
    for (const secret of [KEY_A, ADMIN_TOKEN, 'pg_admin_wrong_guess', s.cookie.split('=')[1]!, s.csrf])
      expect(text).not.toContain(secret);
  });

  it('Russian and English, as asked, kept for the session', async () => {
    expect((await get(h, '/dashboard/sign-in', undefined, { 'accept-language': 'ru-RU' })).text).toContain('Вход');
    const s = await signIn(h, ADMIN_TOKEN);
    const ru = await get(h, '/dashboard/operations?lang=ru', s);
    expect(ru.text).toContain('<html lang="ru">');
    expect((await get(h, '/dashboard/operations', s)).text).toContain('<html lang="ru">');
  });
});

describe('dashboard under a workspace prefix', () => {
  const h = useSandbox({ adminToken: ADMIN_TOKEN });

  it("a workspace's dashboard takes that workspace's admin token, its cookie on its own path", async () => {
    const ws = await h.call('POST', '/sandbox/workspaces', {
      key: null,
      headers: { 'x-admin-token': ADMIN_TOKEN },
      body: { id: 'ws_dash' },
    });
    expect(ws.status).toBe(201);
    const base = '/w/ws_dash/dashboard';
    // The server's token is not this workspace's.
    expect((await postForm(h, `${base}/sign-in`, { credential: ADMIN_TOKEN })).status).toBe(401);
    const r = await postForm(h, `${base}/sign-in`, { credential: ws.body.admin_token });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`${base}/operations`);
    expect(r.headers.get('set-cookie')).toContain(`Path=${base};`);
    const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
    const page = await get(h, `${base}/operations`, { cookie, csrf: '' });
    expect(page.status).toBe(200);
    expectCleanMarkup(page.text, base);
    // The default workspace's dashboard does not know this session.
    expect((await get(h, '/dashboard/operations', { cookie, csrf: '' })).status).toBe(303);
  });
});
