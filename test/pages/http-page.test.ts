// The hosted page over HTTP, no browser: its safety headers and markup rules, the language chosen and switched,
// what each state shows (and never shows), the fallbacks without script, its static files, and the live events.
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { KEY_POOL, paymentBody, type CallResult } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const ADMIN = { key: null, headers: { 'x-admin-token': 'adm' } };

describe('hosted page over HTTP', () => {
  const h = useSandbox({ frozenClock: true, startTime: '2026-07-01T10:00:00Z', adminToken: 'adm' });
  const link = async (over: Record<string, unknown> = {}) =>
    (await h.call('POST', '/v1/payment/link', { body: paymentBody(over) })).body;
  const path = (url: string) => new URL(url).pathname + new URL(url).search;
  const open = (url: string, headers: Record<string, string> = {}) => h.call('GET', path(url), { key: null, headers });
  const flexible = async (over: Record<string, unknown> = {}) => {
    await h.call('POST', '/sandbox/pool/layout', {
      key: KEY_POOL,
      body: { method: 'WT_RUB_C2C', amounts: ['300.00', '1500.00', '25000.00'] },
    });
    const body = {
      merchant_operation_id: `f-${Math.random()}`,
      client_id: 'p1',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '24800.00',
      ...over,
    };
    return (await h.call('POST', '/v1/payment/link/flexible', { key: KEY_POOL, body })).body;
  };

  const expectSafe = (r: CallResult, cache = 'no-store') => {
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.headers.get('cache-control')).toBe(cache);
  };

  const expectCleanMarkup = (html: string) => {
    // No script runs but the sandbox's own file; the texts travel in a JSON data block. No inline style either.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? [])
      expect(tag).toMatch(/ src="http:\/\/paygate\.local\/pay\/assets\/page\.js\?v=|type="application\/json"/);
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    // Nothing from another origin: every address is the sandbox's own ({payment_page_url}).
    for (const [, url] of html.matchAll(/(?:src|href|action)="([^"]+)"/g))
      expect(url!).toMatch(/^(http:\/\/paygate\.local\/pay\/|data:,$)/);
  };

  it('every answer of the page carries the safety headers, and the markup runs no inline code', async () => {
    const op = await link();
    const page = await open(op.payment_url);
    expect(page.status).toBe(200);
    expectSafe(page);
    expectCleanMarkup(page.text);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('vary')).toContain('Accept-Language');
    const missing = await h.call('GET', '/pay/00000000-0000-4000-8000-000000000000', { key: null });
    expect(missing.status).toBe(404);
    expectSafe(missing);
    expectCleanMarkup(missing.text);
    const js = page.text.match(/src="http:\/\/paygate\.local(\/pay\/assets\/page\.js\?v=[^"]+)"/)![1]!;
    const asset = await h.call('GET', js, { key: null });
    expectSafe(asset, 'public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(() => new Script(asset.text)).not.toThrow();
    const css = await h.call(
      'GET',
      page.text.match(/href="http:\/\/paygate\.local(\/pay\/assets\/page\.css\?v=[^"]+)"/)![1]!,
      { key: null },
    );
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.text).not.toMatch(/url\(|@import/);
    expect((await h.call('GET', '/pay/assets/other.js', { key: null })).status).toBe(404);
  });

  it('speaks Russian or English as Accept-Language asks, formats for it, and switches with ?lang', async () => {
    const op = await link();
    const ru = await open(op.payment_url, { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' });
    expect(ru.text).toContain('<html lang="ru">');
    expect(ru.text).toContain('Ожидаем ваш перевод');
    expect(ru.text).toContain('1\u00a0500,00\u00a0₽');
    const en = await open(op.payment_url, { 'accept-language': 'en-GB,ru;q=0.5' });
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain('Waiting for your transfer');
    expect(en.text).toContain('₽1,500.00');
    expect((await open(op.payment_url, { 'accept-language': 'de-DE,fr;q=0.9' })).text).toContain('<html lang="en">');
    expect((await open(op.payment_url, { 'accept-language': 'ru;q=0.2,en;q=0.8' })).text).toContain('<html lang="en">');
    const switched = await open(`${op.payment_url}?lang=ru`, { 'accept-language': 'en' });
    expect(switched.text).toContain('<html lang="ru">');
    expect(switched.text).toContain(`href="${op.payment_url}?lang=en" lang="en"`);
    // Once asked for, the language stays in every address of the page; negotiated, it is asked again each time.
    expect(switched.text).toContain(`<a href="${op.payment_url}?lang=ru" data-check-again>`);
    expect(ru.text).toContain(`<a href="${op.payment_url}" data-check-again>`);
    // The deadline in UTC, for the language (the script shows it in the payer's own time).
    expect(en.text).toMatch(/<time datetime="2026-07-01T10:30:00.000Z" data-local>July 1, 2026 at 10:30 AM<\/time>/);
    expect(ru.text).toContain('>1 июля 2026 г. в 10:30<');
  });

  it('groups the requisites for reading, names the bank in full, and shows nothing of the merchant side', async () => {
    const card = await link({ merchant_operation_id: 'order-secret-42', client_id: 'client-secret-7' });
    const page = (await open(card.payment_url)).text;
    expect(card.number).toMatch(/^\d{16}$/);
    expect(page).toContain(card.number.replace(/(\d{4})(?=\d)/g, '$1 '));
    expect(page).toContain(`data-copy="${card.number}"`);
    for (const secret of [
      'order-secret-42',
      'client-secret-7',
      'sim_cards',
      'r_a_c2c_in',
      'pg_test_',
      'settlement',
      'commission',
    ])
      expect(page).not.toContain(secret);
    const phone = await link({ method: 'WT_RUB_PHONE' });
    const p = (await open(phone.payment_url, { 'accept-language': 'ru' })).text;
    expect(p).toMatch(/\+7 9\d\d \d{3}-\d\d-\d\d/);
    expect(p).toContain(phone.bankname_details);
    expect(p).toContain('Систему быстрых платежей (СБП)');
    expect(p).toContain('<label for="pg-receipt">');
    expect(p).not.toContain(phone.bankname === 'sber' ? '>sber<' : `>${phone.bankname}<`);
  });

  it('says "under review" whatever the reason, and shows what was received when it differs', async () => {
    const op = await link({ client_id: 'p+receipt' });
    const form = new FormData();
    form.set('operation_id', op.operation_id);
    form.set('confirmation_type', 'receipt');
    form.set('receipt', new Blob([new TextEncoder().encode('%PDF-1.4 broken')], { type: 'application/pdf' }), 'r.pdf');
    const req = new Request('http://x', { method: 'POST', body: form });
    const sent = await h.call('POST', '/v1/confirm_payment', {
      raw: new Uint8Array(await req.arrayBuffer()),
      headers: { 'content-type': req.headers.get('content-type')! },
    });
    expect(sent.body.manual_check_reason).toBe('not_terminal');
    const review = (await open(op.payment_url)).text;
    expect(review).toContain('data-state="review"');
    expect(review).not.toMatch(/not_terminal|potential_fake|unreadable/);
    const other = await link();
    await h.call('POST', `/sandbox/operations/${other.operation_id}/pay`, { body: { amount: '1450.00' } });
    const paid = (await open(other.payment_url)).text;
    expect(paid).toContain('data-state="paid_other"');
    expect(paid).toContain('We received ₽1,450.00 instead of ₽1,500.00.');
  });

  it('without script: a meta refresh while the payer only waits, a check-again link always, no live stream once final', async () => {
    const op = await link();
    const waiting = (await open(op.payment_url)).text;
    expect(waiting).toContain('<noscript><meta http-equiv="refresh" content="15"></noscript>');
    expect(waiting).toContain(`data-events="${op.payment_url}/events"`);
    expect(waiting).toContain(`<a href="${op.payment_url}" data-check-again>Check again</a>`);
    const upload = (await open((await link({ client_id: 'u+receipt' })).payment_url)).text;
    expect(upload).not.toContain('http-equiv="refresh"');
    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
    const paid = (await open(op.payment_url)).text;
    expect(paid).toContain('data-final="true"');
    expect(paid).not.toContain('http-equiv="refresh"');
    expect(paid).not.toContain('data-events=');
  });

  it('a flexible link page and its events answer only with the right k; a fixed link needs none', async () => {
    const f = await flexible();
    expect(f.status).toBe('amount_selection');
    const id = f.operation_id;
    for (const p of [
      `/pay/${id}`,
      `/pay/${id}?k=wrong`,
      `/pay/${id}/events`,
      `/pay/${id}/events?k=wrong`,
      `/pay/${id}/amount?k=x`,
    ]) {
      expect((await h.call('GET', p, { key: null })).status, p).toBe(404);
    }
    const ok = await open(f.payment_url);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('data-state="choose"');
    const k = new URL(f.payment_url).searchParams.get('k')!;
    expect(ok.text).toContain(`action="http://paygate.local/pay/${id}/amount?k=${k}"`);
    expect(ok.text).toContain(`href="http://paygate.local/pay/${id}?k=${k}&#38;lang=ru" lang="ru"`);
    const fixed = await link();
    expect(new URL(fixed.payment_url).search).toBe('');
    expect((await open(fixed.payment_url)).status).toBe(200);
  });

  it('streams the page live: the current card, the clock when it moves, the next state, then ends', async () => {
    const op = await link();
    const res = await h.handler.fetch(new Request(`http://x/pay/${op.operation_id}/events?lang=en`));
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('content-security-policy')).toBeNull(); // not a document; the page's own answers carry it
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { done, value } = await reader.read();
        if (done) break;
        text += value;
      }
      return pattern.test(text);
    };
    expect(await until(/event: state\ndata: \{"state":"waiting"/)).toBe(true);
    await h.call('POST', '/sandbox/clock/advance', { body: { by: '1m' }, ...ADMIN });
    expect(await until(/event: clock\ndata: \{"now":1782900060000\}/)).toBe(true);
    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
    expect(await until(/event: state\ndata: \{"state":"paid","final":true/)).toBe(true);
    expect((await reader.read()).done).toBe(true);
    expect(h.sandbox.service.writeListeners.size).toBe(0);
    const head = await h.call('HEAD', `/pay/${op.operation_id}/events`, { key: null });
    expect(head.status).toBe(200);
  });
});
