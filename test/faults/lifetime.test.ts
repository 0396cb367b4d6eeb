// How long a fault acts and on whom: the next N requests, a seeded probability (the same seed hits the same requests),
// one shop or all; after authentication (a 401 or 403 stays one, and is not counted); only on gateway endpoints.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Paygate } from '../../src/client/index.js';
import { draw } from '../../src/emulator/faults/rules.js';
import { KEY_REVOKED } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { outcomeOf } from './calls.js';

const sandbox = useSandbox({ per: 'file', frozenClock: true, adminToken: 'pg_admin_faults_life_0123456789' });
let a: Paygate;
let b: Paygate;
beforeAll(() => {
  a = sandbox.make({ apiKey: sandbox.keyOf('shop_a'), maxRetries: 0 });
  b = sandbox.make({ apiKey: sandbox.keyOf('shop_b'), maxRetries: 0 });
});

const faults = () => sandbox.admin.sandbox.faults;
const balances = async (client: Paygate) => (await outcomeOf(client.balances.list())).status;

describe('count: the next N matching requests', () => {
  it('answers the fault N times, then normally; the list shows it spent', async () => {
    await faults().set([{ endpoint: 'balances.list', status: 503, count: 2 }]);
    expect([await balances(a), await balances(a), await balances(a)]).toEqual([503, 503, 200]);
    const { faults: list } = await faults().list();
    expect(list[0]).toMatchObject({
      count: 2,
      remaining: 0,
      matched: 2,
      fired: 2,
      probability: null,
      seed: null,
      source: 'control',
    });
  });

  it('without count or probability a fault acts until it is removed', async () => {
    await faults().clear();
    const f = await faults().add({ endpoint: 'balances.list', status: 500 });
    for (let i = 0; i < 5; i++) expect(await balances(a)).toBe(500);
    const { faults: list } = await faults().list();
    expect(list).toEqual([{ ...f, matched: 5, fired: 5 }]);
    expect(f).toMatchObject({ id: expect.stringMatching(/^flt_\d+$/), count: null, remaining: null });
    await expect(faults().remove(f.id)).resolves.toEqual({ removed: 1 });
    expect(await balances(a)).toBe(200);
  });
});

describe('probability with a seed', () => {
  const run = async (seed: number): Promise<number[]> => {
    await faults().set([{ endpoint: 'balances.list', status: 503, probability: 0.5, seed }]);
    const out: number[] = [];
    for (let i = 0; i < 24; i++) out.push(await balances(a));
    return out;
  };

  it('hits the n-th matching request when draw(seed, n) < p: the same seed, the same requests, every run', async () => {
    const first = await run(42);
    const again = await run(42);
    expect(again).toEqual(first);
    const expected = Array.from({ length: 24 }, (_, i) => (draw(42, i + 1) < 0.5 ? 503 : 200));
    expect(first).toEqual(expected);
    expect(first).toContain(503);
    expect(first).toContain(200);
    const { faults: list } = await faults().list();
    expect(list[0]).toMatchObject({
      matched: 24,
      fired: first.filter((s) => s === 503).length,
      probability: 0.5,
      seed: 42,
    });
  });

  it('another seed hits other requests', async () => {
    expect(await run(7)).not.toEqual(await run(42));
  });

  it('probability 1 hits every request; the seed defaults to 0', async () => {
    const f = await faults().add({ endpoint: 'balances.list', status: 503, probability: 1 });
    expect(f.seed).toBe(0);
  });
});

describe('scope', () => {
  it('a fault of one shop acts only on requests made with its keys, and counts only those', async () => {
    await faults().set([{ endpoint: 'balances.list', status: 503, shop_id: 'shop_b', count: 1 }]);
    expect(await balances(a)).toBe(200);
    expect(await balances(a)).toBe(200);
    expect(await balances(b)).toBe(503);
    expect(await balances(b)).toBe(200);
    expect((await faults().list()).faults[0]).toMatchObject({ shop_id: 'shop_b', matched: 1, fired: 1 });
  });

  it('a fault of one endpoint leaves the others alone', async () => {
    await faults().set([{ endpoint: 'operation.state', status: 503 }]);
    expect(await balances(a)).toBe(200);
  });

  it('acts after authentication: a missing or revoked key is still 401, a key of other groups still 403, none counted', async () => {
    await faults().set([
      { endpoint: 'balances.list', status: 503 },
      { endpoint: 'payment.availability', status: 503 },
    ]);
    const none = await sandbox.call('GET', '/v1/balances', { key: null });
    expect([none.status, none.body.code]).toEqual([401, 'missing_api_key']);
    const revoked = await sandbox.call('GET', '/v1/balances', { key: KEY_REVOKED });
    expect([revoked.status, revoked.body.code]).toEqual([401, 'invalid_api_key']);
    const { api_key } = await sandbox.admin.sandbox.keys.issue({ shop_id: 'shop_a', scopes: ['links'] });
    const limited = await sandbox.call(
      'GET',
      '/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=1.00&max_amount=2.00',
      { key: api_key },
    );
    expect([limited.status, limited.body.code]).toEqual([403, 'key_not_authorized']);
    expect((await faults().list()).faults.map((f) => f.matched)).toEqual([0, 0]);
  });

  it('the sandbox controls are never faulted: a control is not an endpoint a fault can name', async () => {
    const r = await sandbox.call('POST', '/sandbox/faults', {
      key: null,
      headers: { 'x-admin-token': sandbox.sandbox.adminToken! },
      body: { endpoint: 'clock.show', status: 503 },
    });
    expect([r.status, r.body.code]).toEqual([400, 'validation_error']);
    expect(r.body.message).toContain('unknown endpoint "clock.show"');
    expect(r.body.message).toContain('operation.cancel');
  });
});
