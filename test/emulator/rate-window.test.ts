// Spec §8: 5 availability/recommendation requests per second per shop, on either clock. A read leaves the window
// once one second has passed on the sandbox clock or in real time, whichever comes first: a frozen clock (the
// default of deterministic CI) no longer answers 429 for good, and advancing the sandbox clock still opens the
// window without waiting. Real time is injected (`realNow`), never slept on.
import { describe, expect, it } from 'vitest';
import { KEY_POOL } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const QUERY = '/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=500.00&max_amount=5000.00';

describe.each([
  ['frozen', true],
  ['running', false],
] as const)('the read rate window on a %s sandbox clock', (_name, frozenClock) => {
  /** Real time as the sandbox sees it: moved by the tests, never by the wall clock. */
  let real = 0;
  const h = useSandbox(() => {
    real = Date.parse('2026-03-01T12:00:00Z');
    return { frozenClock, startTime: '2026-03-01T12:00:00Z', adminToken: 'adm', realNow: () => real };
  });
  const read = () => h.call('GET', QUERY, { key: KEY_POOL });
  const statuses = async (n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await read()).status);
    return out;
  };

  it('the 6th read within a second is 429 with Retry-After; one real second later reads answer again', async () => {
    expect(await statuses(5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await read();
    expect([limited.status, limited.body.code, limited.headers.get('retry-after')]).toEqual([429, 'rate_limited', '1']);
    real += 999;
    expect((await read()).status).toBe(429);
    real += 1;
    // The whole second's reads left the window together: five more fit, not six.
    expect(await statuses(6)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('still at most 5 in any second: a read leaves the window one second after it was admitted', async () => {
    expect(await statuses(2)).toEqual([200, 200]);
    real += 600;
    expect(await statuses(3)).toEqual([200, 200, 200]);
    real += 300;
    const limited = await read();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    real += 100; // the first two are a second old
    expect(await statuses(3)).toEqual([200, 200, 429]);
    real += 599; // the next three are 999 ms old
    expect((await read()).status).toBe(429);
    real += 1;
    expect(await statuses(4)).toEqual([200, 200, 200, 429]);
  });

  it('advancing the sandbox clock by a second opens the window too, with no real time passing', async () => {
    expect(await statuses(6)).toEqual([200, 200, 200, 200, 200, 429]);
    await h.admin.sandbox.clock.advance('999ms');
    expect((await read()).status).toBe(429);
    await h.admin.sandbox.clock.advance(1);
    expect(await statuses(6)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('a client that honours Retry-After gets through (its sleep moves real time)', async () => {
    const c = h.make({ apiKey: KEY_POOL, maxRetries: 2, sleep: async (ms: number) => void (real += ms) });
    const q = { method: 'WT_RUB_C2C', currency: 'RUB', min_amount: '500.00', max_amount: '5000.00' };
    for (let i = 0; i < 5; i++) await c.payments.availability(q);
    const start = real;
    const r = await c.payments.availability(q);
    expect(r.coverage).toBeDefined();
    expect(real - start).toBeGreaterThanOrEqual(1000);
  });
});
