// Signed short-lived links: valid until the expiry second, and any change to path, expiry, signature or secret
// is refused. Time is passed in; no clock is read.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPath, verifySignedPath } from '../../src/emulator/receipts/signed-url.js';

const SECRET = new TextEncoder().encode('sandbox-url-secret');
const PATH = '/receipts/3f2b9c1e-file';
const NOW = Date.UTC(2025, 0, 14, 9, 30, 0);
const EXPIRES = NOW + 15 * 60_000;

function split(signed: string): [string, URLSearchParams] {
  const url = new URL(signed, 'https://paygate.local');
  return [url.pathname, url.searchParams];
}

describe('signPath', () => {
  it('appends the expiry in unix seconds and a base64url HMAC-SHA256 of path and expiry', () => {
    const signed = signPath(PATH, EXPIRES, SECRET);
    const expires = String(EXPIRES / 1000);
    const sig = createHmac('sha256', SECRET).update(`${PATH}\n${expires}`).digest('base64url');
    expect(signed).toBe(`${PATH}?expires=${expires}&signature=${sig}`);
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('rounds the expiry down to the second', () => {
    expect(signPath(PATH, EXPIRES + 999, SECRET)).toBe(signPath(PATH, EXPIRES, SECRET));
  });

  it('is deterministic and accepts a string secret', () => {
    expect(signPath(PATH, EXPIRES, 'sandbox-url-secret')).toBe(signPath(PATH, EXPIRES, SECRET));
  });

  it('refuses a path with a query, a relative path, a bad expiry or an empty secret', () => {
    expect(() => signPath('/receipts/x?a=1', EXPIRES, SECRET)).toThrow(TypeError);
    expect(() => signPath('receipts/x', EXPIRES, SECRET)).toThrow(TypeError);
    expect(() => signPath(PATH, Number.NaN, SECRET)).toThrow(RangeError);
    expect(() => signPath(PATH, EXPIRES, '')).toThrow(TypeError);
  });
});

describe('verifySignedPath', () => {
  const signed = signPath(PATH, EXPIRES, SECRET);

  it('accepts a valid link before its expiry', () => {
    const [path, query] = split(signed);
    expect(path).toBe(PATH);
    expect(verifySignedPath(path, query, NOW, SECRET)).toEqual({ ok: true });
    expect(verifySignedPath(path, query, EXPIRES - 1, SECRET)).toEqual({ ok: true });
  });

  it('has expired exactly at the boundary and after it', () => {
    const [path, query] = split(signed);
    expect(verifySignedPath(path, query, EXPIRES, SECRET)).toEqual({ ok: false, reason: 'expired' });
    expect(verifySignedPath(path, query, EXPIRES + 60_000, SECRET)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a tampered path', () => {
    const [, query] = split(signed);
    expect(verifySignedPath('/receipts/other-file', query, NOW, SECRET)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifySignedPath(`${PATH}x`, query, NOW, SECRET)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a tampered expiry, even one further in the future or already past', () => {
    for (const expires of [
      String(EXPIRES / 1000 + 3600),
      String(EXPIRES / 1000 - 3600),
      `0${EXPIRES / 1000}`,
      '1e10',
      '-1',
    ]) {
      const [path, query] = split(signed);
      query.set('expires', expires);
      expect(verifySignedPath(path, query, NOW, SECRET), expires).toEqual({ ok: false, reason: 'bad_signature' });
    }
  });

  it('refuses a tampered or truncated signature', () => {
    const [path, query] = split(signed);
    const sig = query.get('signature') ?? '';
    for (const bad of [
      `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`,
      sig.slice(0, -1),
      `${sig}A`,
      'Ł'.repeat(43),
    ]) {
      const q = new URLSearchParams(query);
      q.set('signature', bad);
      expect(verifySignedPath(path, q, NOW, SECRET), bad).toEqual({ ok: false, reason: 'bad_signature' });
    }
  });

  it('refuses another secret', () => {
    const [path, query] = split(signed);
    expect(verifySignedPath(path, query, NOW, 'another-secret')).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses duplicated parameters', () => {
    const [path, query] = split(signed);
    const q = new URLSearchParams(query);
    q.append('expires', String(EXPIRES / 1000 + 3600));
    expect(verifySignedPath(path, q, NOW, SECRET)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('reports missing parameters', () => {
    const [path, query] = split(signed);
    for (const drop of ['expires', 'signature']) {
      const q = new URLSearchParams(query);
      q.delete(drop);
      expect(verifySignedPath(path, q, NOW, SECRET), drop).toEqual({ ok: false, reason: 'missing' });
    }
    expect(verifySignedPath(path, new URLSearchParams(), NOW, SECRET)).toEqual({ ok: false, reason: 'missing' });
    expect(verifySignedPath(path, new URLSearchParams('expires=&signature='), NOW, SECRET)).toEqual({
      ok: false,
      reason: 'missing',
    });
  });
});
