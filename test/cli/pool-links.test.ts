// Flexible payment links from the CLI, end to end, on the self-matching pool: the CLI as a subprocess against a sandbox
// started in this process on a frozen clock, with the worked example of docs/pool.md laid out (slots of 300.00,
// 1,500.00, 2,500.00 and 25,000.00). `payment link --flexible` with its outcomes, and `sandbox links show | confirm`.
// Pool rule of the default fixtures: a slot with free remainder F gives F, or a piece in [500.00, F − 500.00].
import { beforeAll, describe, expect, it, vi } from 'vitest';
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
let baseUrl: string;
let shopAKey: string;
let env: Record<string, string>;

beforeAll(() => {
  expect(live.h.sandbox.demo.shops.find((s) => s.id === 'shop_pool')?.api_key).toBe(POOL_KEY);
  baseUrl = live.h.baseUrl;
  shopAKey = live.h.keyOf('shop_a');
  env = live.env;
});

const LINK = ['payment', 'link', '--flexible', '--method', 'WT_RUB_C2C', '--currency', 'RUB'];

// The pool of the worked example, with the read limits lifted (the reads run on a frozen clock); then the tests run in
// order on it.
beforeAll(async () => {
  const laid = (await api('POST', '/sandbox/pool/layout', 'key', {
    method: 'WT_RUB_C2C',
    amounts: ['300.00', '1500.00', '2500.00', '25000.00'],
  })) as { created: number };
  expect(laid.created).toBe(4);
  await api('POST', '/sandbox/pool/settings', 'admin', { read_latency_ms: 0, rate_limit: false });
});

describe('payment link --flexible: both outcomes', () => {
  it('the pool can take the recommended amount: a payment with payment_url (k credential)', async () => {
    const out = ok(
      await runCli(
        [...LINK, '--client-id', 'flex-1', '--recommended-amount', '1000.00', '--merchant-operation-id', 'cli-flex-1'],
        { env },
      ),
    );
    expect(out).toMatch(/^type +payment$/m);
    expect(out).toMatch(/^status +pending$/m);
    expect(out).toMatch(/^expected_amount +1000\.00 RUB$/m);
    expect(out).toMatch(
      new RegExp(`^payment_url +${baseUrl.replace(/[.]/g, '\\.')}/pay/${UUID.source}\\?k=[A-Za-z0-9_-]{43}$`, 'm'),
    );
    expect(out).toContain('Payment created for 1000.00 RUB: the pool can take it now; send the payer to payment_url.');
    const body = json(
      await runCli(
        [
          ...LINK,
          '--client-id',
          'flex-1',
          '--recommended-amount',
          '1000.00',
          '--merchant-operation-id',
          'cli-flex-1',
          '--json',
        ],
        { env },
      ),
    );
    expect(body).toMatchObject({ type: 'payment', status: 'pending', expected_amount: '1000.00' });
  });

  it('only other amounts within the bounds: amount_selection with payment_url and expires_at, no payment yet', async () => {
    // Slot D (25,000.00) gives 500.00 … 24,500.00 and 25,000.00: 24,800.00 is not available, 25,000.00 is.
    const args = [
      ...LINK,
      '--client-id',
      'flex-2',
      '--recommended-amount',
      '24800.00',
      '--min-amount',
      '24600.00',
      '--max-amount',
      '25000.00',
      '--merchant-operation-id',
      'cli-flex-2',
    ];
    const out = ok(await runCli(args, { env }));
    expect(out).toMatch(/^status +amount_selection$/m);
    expect(out).toMatch(/^recommended_amount +24800\.00 RUB$/m);
    expect(out).toMatch(new RegExp(`^payment_url +\\S+/pay/${UUID.source}\\?k=\\S+$`, 'm'));
    expect(out).toMatch(/^expires_at +2026-01-01T00:15:00\.000Z$/m);
    expect(out).toContain('No payment exists yet');
    expect(out).toContain('paygate sandbox links confirm');
    const body = json<{ status: string; operation_id: string; expires_at: string }>(
      await runCli([...args, '--json'], { env }),
    );
    expect(body).toMatchObject({
      status: 'amount_selection',
      recommended_amount: '24800.00',
      expires_at: '2026-01-01T00:15:00.000Z',
    });
    expect(out).toContain(body.operation_id);
  });

  it('nothing available within the bounds: rejected, payment_url null, nothing created', async () => {
    const args = [
      ...LINK,
      '--client-id',
      'flex-3',
      '--recommended-amount',
      '40000.00',
      '--min-amount',
      '30000.00',
      '--max-amount',
      '45000.00',
      '--merchant-operation-id',
      'cli-flex-3',
    ];
    const out = ok(await runCli(args, { env }));
    expect(out).toMatch(/^status +rejected$/m);
    expect(out).toMatch(/^payment_url +null \(nothing was created\)$/m);
    expect(out).toContain('no payment and no link were created');
    expect(json(await runCli([...args, '--json'], { env }))).toMatchObject({ status: 'rejected', payment_url: null });
  });

  it('a shop whose payin route is not only the pool: 412 not_pool_only (exit 1, with a hint)', async () => {
    const r = await runCli([...LINK, '--client-id', 'flex-4', '--recommended-amount', '1000.00'], {
      env: { ...env, PAYGATE_API_KEY: shopAKey },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not_pool_only');
    expect(r.stderr).toContain('hint: flexible links need a shop whose payin route is only the self-matching pool');
  });
});

describe('sandbox links', () => {
  let linkId: string;
  beforeAll(async () => {
    const body = (await api('POST', '/v1/payment/link/flexible', 'key', {
      merchant_operation_id: 'cli-flex-2',
      client_id: 'flex-2',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '24800.00',
      min_amount: '24600.00',
      max_amount: '25000.00',
    })) as { operation_id: string; status: string };
    expect(body.status).toBe('amount_selection');
    linkId = body.operation_id;
  });

  it('show (human): status, bounds, deadline and how to confirm; --json is exactly the body', async () => {
    const out = ok(await runCli(['sandbox', 'links', 'show', linkId], { env }));
    expect(out).toMatch(new RegExp(`^operation_id +${linkId}$`, 'm'));
    expect(out).toMatch(/^merchant_operation_id +cli-flex-2$/m);
    expect(out).toMatch(/^status +amount_selection$/m);
    expect(out).toMatch(/^min_amount +24600\.00 RUB$/m);
    expect(out).toMatch(/^max_amount +25000\.00 RUB$/m);
    expect(out).toMatch(/^expires_at +2026-01-01T00:15:00\.000Z$/m);
    expect(out).toMatch(/^confirmed_amount +—$/m);
    expect(out).toContain(`paygate sandbox links confirm ${linkId} --amount <amount>`);
    const body = json(await runCli(['sandbox', 'links', 'show', linkId, '--json'], { env }));
    expect(body).toEqual(await api('GET', `/sandbox/links/${linkId}`, 'key'));
    expect(body).toMatchObject({ status: 'amount_selection', confirmed_amount: null });
  });

  it("show: an unknown link and another shop's link are exit 1 (404) with a hint", async () => {
    const unknown = await runCli(['sandbox', 'links', 'show', '00000000-0000-4000-8000-000000000000'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('operation_not_found');
    expect(unknown.stderr).toContain('hint: no flexible link with this operation_id for the shop of this key');
    const other = await runCli(['sandbox', 'links', 'show', linkId], { env: { ...env, PAYGATE_API_KEY: shopAKey } });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('HTTP 404');
  });

  it('confirm: no --amount without a TTY is a usage error; outside the bounds is exit 1 (400) with a hint', async () => {
    usage(
      await runCli(['sandbox', 'links', 'confirm', linkId], { env, timeout: 10_000 }),
      'missing required option --amount',
    );
    usage(await runCli(['sandbox', 'links', 'confirm', linkId, '--amount', '1.234'], { env }), '--amount "1.234"');
    const outside = await runCli(['sandbox', 'links', 'confirm', linkId, '--amount', '26000.00'], { env });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('validation_error');
    expect(outside.stderr).toContain("hint: --amount must lie within the link's bounds");
  });

  it('confirm (human): the created operation with the operation view; then the link is confirmed; again --json returns it', async () => {
    const out = ok(await runCli(['sandbox', 'links', 'confirm', linkId, '--amount', '25000.00'], { env }));
    expect(out).toMatch(new RegExp(`^operation_id +${linkId}$`, 'm'));
    expect(out).toMatch(/^type +payment$/m);
    expect(out).toMatch(/^status +pending$/m);
    expect(out).toMatch(/^expected_amount +25000\.00 RUB$/m);
    expect(out).toContain('The payer confirmed 25000.00 RUB');

    const shown = ok(await runCli(['sandbox', 'links', 'show', linkId], { env }));
    expect(shown).toMatch(/^status +confirmed$/m);
    expect(shown).toMatch(/^confirmed_amount +25000\.00 RUB$/m);
    expect(shown).toContain(`paygate state ${linkId}`);

    const again = json<{ operation_id: string; status: string; expected_amount: string }>(
      await runCli(['sandbox', 'links', 'confirm', linkId, '--amount', '25000.00', '--json'], { env }),
    );
    expect(again).toMatchObject({ operation_id: linkId, status: 'pending', expected_amount: '25000.00' });
    // The slot gave its whole remainder.
    const pool = (await api('GET', '/sandbox/pool', 'admin')) as {
      pools: { first: { amount: string; claimed: string; free: string }[] }[];
    };
    expect(pool.pools[0]!.first.at(-1)).toMatchObject({ amount: '25000.00', claimed: '25000.00', free: '0.00' });
  });

  it('an expired link: show says expired; confirm is exit 1 (409 invalid_state) saying what to do next', async () => {
    const created = (await api('POST', '/v1/payment/link/flexible', 'key', {
      merchant_operation_id: 'cli-flex-5',
      client_id: 'flex-5',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '2200.00',
      min_amount: '2000.00',
      max_amount: '2500.00',
    })) as { operation_id: string; status: string };
    expect(created.status).toBe('amount_selection');
    ok(await runCli(['sandbox', 'time', 'advance', '15m'], { env }));
    expect(ok(await runCli(['sandbox', 'links', 'show', created.operation_id], { env }))).toMatch(/^status +expired$/m);
    const r = await runCli(['sandbox', 'links', 'confirm', created.operation_id, '--amount', '2500.00'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('invalid_state');
    expect(r.stderr).toContain('HTTP 409');
    expect(r.stderr).toContain('paygate sandbox links show');
  });
});

describe('secrets', () => {
  it('neither the admin token nor a shop key appeared in any output', () => {
    const all = transcript.join('\n');
    expect(transcript.length).toBeGreaterThan(30);
    expect(all).not.toContain(ADMIN);
    expect(all).not.toContain(POOL_KEY);
    expect(all).not.toContain(shopAKey);
  });
});
