// A 10,000-payout layout at 100,000 stored operations delayed /v1 by up to 78 ms: a batch of 100
// payouts costs more when the store is large (its indexes are). A batch now also ends once it has worked
// LAYOUT_SLICE_MS, however few payouts that was. Driven by a clock that moves only when read: every read of
// performance.now() during the layout takes LAYOUT_SLICE_MS, so each payout is a slice of its own — the loop turns
// once per payout, where batches of 100 turned it once per hundred. The layout's result is the same.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAYOUT_BATCH, LAYOUT_SLICE_MS } from '../../src/emulator/runtime/pool-layouts.js';
import { KEY_POOL } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const COUNT = 300;
const body = {
  method: 'WT_RUB_C2C',
  generate: { count: COUNT, min: '100.00', max: '1000.00', step: '10.00', seed: 5 },
};

describe('pool layout slices', () => {
  const h = useSandbox({ frozenClock: true, adminToken: 'adm' });
  afterEach(() => vi.restoreAllMocks());

  const layOut = async () => {
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const r = await h.call('POST', '/sandbox/pool/layout', { key: KEY_POOL, body });
    done = true;
    return { r, turns };
  };

  it('a batch ends after LAYOUT_SLICE_MS of work, even below LAYOUT_BATCH payouts', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += LAYOUT_SLICE_MS));
    const { r, turns } = await layOut();
    expect(r.status, r.text).toBe(200);
    expect((r.body as { created: number }).created).toBe(COUNT);
    // One turn at least per payout (batches of LAYOUT_BATCH alone: about COUNT / LAYOUT_BATCH turns).
    expect(turns).toBeGreaterThanOrEqual(COUNT - 1);
    expect(COUNT / LAYOUT_BATCH).toBeLessThan(COUNT - 1);
  });

  it('sliced or not, the layout creates the same payouts in the same matching order', async () => {
    const pool = async () =>
      (
        await h.call('GET', '/sandbox/pool?method=WT_RUB_C2C&limit=1000', {
          key: null,
          headers: { 'x-admin-token': 'adm' },
        })
      ).body;
    const plain = await layOut();
    expect(plain.r.status).toBe(200);
    const before = await pool();
    await h.call('POST', '/sandbox/reset', { key: null, headers: { 'x-admin-token': 'adm' }, body: {} });
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += LAYOUT_SLICE_MS));
    const sliced = await layOut();
    vi.restoreAllMocks();
    expect(sliced.r.body).toEqual(plain.r.body);
    expect(await pool()).toEqual(before);
  });
});
