// Every delivery verifies with the stock Standard Webhooks libraries — `standardwebhooks` and `svix`,
// both with their DEFAULTS (a 5-minute tolerance against the real Date.now, nothing pinned) — whatever the sandbox
// clock says: a running clock advanced 10 minutes, a frozen clock advanced 2 days, across a secret rotation, and a
// merchant's receiver behind startSandbox({ forwardWebhooksTo: <url> }) through a scenario that advances 2 days.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import { runScenario, startSandbox } from '../../src/testing/index.js';
import { KEY_A, paymentBody, type Harness } from '../helpers/harness.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { useCleanup } from '../helpers/cleanup.js';

const ADMIN = 'pg_admin_stock_verifiers';
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

const defer = useCleanup();
const open = useSandboxes(defer);

interface Verdict {
  id: string;
  type: string;
  /** Per secret: did standardwebhooks and svix (defaults) accept it. */
  standard: boolean[];
  svix: boolean[];
}

/** Both stock verifiers, defaults only; one verdict per secret. */
function verdict(body: string, headers: IncomingHttpHeaders, secrets: readonly string[]): Verdict {
  const h = {
    'webhook-id': String(headers['webhook-id']),
    'webhook-timestamp': String(headers['webhook-timestamp']),
    'webhook-signature': String(headers['webhook-signature']),
  };
  const ok = (fn: () => unknown) => {
    try {
      fn();
      return true;
    } catch {
      return false;
    }
  };
  const parsed = JSON.parse(body) as { id: string; type: string };
  return {
    id: parsed.id,
    type: parsed.type,
    standard: secrets.map((s) => ok(() => new StandardWebhook(s).verify(body, h))),
    svix: secrets.map((s) => ok(() => new SvixWebhook(s).verify(body, h))),
  };
}

/**
 * A merchant's receiver on 127.0.0.1:0: verifies each delivery with both stock libraries against `secrets()` and
 * answers 204 only when the first secret verifies with both (400 otherwise, so the sandbox records the refusal).
 */
async function merchant(secrets: () => readonly string[]) {
  const verdicts: Verdict[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const v = verdict(Buffer.concat(chunks).toString('utf8'), req.headers, secrets());
      verdicts.push(v);
      res.writeHead(v.standard[0] && v.svix[0] ? 204 : 400).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  defer(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, verdicts };
}

async function call(h: Harness, method: string, path: string, body?: unknown, auth: 'key' | 'admin' = 'key') {
  const r = await h.call(method, path, {
    ...(body !== undefined ? { body } : {}),
    ...(auth === 'key' ? { key: KEY_A } : { key: null, headers: { 'x-admin-token': ADMIN } }),
  });
  expect(r.status, r.text).toBeLessThan(300);
  return r.body;
}

/** Every delivery of shop A so far: recorded, none failed or waiting, each attempt answered 2xx. */
async function allDelivered(
  h: Harness,
): Promise<{ event_type: string; attempts: { status_code?: number; webhook_timestamp?: number }[] }[]> {
  await h.sandbox.webhooks.idle();
  const ds = (await call(h, 'GET', '/sandbox/webhooks/deliveries?limit=200')).deliveries as {
    status: string;
    event_type: string;
    attempts: { status_code?: number; webhook_timestamp?: number }[];
  }[];
  expect(ds.map((d) => [d.event_type, d.status, d.attempts.map((a) => a.status_code)])).toEqual(
    ds.map((d) => [d.event_type, 'succeeded', [204]]),
  );
  return ds;
}

describe('deliveries verify with standardwebhooks and svix, defaults, whatever the sandbox clock says', () => {
  it('a running clock advanced 10 minutes (`paygate sandbox time advance 10m`)', async () => {
    let secret = '';
    const rx = await merchant(() => [secret]);
    const h = await open({ adminToken: ADMIN });
    secret = (await call(h, 'POST', '/sandbox/webhooks', { url: rx.url })).secret;
    const before = await call(h, 'POST', '/v1/payment', paymentBody());
    await call(h, 'POST', '/sandbox/clock/advance', { by: '10m' }, 'admin');
    const clock = await call(h, 'GET', '/sandbox/clock', undefined, 'admin');
    expect(Date.parse(clock.now) - Date.now()).toBeGreaterThan(9 * MIN);
    await call(h, 'POST', `/sandbox/operations/${before.operation_id}/pay`, {});
    await call(h, 'POST', '/v1/payment', paymentBody());
    const ds = await allDelivered(h);
    expect(ds).toHaveLength(3);
    expect(rx.verdicts.map((v) => [v.type, v.standard, v.svix])).toEqual([
      ['operation.pending', [true], [true]],
      ['operation.completed', [true], [true]],
      ['operation.pending', [true], [true]],
    ]);
    // The attempt records carry the wall timestamp each was signed with, next to their sandbox time.
    for (const d of ds) expect(Math.abs(d.attempts[0]!.webhook_timestamp! - Date.now() / 1000)).toBeLessThan(60);
  });

  it('a frozen clock advanced 2 days, and across a secret rotation (new secret; the old one while it overlaps)', async () => {
    let secrets: string[] = [];
    const rx = await merchant(() => secrets);
    const h = await open({ adminToken: ADMIN, frozenClock: true });
    const ep = await call(h, 'POST', '/sandbox/webhooks', { url: rx.url });
    const old = ep.secret as string;
    secrets = [old];
    // Pending on a card route with a 30-minute expiry: rejected while the clock moves on.
    await call(h, 'POST', '/v1/payment', paymentBody());
    await call(h, 'POST', '/sandbox/clock/advance', { by: '2d' }, 'admin');
    await call(h, 'POST', '/v1/payment', paymentBody());
    await h.sandbox.webhooks.idle();
    expect(rx.verdicts.map((v) => [v.type, v.standard, v.svix])).toEqual([
      ['operation.pending', [true], [true]],
      ['operation.rejected', [true], [true]],
      ['operation.pending', [true], [true]],
    ]);

    const rotated = await call(h, 'POST', `/sandbox/webhooks/${ep.id}/rotate-secret`, {});
    secrets = [rotated.secret, old];
    rx.verdicts.length = 0;
    await call(h, 'POST', '/v1/payment', paymentBody());
    await h.sandbox.webhooks.idle();
    // Signed with both during the overlap: each verifies with either secret, with both libraries.
    expect(rx.verdicts.map((v) => [v.standard, v.svix])).toEqual([
      [
        [true, true],
        [true, true],
      ],
    ]);
    await h.sandbox.clock.advance(2 * DAY);
    rx.verdicts.length = 0;
    await call(h, 'POST', '/v1/payment', paymentBody());
    await h.sandbox.webhooks.idle();
    // The two payments still pending expired 30 min in (still signed with both); after the 24 h overlap (sandbox
    // time) only the new secret signs.
    expect(rx.verdicts.map((v) => [v.type, v.standard, v.svix])).toEqual([
      ['operation.rejected', [true, true], [true, true]],
      ['operation.rejected', [true, true], [true, true]],
      ['operation.pending', [true, false], [true, false]],
    ]);
    await allDelivered(h);
  });

  it('a redelivery is stamped afresh with wall time, whatever the sandbox clock did since the first attempt', async () => {
    let wall = Date.now();
    let secret = '';
    const rx = await merchant(() => [secret]);
    const h = await open({ adminToken: ADMIN, frozenClock: true, realNow: () => wall });
    secret = (await call(h, 'POST', '/sandbox/webhooks', { url: rx.url })).secret;
    const op = await call(h, 'POST', '/v1/payment', paymentBody());
    await h.sandbox.webhooks.idle();
    await h.sandbox.clock.advance(3 * DAY);
    wall += 90_000;
    await call(h, 'POST', '/sandbox/webhooks/deliveries/redeliver', { event_id: `evt_${op.operation_id}_0` });
    await h.sandbox.webhooks.idle();
    const [first, again] = (await call(h, 'GET', `/sandbox/webhooks/deliveries?event_id=evt_${op.operation_id}_0`))
      .deliveries[0].attempts;
    expect(again.webhook_timestamp - first.webhook_timestamp).toBe(90);
    expect(Date.parse(again.at) - Date.parse(first.at)).toBe(3 * DAY);
    expect(rx.verdicts.filter((v) => v.id === `evt_${op.operation_id}_0`).map((v) => [v.standard, v.svix])).toEqual([
      [[true], [true]],
      [[true], [true]],
    ]);
  });
});

describe('done when: a merchant receiver verifying with standardwebhooks and svix (defaults)', () => {
  it('accepts every delivery of a scenario that advances the clock by 2 days (startSandbox forwarding to its URL)', async () => {
    let secret = '';
    const rx = await merchant(() => [secret]);
    const sb = await startSandbox({ forwardWebhooksTo: rx.url });
    defer(() => sb.close());
    secret = sb.webhookSecret;
    const outcome = await runScenario(
      {
        name: 'two days of payments and payouts',
        steps: [
          {
            id: 'paid',
            call: 'payment.create',
            with: {
              merchant_operation_id: '${{ unique.paid }}',
              client_id: 'alice',
              method: 'WT_RUB_C2C',
              amount: '1500.00',
              currency: 'RUB',
            },
          },
          { call: 'operations.pay', with: { id: '${{ steps.paid.operation_id }}' } },
          {
            id: 'left',
            call: 'payment.create',
            with: {
              merchant_operation_id: '${{ unique.left }}',
              client_id: 'bob',
              method: 'WT_RUB_C2C',
              amount: '700.00',
              currency: 'RUB',
            },
          },
          {
            id: 'payout',
            call: 'payout.create',
            with: {
              merchant_operation_id: '${{ unique.payout }}',
              client_id: 'carol',
              method: 'WT_RUB_C2C',
              amount: '1000.00',
              currency: 'RUB',
              number: '2200700000000004',
            },
          },
          { call: 'clock.advance', with: { by: '1d' } },
          {
            id: 'next',
            call: 'payment.create',
            with: {
              merchant_operation_id: '${{ unique.next }}',
              client_id: 'dave+receipt',
              method: 'WT_RUB_C2C',
              amount: '900.00',
              currency: 'RUB',
            },
          },
          { call: 'clock.advance', with: { by: '1d' } },
          {
            call: 'payment.create',
            with: {
              merchant_operation_id: '${{ unique.rejected }}',
              client_id: 'erin+reject',
              method: 'WT_RUB_C2C',
              amount: '300.00',
              currency: 'RUB',
            },
          },
        ],
      },
      { remote: { baseUrl: sb.baseUrl, adminToken: sb.adminToken, reset: false } },
    );
    expect(outcome.failure).toBeUndefined();
    expect(sb.clock.now() - Date.now()).toBeGreaterThan(2 * DAY - 10 * MIN);
    await sb.webhooks.settle();
    const types = rx.verdicts.map((v) => v.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'operation.pending',
        'operation.completed',
        'operation.rejected',
        'operation.awaiting_confirmation',
      ]),
    );
    expect(rx.verdicts.length).toBeGreaterThanOrEqual(8);
    expect(rx.verdicts.filter((v) => !v.standard[0] || !v.svix[0])).toEqual([]);
    // The sandbox saw every forwarded answer as accepted: nothing failed, nothing waits for a retry.
    const page = await sb.client.request('webhooks.deliveries', { query: { limit: 200 } });
    expect(page.deliveries.filter((d) => d.status !== 'succeeded' || d.attempts.length !== 1)).toEqual([]);
    expect(page.deliveries).toHaveLength(rx.verdicts.filter((v) => v.id).length);
  });
});
