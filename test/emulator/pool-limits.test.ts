// A pool layout neither blocks everyone nor grows without bound. A layout is planned in
// batches that yield to the event loop; one request lays out at most 10,000 payouts; a shop holds at most 20,000
// open pool payouts, counting layouts still in progress (409 pool_limit).
import { describe, expect, it } from 'vitest';
import { MAX_LAYOUT_PAYOUTS, MAX_POOL_SLOTS_PER_SHOP } from '../../src/contract/sandbox.js';
import { LAYOUT_BATCH } from '../../src/emulator/runtime/pool-layouts.js';
import { KEY_POOL } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const generate = (count: number, seed = 1) => ({
  method: 'WT_RUB_C2C',
  generate: { count, min: '100.00', max: '1000.00', step: '10.00', seed },
});

describe('pool layout limits', () => {
  const h = useSandbox({ frozenClock: true, adminToken: 'adm' });
  const layout = (count: number, seed = 1) =>
    h.call('POST', '/sandbox/pool/layout', { key: KEY_POOL, body: generate(count, seed) });
  const openSlots = async () => {
    const r = await h.call('GET', '/sandbox/pool?limit=0', { key: null, headers: { 'x-admin-token': 'adm' } });
    return (r.body as { pools: { slots: number }[] }).pools.reduce((n, p) => n + p.slots, 0);
  };

  it('refuses more than 10,000 payouts in one request with a 400 and lays out nothing', async () => {
    const r = await layout(MAX_LAYOUT_PAYOUTS + 1);
    expect(r.status).toBe(400);
    expect((r.body as { code: string }).code).toBe('validation_error');
    expect(await openSlots()).toBe(0);
  });

  it('yields to the event loop between batches: other work runs while a layout of 10,000 is planned', async () => {
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const r = await layout(MAX_LAYOUT_PAYOUTS);
    done = true;
    expect(r.status, r.text).toBe(200);
    // One turn at least per batch; planned in one go (the old code) the loop turned a handful of times.
    expect(turns).toBeGreaterThanOrEqual(MAX_LAYOUT_PAYOUTS / LAYOUT_BATCH - 1);
    // Planning 10,000 payouts is CPU work: a few seconds on a loaded 2-core machine, hence more than the default 5 s.
  }, 30_000);

  it('caps the open pool payouts of a shop at 20,000, counting concurrent layouts', async () => {
    const first = await layout(MAX_LAYOUT_PAYOUTS - 1, 1);
    expect(first.status, first.text).toBe(200);
    // Two concurrent layouts of 10,000: only one fits under the cap; the other is refused whole.
    const [a, b] = await Promise.all([layout(MAX_LAYOUT_PAYOUTS, 2), layout(MAX_LAYOUT_PAYOUTS, 3)]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const refused = (a.status === 409 ? a : b).body as { code: string; message: string };
    expect(refused.code).toBe('pool_limit');
    expect(refused.message).toContain(String(MAX_POOL_SLOTS_PER_SHOP));
    const open = await openSlots();
    expect(open).toBeLessThanOrEqual(MAX_POOL_SLOTS_PER_SHOP);
    expect(open).toBeGreaterThan(MAX_LAYOUT_PAYOUTS);
    // One more fits; then the shop is full.
    const fill = await layout(MAX_POOL_SLOTS_PER_SHOP - open, 4);
    expect(fill.status).toBe(200);
    expect((await layout(1, 5)).status).toBe(409);
  }, 60_000);
});
