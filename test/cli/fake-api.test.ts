// Against a node:http fake: shapes the sandbox does not produce on demand (a truncated or empty availability answer,
// coverage partial or none, cancel, an unhealthy probe, a body that breaks the contract) and the colour rules.
// The pool's real answers are exercised against the sandbox in pool.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BALANCES, fakeServer, runCli, tempConfig, transcript, type FakeServer, type SeenRequest } from './run-cli.js';

// Each test runs the CLI as a subprocess; on a loaded machine that takes seconds, not milliseconds.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const KEY = 'pg_fake_key_Zz9Yy8Xx7';
const OP_ID = '3f2b8a9e-1c4d-4e5f-8a6b-7c8d9e0f1a2b';
const OPERATION = {
  operation_id: OP_ID,
  type: 'payment',
  status: 'cancelled',
  method: 'WT_RUB_C2C',
  expected_amount: '1500.00',
  actual_amount: '0.00',
  currency: 'RUB',
  settlement_amount: '0.00',
  settlement_currency: 'RUB',
  commission_amount: '0.00',
};
const AVAILABILITY = {
  method: 'WT_RUB_C2C',
  currency: 'RUB',
  evaluated_at: '2026-01-01T00:00:00.000Z',
  coverage: 'partial',
  reserved: false,
  truncated: false,
  intervals: [
    { min_amount: '100.00', max_amount: '250.00' },
    { min_amount: '1000.00', max_amount: '2000.00' },
  ],
};

let unhealthy = false;
let broken = false;
function answer(req: SeenRequest): { status: number; body?: unknown } {
  const path = req.url.split('?')[0];
  if (path === '/livez' || path === '/healthz') return { status: 204 };
  if (path === '/readyz') return { status: unhealthy ? 503 : 204 };
  if (req.headers['x-api-key'] !== KEY)
    return { status: 401, body: { code: 'invalid_api_key', message: 'invalid api key' } };
  switch (path) {
    case '/v1/balances':
      return {
        status: 200,
        body: broken
          ? { balances: [{ currency: 'RUB', balance: 5, current_minus: '0.00', reserved: '0.00' }] }
          : BALANCES,
      };
    case '/v1/confirm_payment':
      return { status: 200, body: { ...OPERATION, status: 'manual_check', manual_check_reason: 'not_terminal' } };
    case '/v1/cancel_operation':
      return {
        status: 200,
        body: { outcome: 'cancelled', operation: OPERATION, extra_field_from_a_newer_server: true },
      };
    case '/v1/payment/availability':
      if (req.url.includes('method=WT_RUB_PHONE'))
        return { status: 200, body: { ...AVAILABILITY, method: 'WT_RUB_PHONE', coverage: 'none', intervals: [] } };
      if (req.url.includes('min_amount=1.00')) {
        return {
          status: 200,
          body: {
            ...AVAILABILITY,
            truncated: true,
            intervals: [
              { min_amount: '300.00', max_amount: '300.00' },
              { min_amount: '500.00', max_amount: '124500.00' },
            ],
          },
        };
      }
      return { status: 200, body: AVAILABILITY };
    case '/v1/payment/recommendations':
      return {
        status: 200,
        body: {
          ...AVAILABILITY,
          recommendations: [
            { amount: '1000.00', delta: '-500.00' },
            { amount: '2000.00', delta: '500.00' },
          ],
        },
      };
    case '/v1/payment/link/flexible':
      return {
        status: 200,
        body: {
          operation_id: OP_ID,
          status: 'amount_selection',
          method: 'WT_RUB_C2C',
          currency: 'RUB',
          recommended_amount: '1500.00',
          payment_url: 'http://127.0.0.1/pay/x?k=secret',
          expires_at: '2026-01-01T00:10:00.000Z',
        },
      };
    default:
      return { status: 404, body: { code: 'not_found', message: 'no route' } };
  }
}

let server: FakeServer;
const cfg = tempConfig();
let env: Record<string, string>;
beforeAll(async () => {
  server = await fakeServer(answer);
  env = { PAYGATE_CONFIG: cfg.path, PAYGATE_BASE_URL: server.baseUrl, PAYGATE_API_KEY: KEY };
});
afterAll(async () => {
  await server.close();
  cfg.cleanup();
});

const lastBody = () => JSON.parse(server.requests.at(-1)!.body) as Record<string, unknown>;

describe('payment cancel', () => {
  it('human: outcome and the operation snapshot; sends the reason', async () => {
    const r = await runCli(['payment', 'cancel', OP_ID, '--reason', 'customer left'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^outcome +cancelled$/m);
    expect(r.stdout).toMatch(/^status +cancelled$/m);
    expect(lastBody()).toEqual({ operation_id: OP_ID, reason: 'customer left' });
  });

  it('--json prints the body as received, fields unknown to the contract included', async () => {
    const r = await runCli(['payment', 'cancel', '--merchant-operation-id', 'm-1', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      outcome: 'cancelled',
      operation: OPERATION,
      extra_field_from_a_newer_server: true,
    });
    expect(lastBody()).toEqual({ merchant_operation_id: 'm-1' });
  });
});

describe('availability and recommend', () => {
  it('availability: coverage stated, intervals as "min … max" rows, query sent', async () => {
    const r = await runCli(
      [
        'availability',
        '--method',
        'WT_RUB_C2C',
        '--currency',
        'RUB',
        '--min-amount',
        '100.00',
        '--max-amount',
        '5000.00',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^range +100\.00 … 5000\.00 RUB$/m);
    expect(r.stdout).toMatch(
      /^coverage +partial \(some providers of the route are not pools: amounts they take are not listed\)$/m,
    );
    expect(r.stdout).toMatch(/^truncated +false \(the list is complete\)$/m);
    expect(r.stdout).toContain(
      'intervals (2, both ends inclusive)\n   100.00 …  250.00 RUB\n  1000.00 … 2000.00 RUB\n',
    );
    expect(server.requests.at(-1)!.url).toBe(
      '/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=100.00&max_amount=5000.00',
    );
  });

  it('availability: truncated stated; a single-point interval is one amount; --json is the body as received', async () => {
    const args = [
      'availability',
      '--method',
      'WT_RUB_C2C',
      '--currency',
      'RUB',
      '--min-amount',
      '1.00',
      '--max-amount',
      '200000.00',
    ];
    const r = await runCli(args, { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^truncated +true \(a scan limit or the 200-interval cap cut the list: more amounts may be payable\)$/m,
    );
    expect(r.stdout.trimEnd().split('\n').slice(-2)).toEqual(['  300.00 RUB', '  500.00 … 124500.00 RUB']);
    const j = await runCli([...args, '--json'], { env });
    expect(JSON.parse(j.stdout)).toMatchObject({
      truncated: true,
      intervals: [
        { min_amount: '300.00', max_amount: '300.00' },
        { min_amount: '500.00', max_amount: '124500.00' },
      ],
    });
  });

  it('availability: coverage none and no intervals say so, and that it is no refusal', async () => {
    const r = await runCli(
      [
        'availability',
        '--method',
        'WT_RUB_PHONE',
        '--currency',
        'RUB',
        '--min-amount',
        '100.00',
        '--max-amount',
        '5000.00',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^coverage +none \(no provider of the route is a pool/m);
    expect(r.stdout).toContain(
      'no payable amounts in this range (an empty answer is not a refusal: a payment may still be created)',
    );
  });

  it('availability without a TTY names the missing flags', async () => {
    const r = await runCli(['availability', '--method', 'WT_RUB_C2C'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing required options --currency, --min-amount, --max-amount');
  });

  it('recommend: signed deltas, --limit sent as a number, --json exact', async () => {
    const args = [
      'recommend',
      '--method',
      'WT_RUB_C2C',
      '--currency',
      'RUB',
      '--amount',
      '1500.00',
      '--min-amount',
      '1000.00',
      '--max-amount',
      '2000.00',
      '--limit',
      '2',
    ];
    const r = await runCli(args, { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^1 +1000\.00 RUB +-500\.00 RUB$/m);
    expect(r.stdout).toMatch(/^2 +2000\.00 RUB +\+500\.00 RUB$/m);
    expect(r.stdout).toMatch(/^amount +1500\.00 RUB$/m);
    expect(lastBody()).toMatchObject({ amount: '1500.00', limit: 2 });
    const j = await runCli([...args, '--json'], { env });
    expect(JSON.parse(j.stdout).recommendations).toEqual([
      { amount: '1000.00', delta: '-500.00' },
      { amount: '2000.00', delta: '500.00' },
    ]);
  });
});

describe('payment link --flexible', () => {
  it('shows an amount selection; --amount stands in for --recommended-amount', async () => {
    const r = await runCli(
      [
        'payment',
        'link',
        '--flexible',
        '--method',
        'WT_RUB_C2C',
        '--amount',
        '1500.00',
        '--currency',
        'RUB',
        '--client-id',
        'u',
        '--max-amount',
        '2000.00',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^status +amount_selection$/m);
    expect(r.stdout).toMatch(/^recommended_amount +1500\.00 RUB$/m);
    expect(r.stdout).toMatch(/^expires_at +2026-01-01T00:10:00\.000Z$/m);
    expect(r.stdout).toContain('No payment exists yet');
    expect(lastBody()).toMatchObject({ recommended_amount: '1500.00', max_amount: '2000.00' });
    expect(lastBody()).not.toHaveProperty('amount');
  });
});

describe('health', () => {
  it('exit 1 with the table when a probe is unhealthy', async () => {
    unhealthy = true;
    try {
      const r = await runCli(['health'], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^readyz +unhealthy +503$/m);
      expect(r.stdout).toMatch(/^livez +ok +204$/m);
      expect(r.stderr).toContain('unhealthy: readyz');
    } finally {
      unhealthy = false;
    }
  });
});

describe('contract mismatch', () => {
  it('exit 4, naming the field', async () => {
    broken = true;
    try {
      const r = await runCli(['balances'], { env });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('balances[0].balance');
      expect(r.stdout).toBe('');
    } finally {
      broken = false;
    }
  });
});

describe('colour', () => {
  const args = ['balances'];
  it('none when stdout is not a TTY', async () => {
    const r = await runCli(args, { env });
    expect(r.stdout).not.toContain('\x1b[');
  });
  it('FORCE_COLOR turns it on, NO_COLOR wins over it', async () => {
    const forced = await runCli(args, { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\x1b[');
    expect(forced.stdout).toContain('\x1b[31m'); // the negative USDT balance is red
    const off = await runCli(args, { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(off.stdout).not.toContain('\x1b[');
    expect(off.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toBe(forced.stdout.replace(/\x1b\[[0-9;]*m/g, ''));
  });
  it('colours are applied after alignment', async () => {
    const forced = await runCli(args, { env: { ...env, FORCE_COLOR: '1' } });
    const plain = await runCli(args, { env });
    expect(forced.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toBe(plain.stdout);
  });
});

describe('payment confirm', () => {
  it('uploads the receipt as multipart and shows the operation', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = `${cfg.dir}/receipt.pdf`;
    writeFileSync(file, '%PDF-1.4\n% test receipt\n');
    const before = server.requests.length;
    const r = await runCli(['payment', 'confirm', OP_ID, '--receipt', file], { env });
    const req = server.requests[before]!;
    expect(req.url).toBe('/v1/confirm_payment');
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(req.body).toContain('%PDF-1.4');
    expect(req.body).toContain(OP_ID);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^operation_id +${OP_ID}$`, 'm'));
  });

  it('a missing --receipt or a missing file is a usage error', async () => {
    const a = await runCli(['payment', 'confirm', OP_ID], { env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('missing required option --receipt');
    const b = await runCli(['payment', 'confirm', OP_ID, '--receipt', `${cfg.dir}/nope.pdf`], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('no such file');
  });
});

describe('keys', () => {
  it('the key never appeared in full', () => {
    expect(transcript.join('\n')).not.toContain(KEY);
  });
});
