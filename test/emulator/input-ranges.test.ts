// Values from a client or a receiver that used to break the sandbox for good.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from '../../src/emulator/webhook-outbox/records.js';
import { harness, paymentBody, type Harness } from '../helpers/harness.js';

describe('a clock advance out of range', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness('in-process', { frozenClock: true, adminToken: 'adm' });
  });
  afterEach(() => h.close());

  it('2400000000h is 400 validation_error; the clock has not moved and every later request works', async () => {
    const before = h.sandbox.clock.now();
    const r = await h.call('POST', '/sandbox/clock/advance', {
      body: { by: '2400000000h' },
      headers: { 'x-admin-token': 'adm' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'validation_error' });
    expect((r.body as { message: string }).message).toContain('at most 366d');
    expect(
      (await h.call('POST', '/sandbox/clock/advance', { body: { by: 1e20 }, headers: { 'x-admin-token': 'adm' } }))
        .status,
    ).toBe(400);
    expect(h.sandbox.clock.now()).toBe(before);
    expect((await h.call('GET', '/sandbox/clock', { headers: { 'x-admin-token': 'adm' } })).status).toBe(200);
    expect((await h.call('POST', '/v1/payment', { body: paymentBody() })).status).toBe(200);
    expect((await h.call('POST', '/sandbox/reset', { headers: { 'x-admin-token': 'adm' } })).status).toBe(200);
  });
});

describe("a receiver's Retry-After", () => {
  it('is clamped to the retry schedule: a huge value waits 10 h, never a time that cannot be written', () => {
    expect(retryAfterMs('99999999999999')).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('999999999999')).toBe(MAX_RETRY_AFTER_MS);
    expect(() =>
      new Date(Date.parse('2026-01-01T00:00:00Z') + retryAfterMs('99999999999999')).toISOString(),
    ).not.toThrow();
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs('-5')).toBe(0);
    expect(retryAfterMs('soon')).toBe(0);
    expect(retryAfterMs(undefined)).toBe(0);
  });
  it('takes an HTTP date, counted from sandbox time', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs('Fri, 01 Jan 2100 00:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
  });
});
