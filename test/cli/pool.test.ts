// The self-matching pool from the CLI, end to end: the CLI as a subprocess against a sandbox started in this process on
// a frozen clock. `sandbox pool layout | show | settings`, `availability` and `recommend` on a real pool (the worked
// example of docs/pool.md), generated layouts and keys scoped to the amount reads. Flexible links: pool-links.test.ts.
// Pool rule of the default fixtures: a slot with free remainder F gives F, or a piece in [500.00, F − 500.00].
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { json, plainOk as ok, usage, useLiveSandbox } from './live-sandbox.js';
import { runCli, transcript } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const ADMIN = 'pg_admin_cli_pool_test';
const POOL_KEY = 'pg_test_pool_9Ub4Rn2TgK7mXa1C';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The pool shop's key and the admin token. */
const live = useLiveSandbox({
  frozenClock: true,
  startTime: '2026-01-01T00:00:00Z',
  adminToken: ADMIN,
  shop: 'shop_pool',
});
const api = live.api;
let shopAKey: string;
let env: Record<string, string>;

beforeAll(() => {
  expect(live.h.sandbox.demo.shops.find((s) => s.id === 'shop_pool')?.api_key).toBe(POOL_KEY);
  shopAKey = live.h.keyOf('shop_a');
  env = live.env;
});

interface Window {
  pool_id: string;
  slots: number;
  free_total: string;
  first: { payout_id: string; shop_id: string; amount: string; claimed: string; paid: string; free: string }[];
}

const AMOUNTS = ['--method', 'WT_RUB_C2C', '--currency', 'RUB'];

// The tests share one pool and run in order: layout, show, settings, then reads of the worked example.
describe('sandbox pool layout', () => {
  it('usage errors before anything is sent: neither or both forms, a bad amount, --min above --max, no --method without a TTY', async () => {
    usage(
      await runCli(['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C'], { env }),
      'missing --amounts, or --count with --min and --max',
      'paygate sandbox pool layout',
    );
    usage(
      await runCli(['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C', '--amounts', '1500.00', '--count', '2'], {
        env,
      }),
      'not both',
    );
    usage(
      await runCli(['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C', '--amounts', '1500.00,15.001'], { env }),
      '"15.001" (item 2)',
    );
    usage(
      await runCli(
        ['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C', '--count', '2', '--min', '900.00', '--max', '500.00'],
        { env },
      ),
      '--min 900.00 is above --max 500.00',
    );
    usage(
      await runCli(
        ['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C', '--count', '0', '--min', '1.00', '--max', '2.00'],
        { env },
      ),
      '--count',
    );
    usage(
      await runCli(['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C', '--count', '2', '--min', '500.00'], {
        env,
        timeout: 10_000,
      }),
      'missing required option --max',
    );
    usage(
      await runCli(['sandbox', 'pool', 'layout', '--amounts', '1500.00'], { env, timeout: 10_000 }),
      'missing required option --method',
    );
    expect(await api('GET', '/sandbox/pool', 'admin')).toEqual({ pools: [] });
  });

  it("412 not_pool_route with shop A's key: exit 1, the message and what to do next, the key never shown", async () => {
    const r = await runCli(['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C', '--amounts', '1500.00'], {
      env: { ...env, PAYGATE_API_KEY: shopAKey },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('not_pool_route');
    expect(r.stderr).toContain('HTTP 412, POST /sandbox/pool/layout');
    expect(r.stderr).toMatch(
      /hint: pass the API key of a shop whose payout route is pooled \(--api-key or PAYGATE_API_KEY; shop_pool/,
    );
    expect(r.stdout + r.stderr).not.toContain(shopAKey);
    expect(await api('GET', '/sandbox/pool', 'admin')).toEqual({ pools: [] });
  });

  it('human: --amounts lays out the worked example of docs/pool.md, in matching order', async () => {
    const out = ok(
      await runCli(
        ['sandbox', 'pool', 'layout', '--method', 'WT_RUB_C2C', '--amounts', '300.00,1500.00,2500.00,25000.00'],
        { env },
      ),
    );
    expect(out).toMatch(/^created +4 payouts \(slots of the pool, in matching order\)$/m);
    expect(out).toMatch(/^rejected +0$/m);
    expect(out).toMatch(new RegExp(`^first_operation_id +${UUID.source}$`, 'm'));
    expect(out).toMatch(new RegExp(`^last_operation_id +${UUID.source}$`, 'm'));
    expect(out).toContain('paygate sandbox pool show --method WT_RUB_C2C');
  });
});

describe('sandbox pool show', () => {
  it('human: the window with its rules and totals, then its slots with payout id, shop, amount, claimed, paid, free', async () => {
    const out = ok(await runCli(['sandbox', 'pool', 'show'], { env }));
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe('pool_main  WT_RUB_C2C  RUB');
    expect(out).toMatch(/^min_piece +500\.00 RUB$/m);
    expect(out).toMatch(/^min_remainder +500\.00 RUB$/m);
    expect(out).toMatch(/^slots +4 open$/m);
    expect(out).toMatch(/^free_total +29300\.00 RUB$/m);
    const head = lines.findIndex((l) => l.startsWith('#'));
    expect(lines[head]).toMatch(/^# +payout_id +shop_id +amount +claimed +paid +free$/);
    const rows = lines.slice(head + 1, head + 5);
    const amounts = ['300.00', '1500.00', '2500.00', '25000.00'];
    rows.forEach((row, i) =>
      expect(row).toMatch(
        new RegExp(
          `^${i + 1} +${UUID.source} +shop_pool +${amounts[i]} RUB +0\\.00 RUB +0\\.00 RUB +${amounts[i]} RUB$`,
        ),
      ),
    );
    // Amount columns right-aligned: every slot row ends at the same column.
    expect(new Set(rows.map((r) => r.length)).size).toBe(1);
    expect(lines[head + 5]).toMatch(/^ +total +29300\.00 RUB +0\.00 RUB +0\.00 RUB +29300\.00 RUB$/);
    expect(lines.at(-1)).toBe('all 4 open slots, in matching order');
  });

  it('--limit and --method; --json is exactly the body of GET /sandbox/pool', async () => {
    const out = ok(await runCli(['sandbox', 'pool', 'show', '--limit', '2'], { env }));
    expect(out).toMatch(/^ +total of these 2 +1800\.00 RUB +0\.00 RUB +0\.00 RUB +1800\.00 RUB$/m);
    expect(out).toContain('first 2 of 4 open slots, in matching order; --limit shows more');

    const body = json<{ pools: Window[] }>(
      await runCli(['sandbox', 'pool', 'show', '--method', 'WT_RUB_C2C', '--limit', '3', '--json'], { env }),
    );
    expect(body).toEqual(await api('GET', '/sandbox/pool?method=WT_RUB_C2C&limit=3', 'admin'));
    expect(body.pools[0]).toMatchObject({ pool_id: 'pool_main', slots: 4, free_total: '29300.00' });
    expect(body.pools[0]!.first.map((s) => s.amount)).toEqual(['300.00', '1500.00', '2500.00']);

    const none = ok(await runCli(['sandbox', 'pool', 'show', '--method', 'WT_RUB_PHONE'], { env }));
    expect(none).toContain('no pool window for WT_RUB_PHONE');
    expect(none).toContain('paygate sandbox pool layout');
  });

  it('needs the admin token (exit 2, where it comes from); a bad --limit is a usage error', async () => {
    const r = await runCli(['sandbox', 'pool', 'show'], { env: { ...env, PAYGATE_ADMIN_TOKEN: undefined } });
    usage(r, '--admin-token', 'PAYGATE_ADMIN_TOKEN', 'paygate sandbox start');
    usage(await runCli(['sandbox', 'pool', 'show', '--limit', '1001'], { env }), '0 to 1000');
  });
});

describe('sandbox pool settings', () => {
  afterAll(async () => {
    // The reads below run on a frozen clock: more than 5 per second of sandbox time need the rate limit lifted.
    await api('POST', '/sandbox/pool/settings', 'admin', { read_latency_ms: 0, rate_limit: false });
  });

  it('no flag shows them; --read-latency takes 1500ms or 2s; --rate-limit on|off; --json is the body', async () => {
    const shown = ok(await runCli(['sandbox', 'pool', 'settings'], { env }));
    expect(shown).toMatch(/^read_latency_ms +0 \(reads answer at once\)$/m);
    expect(shown).toMatch(/^rate_limit +on \(5 reads per second per shop/m);

    const changed = ok(
      await runCli(['sandbox', 'pool', 'settings', '--read-latency', '1500ms', '--rate-limit', 'off'], { env }),
    );
    expect(changed).toMatch(
      /^read_latency_ms +1500 \(each availability \/ recommendations read holds the replica's read slot for 1\.5 s/m,
    );
    expect(changed).toMatch(/^rate_limit +off \(lifted/m);
    expect(await api('GET', '/sandbox/pool/settings', 'admin')).toEqual({ read_latency_ms: 1500, rate_limit: false });

    expect(json(await runCli(['sandbox', 'pool', 'settings', '--read-latency', '2s', '--json'], { env }))).toEqual({
      read_latency_ms: 2000,
      rate_limit: false,
    });
    expect(json(await runCli(['sandbox', 'pool', 'settings', '--rate-limit', 'on', '--json'], { env }))).toEqual({
      read_latency_ms: 2000,
      rate_limit: true,
    });
    expect(json(await runCli(['sandbox', 'pool', 'settings', '--read-latency', '0', '--json'], { env }))).toEqual({
      read_latency_ms: 0,
      rate_limit: true,
    });
    expect(json(await runCli(['sandbox', 'pool', 'settings', '--json'], { env }))).toEqual(
      await api('GET', '/sandbox/pool/settings', 'admin'),
    );
  });

  it('a bad --read-latency or --rate-limit is a usage error; nothing changes', async () => {
    usage(await runCli(['sandbox', 'pool', 'settings', '--read-latency', 'fast'], { env }), '1500ms');
    usage(await runCli(['sandbox', 'pool', 'settings', '--read-latency', '61s'], { env }), 'at most 60s');
    usage(await runCli(['sandbox', 'pool', 'settings', '--rate-limit', 'maybe'], { env }), 'on, off');
    expect(await api('GET', '/sandbox/pool/settings', 'admin')).toEqual({ read_latency_ms: 0, rate_limit: true });
  });
});

describe('availability and recommend on the pool', () => {
  it('availability: coverage and truncation stated; intervals as "min … max" rows, a single point as one amount', async () => {
    const out = ok(
      await runCli(['availability', ...AMOUNTS, '--min-amount', '100.00', '--max-amount', '30000.00'], { env }),
    );
    expect(out).toMatch(/^range +100\.00 … 30000\.00 RUB$/m);
    expect(out).toMatch(/^coverage +full \(every provider of the shop's payin route is a pool/m);
    expect(out).toMatch(/^truncated +false \(the list is complete\)$/m);
    expect(out).toMatch(/^evaluated_at +2026-01-01T00:00:00\.000Z$/m);
    const lines = out.trimEnd().split('\n');
    const at = lines.indexOf('intervals (3, both ends inclusive)');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1)).toEqual(['    300.00 RUB', '    500.00 … 24500.00 RUB', '  25000.00 RUB']);
  });

  it('availability --json is exactly the body', async () => {
    const body = json(
      await runCli(['availability', ...AMOUNTS, '--min-amount', '100.00', '--max-amount', '30000.00', '--json'], {
        env,
      }),
    );
    const raw = await api(
      'GET',
      '/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=100.00&max_amount=30000.00',
      'key',
    );
    expect(body).toEqual(raw);
    expect(body).toMatchObject({
      coverage: 'full',
      truncated: false,
      intervals: [
        { min_amount: '300.00', max_amount: '300.00' },
        { min_amount: '500.00', max_amount: '24500.00' },
        { min_amount: '25000.00', max_amount: '25000.00' },
      ],
    });
  });

  it('recommend: the worked example, best first, with signed deltas (+100.00, -900.00, -2100.00, +22600.00, 0.00)', async () => {
    const out = ok(
      await runCli(
        [
          'recommend',
          ...AMOUNTS,
          '--amount',
          '2400.00',
          '--min-amount',
          '100.00',
          '--max-amount',
          '30000.00',
          '--limit',
          '5',
        ],
        { env },
      ),
    );
    expect(out).toMatch(/^amount +2400\.00 RUB$/m);
    const lines = out.split('\n');
    const at = lines.findIndex((l) => l.startsWith('recommendations'));
    expect(lines[at + 1]).toMatch(/^# +amount +delta$/);
    expect(lines.slice(at + 2, at + 7).map((l) => l.trim().split(/ {2,}/))).toEqual([
      ['1', '2500.00 RUB', '+100.00 RUB'],
      ['2', '1500.00 RUB', '-900.00 RUB'],
      ['3', '300.00 RUB', '-2100.00 RUB'],
      ['4', '25000.00 RUB', '+22600.00 RUB'],
      ['5', '2400.00 RUB', '0.00 RUB'],
    ]);
    expect(out).toContain('intervals (3, both ends inclusive)');
  });

  it('recommend --json keeps the raw deltas ("-900.00")', async () => {
    const body = json<{ recommendations: { amount: string; delta: string }[] }>(
      await runCli(
        [
          'recommend',
          ...AMOUNTS,
          '--amount',
          '2400.00',
          '--min-amount',
          '100.00',
          '--max-amount',
          '30000.00',
          '--limit',
          '5',
          '--json',
        ],
        { env },
      ),
    );
    expect(body.recommendations).toEqual([
      { amount: '2500.00', delta: '100.00' },
      { amount: '1500.00', delta: '-900.00' },
      { amount: '300.00', delta: '-2100.00' },
      { amount: '25000.00', delta: '22600.00' },
      { amount: '2400.00', delta: '0.00' },
    ]);
  });

  it('a range outside the pricing tiers is 412 pricing_not_covered (exit 1, with a hint)', async () => {
    const r = await runCli(['availability', ...AMOUNTS, '--min-amount', '1.00', '--max-amount', '99999999.00'], {
      env,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pricing_not_covered');
    expect(r.stderr).toContain('HTTP 412, GET /v1/payment/availability');
    expect(r.stderr).toContain('hint: the shop has no pricing for this amount range');
  });
});

describe('sandbox pool layout --count (generated)', () => {
  it('--json: created count; the same --seed lays out the same amounts', async () => {
    const args = [
      'sandbox',
      'pool',
      'layout',
      '--method',
      'WT_RUB_C2C',
      '--count',
      '25',
      '--min',
      '500.00',
      '--max',
      '50000.00',
      '--step',
      '100.00',
      '--seed',
      '3',
      '--json',
    ];
    const a = json<{ created: number; rejected: number; first_operation_id: string; last_operation_id: string }>(
      await runCli(args, { env }),
    );
    expect(a).toMatchObject({ created: 25, rejected: 0 });
    const b = json<{ created: number }>(await runCli(args, { env }));
    expect(b.created).toBe(25);
    const { pools } = (await api('GET', '/sandbox/pool?limit=1000', 'admin')) as { pools: Window[] };
    const slots = pools[0]!.first;
    const ia = slots.findIndex((s) => s.payout_id === a.first_operation_id);
    const amountsA = slots.slice(ia, ia + 25).map((s) => s.amount);
    const amountsB = slots.slice(ia + 25, ia + 50).map((s) => s.amount);
    expect(amountsA).toEqual(amountsB);
    for (const x of amountsA.map(Number)) expect((x - 500) % 100).toBe(0);
  });
});

describe('secrets', () => {
  it('neither the admin token nor the pool key appeared in any output', () => {
    const all = transcript.join('\n');
    expect(transcript.length).toBeGreaterThan(40);
    expect(all).not.toContain(ADMIN);
    expect(all).not.toContain(POOL_KEY);
    expect(all).not.toContain(shopAKey);
  });
});

describe('sandbox keys issue --scopes', () => {
  it('issues a key limited to the amount reads: availability works, the flexible link answers 403', async () => {
    const issued = json<{ api_key: string; scopes: string[] }>(
      await runCli(['sandbox', 'keys', 'issue', '--shop', 'shop_pool', '--scopes', 'amounts', '--json'], { env }),
    );
    expect(issued.scopes).toEqual(['amounts']);
    const scoped = { ...env, PAYGATE_API_KEY: issued.api_key };
    ok(
      await runCli(
        [
          'availability',
          '--method',
          'WT_RUB_C2C',
          '--currency',
          'RUB',
          '--min-amount',
          '100.00',
          '--max-amount',
          '200.00',
        ],
        { env: scoped },
      ),
    );
    const refused = await runCli(
      [
        'payment',
        'link',
        '--flexible',
        '--method',
        'WT_RUB_C2C',
        '--currency',
        'RUB',
        '--client-id',
        'u',
        '--recommended-amount',
        '1000.00',
      ],
      { env: scoped },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not authorized');
    usage(
      await runCli(['sandbox', 'keys', 'issue', '--shop', 'shop_pool', '--scopes', 'links,everything'], { env }),
      'unknown scope everything',
    );
  });
});
