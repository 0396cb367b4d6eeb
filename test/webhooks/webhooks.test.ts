// Webhooks end to end: registration, signed delivery of every status change to real local receivers, the retry
// schedule on the sandbox clock, Retry-After, failure and redelivery, secret rotation, restart recovery, and that no
// API response waits for a receiver.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { Agent } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/emulator/index.js';
import { fixtureSecret } from '../../src/emulator/webhook-outbox/outbox.js';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../../src/webhooks/index.js';
import { KEY_A, KEY_B, paymentBody, type Harness } from '../helpers/harness.js';
import { closedPort, startReceiver, type Received, type Receiver } from './receiver.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

const ADMIN = 'pg_admin_test_token';
const T0 = '2026-03-01T12:00:00.000Z';
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

/** The independent Standard Webhooks verifier (it checks the timestamp against Date.now: pin Date to the attempt's). */
function stdVerify(secret: string, r: Received): WebhookEvent {
  vi.useFakeTimers({ toFake: ['Date'], now: Number(r.headers['webhook-timestamp']) * 1000 });
  try {
    const h = {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    };
    return new Webhook(secret).verify(r.body, h) as WebhookEvent;
  } finally {
    vi.useRealTimers();
  }
}

const defer = useCleanup();
/** Sandboxes a test opens, closed after it (before the receivers and dirs deferred earlier). */
const open = useSandboxes(defer);

async function receiver(answer?: Receiver['answer'], port?: number): Promise<Receiver> {
  const r = await startReceiver(answer, port);
  defer(() => r.close());
  return r;
}

/** The default world without the card provider's 30-minute expiry (long clock advances would expire payments). */
function world(): Record<string, unknown> & { webhooks?: unknown[] } {
  const w = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8'));
  for (const p of w.providers) if (p.id === 'sim_cards') delete p.expiry;
  return w;
}

function sandbox(opts: SandboxOptions = {}): Promise<Harness> {
  return open({ frozenClock: true, startTime: T0, adminToken: ADMIN, world: world(), ...opts });
}

async function register(h: Harness, url: string, key = KEY_A): Promise<{ id: string; secret: string }> {
  const r = await h.call('POST', '/sandbox/webhooks', { body: { url }, key });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

async function create(h: Harness, over: Record<string, unknown> = {}) {
  const r = await h.call('POST', '/v1/payment', { body: paymentBody(over) });
  expect(r.status, r.text).toBe(200);
  return r.body as { operation_id: string; status: string };
}

/** Move the sandbox clock and wait until every attempt it started has been recorded. */
async function advance(sb: Sandbox, ms: number): Promise<void> {
  await sb.clock.advance(ms);
  await sb.webhooks.idle();
}

async function deliveries(h: Harness, query = '') {
  const r = await h.call('GET', `/sandbox/webhooks/deliveries${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.deliveries as {
    event_id: string;
    event_type: string;
    status: string;
    attempts: { at: string; webhook_timestamp?: number; status_code?: number; error?: string; duration_ms: number }[];
    next_attempt_at: string | null;
  }[];
}

describe('webhooks', () => {
  it('registers, lists masked, and delivers a payment lifecycle in order, signed, with the wire operation', async () => {
    const rx = await receiver();
    const wall = Date.parse('2026-11-28T06:00:00.000Z');
    const h = await sandbox({ realNow: () => wall });
    const ep = await register(h, rx.url);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const list = await h.call('GET', '/sandbox/webhooks');
    expect(list.body.webhooks).toEqual([
      { id: ep.id, url: rx.url, secret: `whsec_…${ep.secret.slice(-4)}`, created_at: T0 },
    ]);
    expect((await h.call('GET', '/sandbox/webhooks', { key: KEY_B })).body.webhooks).toEqual([]);

    const op = await create(h);
    const first = await rx.next();
    const pending = stdVerify(ep.secret, first);
    expect(pending.type).toBe('operation.pending');
    expect(first.headers['webhook-id']).toBe(pending.id);
    // webhook-timestamp is wall time (the injected realNow), not the frozen sandbox clock; sandbox time is in the body.
    expect(first.headers['webhook-timestamp']).toBe(String(wall / 1000));
    const state = await h.call('POST', '/v1/get_operation_state', { body: { operation_id: op.operation_id } });
    expect(pending.data.operation).toEqual(state.body);
    expect(pending.created_at).toBe(T0);

    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
    const second = await rx.next();
    const completed = stdVerify(ep.secret, second);
    expect(completed.type).toBe('operation.completed');
    expect(completed.id).not.toBe(pending.id);
    const after = await h.call('POST', '/v1/get_operation_state', { body: { operation_id: op.operation_id } });
    expect(completed.data.operation).toEqual(after.body);
    // The package's own verifier agrees.
    expect(verifyWebhook(second.body, second.headers as Record<string, string>, ep.secret, { now: wall })).toEqual(
      completed,
    );

    await h.sandbox.webhooks.idle();
    const ds = await deliveries(h);
    // Newest first.
    expect(ds.map((d) => [d.event_type, d.status, d.attempts.length, d.attempts[0]?.status_code])).toEqual([
      ['operation.completed', 'succeeded', 1, 200],
      ['operation.pending', 'succeeded', 1, 200],
    ]);
    expect(await deliveries(h, `?event_id=${pending.id}`)).toHaveLength(1);
  });

  it('awaiting_confirmation fires on entry; a create still admitting fires nothing', async () => {
    const rx = await receiver();
    const h = await sandbox();
    const ep = await register(h, rx.url);
    await create(h, { client_id: 'alice+receipt' });
    expect(stdVerify(ep.secret, await rx.next()).type).toBe('operation.awaiting_confirmation');

    const slow = h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'bob+slow' }) });
    const admitting = () => h.sandbox.store.state.operationsOfShop('shop_a').some((o) => o.status === 'admitting');
    // Let the request reach the service (event-loop turns, not wall-clock time).
    for (let i = 0; i < 1000 && !admitting(); i++) await new Promise((r) => setImmediate(r));
    expect(admitting()).toBe(true);
    await advance(h.sandbox, 5 * S);
    expect(admitting()).toBe(true);
    expect(rx.unread()).toBe(0);
    expect(await deliveries(h)).toHaveLength(1);
    await advance(h.sandbox, 5 * S);
    expect((await slow).body.status).toBe('pending');
    const ev = stdVerify(ep.secret, await rx.next());
    expect(ev.type).toBe('operation.pending');
    expect(rx.received.map((r) => JSON.parse(r.body).type)).not.toContain('operation.admitting');
  });

  it('a receipt flow fires awaiting_confirmation, manual_check, then completed with the receipt evidence', async () => {
    const rx = await receiver();
    const h = await sandbox();
    const ep = await register(h, rx.url);
    const op = await create(h, { client_id: 'payer+receipt' });
    const form = new FormData();
    form.set('operation_id', op.operation_id);
    form.set('confirmation_type', 'receipt');
    form.set(
      'receipt',
      new Blob([readFileSync(new URL('../../fixtures/receipts/broken.pdf', import.meta.url))], {
        type: 'application/pdf',
      }),
      'receipt.pdf',
    );
    const req = new Request('http://x/', { method: 'POST', body: form });
    const raw = new Uint8Array(await req.arrayBuffer());
    const up = await h.call('POST', '/v1/confirm_payment', {
      raw,
      headers: { 'content-type': req.headers.get('content-type')! },
    });
    expect(up.body.status).toBe('manual_check');
    await h.call('POST', `/sandbox/operations/${op.operation_id}/review`, {
      body: { decision: 'approve', amount: '1500.00' },
    });
    const events = [await rx.next(), await rx.next(), await rx.next()].map((r) => stdVerify(ep.secret, r));
    expect(events.map((e) => e.type)).toEqual([
      'operation.awaiting_confirmation',
      'operation.manual_check',
      'operation.completed',
    ]);
    expect(events[1]!.data.operation.manual_check_reason).toBe('not_terminal');
    expect(events[2]!.data.operation).toMatchObject({
      status: 'completed',
      receipt_evidence_status: 'complete',
      actual_amount: '1500.00',
    });
    expect(events[2]!.data.operation.receipts[0]!.receipt_url).toMatch(/^http:\/\/paygate\.local\/storage\/receipts\//);
  });

  it('a receiver answering 500 is retried at 5 s, 5 min, 30 min on the sandbox clock, with the same webhook-id', async () => {
    const rx = await receiver((_r, n) => ({ status: n <= 3 ? 500 : 204 }));
    let wall = Date.parse('2026-11-28T06:00:00.000Z');
    const h = await sandbox({ realNow: () => wall });
    const ep = await register(h, rx.url);
    await create(h);
    const a1 = await rx.next();
    await h.sandbox.webhooks.idle();
    await advance(h.sandbox, 5 * S - 1);
    expect(rx.unread()).toBe(0);
    wall += 2 * S;
    await advance(h.sandbox, 1);
    const a2 = await rx.next();
    await advance(h.sandbox, 5 * MIN - 1);
    expect(rx.unread()).toBe(0);
    wall += 3 * S;
    await advance(h.sandbox, 1);
    const a3 = await rx.next();
    wall += 4 * S;
    await advance(h.sandbox, 30 * MIN);
    const a4 = await rx.next();
    const ids = [a1, a2, a3, a4].map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    expect([a1, a2, a3, a4].map((r) => r.body)).toEqual([a1.body, a1.body, a1.body, a1.body]);
    for (const r of [a1, a2, a3, a4]) stdVerify(ep.secret, r);
    // Each attempt is stamped afresh with wall time (2 + 3 + 4 s of it passed), not with the 35 min of sandbox time.
    expect(
      [a1, a2, a3, a4].map(
        (r) => Number(r.headers['webhook-timestamp']) - Math.floor(Date.parse('2026-11-28T06:00:00.000Z') / 1000),
      ),
    ).toEqual([0, 2, 5, 9]);
    await h.sandbox.webhooks.idle();
    const [d] = await deliveries(h);
    expect(d!.status).toBe('succeeded');
    expect(d!.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 204]);
    expect(d!.attempts.map((a) => a.at)).toEqual([
      '2026-03-01T12:00:00.000Z',
      '2026-03-01T12:00:05.000Z',
      '2026-03-01T12:05:05.000Z',
      '2026-03-01T12:35:05.000Z',
    ]);
    // The record keeps both: `at` in sandbox time, `webhook_timestamp` as sent (wall time).
    expect(d!.attempts.map((a) => a.webhook_timestamp)).toEqual(
      [a1, a2, a3, a4].map((r) => Number(r.headers['webhook-timestamp'])),
    );
    expect(d!.attempts.every((a) => typeof a.duration_ms === 'number')).toBe(true);
  });

  it('a receiver that is not listening gets the event once it is back (webhookUrl option, shared secret)', async () => {
    const port = await closedPort();
    const h = await sandbox({ webhookUrl: `http://127.0.0.1:${port}/hooks` });
    const secret = h.sandbox.webhookSecret!;
    expect(secret).toMatch(/^whsec_/);
    const listed = (await h.call('GET', '/sandbox/webhooks', { key: KEY_B })).body.webhooks;
    expect(listed).toHaveLength(1);
    await create(h);
    await h.sandbox.webhooks.idle();
    const [d1] = await deliveries(h);
    expect(d1!.status).toBe('pending');
    expect(d1!.attempts[0]!.error).toMatch(/ECONNREFUSED/);
    expect(d1!.next_attempt_at).toBe('2026-03-01T12:00:05.000Z');
    const rx = await receiver(undefined, port);
    await advance(h.sandbox, 5 * S);
    expect(stdVerify(secret, await rx.next()).type).toBe('operation.pending');
    await h.sandbox.webhooks.idle();
    expect((await deliveries(h))[0]!.status).toBe('succeeded');
  });

  it('after the 8th failed attempt the delivery is failed and listed; redeliver sends it again with the same id', async () => {
    let up = false;
    const rx = await receiver(() => ({ status: up ? 200 : 500 }));
    const h = await sandbox();
    const ep = await register(h, rx.url);
    await create(h);
    await rx.next();
    await h.sandbox.webhooks.idle();
    for (const step of [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H]) {
      await advance(h.sandbox, step);
      await rx.next();
    }
    await h.sandbox.webhooks.idle();
    await advance(h.sandbox, 48 * H);
    expect(rx.received).toHaveLength(8);
    const failed = await deliveries(h, '?failed=true');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.status).toBe('failed');
    expect(failed[0]!.attempts).toHaveLength(8);
    expect(failed[0]!.next_attempt_at).toBeNull();

    up = true;
    const r = await h.call('POST', '/sandbox/webhooks/deliveries/redeliver', { body: { failed: true } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.scheduled).toBe(1);
    const again = await rx.next();
    expect(again.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    stdVerify(ep.secret, again);
    await h.sandbox.webhooks.idle();
    const [d] = await deliveries(h);
    expect(d!.status).toBe('succeeded');
    expect(d!.attempts).toHaveLength(9);
    expect(await deliveries(h, '?failed=true')).toEqual([]);

    const byEvent = await h.call('POST', '/sandbox/webhooks/deliveries/redeliver', { body: { event_id: d!.event_id } });
    expect(byEvent.body.scheduled).toBe(1);
    expect((await rx.next()).headers['webhook-id']).toBe(d!.event_id);
    expect(
      (await h.call('POST', '/sandbox/webhooks/deliveries/redeliver', { body: { event_id: 'evt_nope' } })).status,
    ).toBe(404);
    expect((await h.call('POST', '/sandbox/webhooks/deliveries/redeliver', { body: {} })).status).toBe(400);
  });

  it('honours Retry-After on 503 and 429 when longer than the next step', async () => {
    const rx = await receiver((_r, n) =>
      n === 1
        ? { status: 503, headers: { 'retry-after': '60' } }
        : n === 2
          ? { status: 429, headers: { 'retry-after': '1' } }
          : { status: 200 },
    );
    const h = await sandbox();
    await register(h, rx.url);
    await create(h);
    await rx.next();
    await h.sandbox.webhooks.idle();
    await advance(h.sandbox, 59 * S);
    expect(rx.unread()).toBe(0);
    await advance(h.sandbox, 1 * S);
    await rx.next();
    await h.sandbox.webhooks.idle();
    // Retry-After 1 s is shorter than the 5-minute step: the step wins.
    await advance(h.sandbox, 5 * MIN - 1);
    expect(rx.unread()).toBe(0);
    await advance(h.sandbox, 1);
    await rx.next();
    await h.sandbox.webhooks.idle();
    const [d] = await deliveries(h);
    expect(d!.attempts.map((a) => [a.at, a.status_code])).toEqual([
      ['2026-03-01T12:00:00.000Z', 503],
      ['2026-03-01T12:01:00.000Z', 429],
      ['2026-03-01T12:06:00.000Z', 200],
    ]);
  });

  it('secret rotation: both secrets sign for 24 h of sandbox time, then only the new one', async () => {
    const rx = await receiver();
    const h = await sandbox();
    const ep = await register(h, rx.url);
    const rot = await h.call('POST', `/sandbox/webhooks/${ep.id}/rotate-secret`, { body: {} });
    expect(rot.status, rot.text).toBe(200);
    const fresh = rot.body.secret as string;
    expect(fresh).not.toBe(ep.secret);
    expect(rot.body.previous_secret_expires_at).toBe('2026-03-02T12:00:00.000Z');
    const op = await create(h);
    const r1 = await rx.next();
    expect(String(r1.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(stdVerify(ep.secret, r1).type).toBe('operation.pending');
    expect(stdVerify(fresh, r1).type).toBe('operation.pending');

    await advance(h.sandbox, 24 * H);
    await h.call('POST', `/sandbox/operations/${op.operation_id}/pay`, { body: {} });
    const r2 = await rx.next();
    expect(String(r2.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(stdVerify(fresh, r2).type).toBe('operation.completed');
    expect(() => stdVerify(ep.secret, r2)).toThrow();
    const listed = (await h.call('GET', '/sandbox/webhooks')).body.webhooks;
    expect(listed[0].secret).toBe(`whsec_…${fresh.slice(-4)}`);
    expect(listed[0].previous_secret_expires_at).toBeUndefined();
    expect((await h.call('POST', '/sandbox/webhooks/we_nope/rotate-secret', { body: {} })).status).toBe(404);
  });

  it('a deleted endpoint gets no more deliveries; another shop cannot see or delete it', async () => {
    const rx = await receiver();
    const h = await sandbox();
    const ep = await register(h, rx.url);
    expect((await h.call('DELETE', `/sandbox/webhooks/${ep.id}`, { key: KEY_B })).status).toBe(404);
    expect((await h.call('DELETE', `/sandbox/webhooks/${ep.id}`)).body).toEqual({ id: ep.id, deleted: true });
    expect((await h.call('GET', '/sandbox/webhooks')).body.webhooks).toEqual([]);
    await create(h);
    await h.sandbox.webhooks.idle();
    expect(await deliveries(h)).toEqual([]);
    expect(rx.received).toHaveLength(0);
    expect((await h.call('POST', '/sandbox/webhooks', { body: { url: 'ftp://x' } })).status).toBe(400);
  });

  it('API responses never wait for a receiver that does not answer', async () => {
    const rx = await receiver(() => 'hang');
    const { sandbox: sb, baseUrl: url } = await open({
      transport: 'http',
      frozenClock: true,
      startTime: T0,
      adminToken: ADMIN,
    });
    const post = (client_id: string) =>
      fetch(`${url}/v1/payment`, {
        method: 'POST',
        headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
        body: JSON.stringify(paymentBody({ client_id })),
      });
    expect(
      (
        await fetch(`${url}/sandbox/webhooks`, {
          method: 'POST',
          headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
          body: JSON.stringify({ url: rx.url }),
        })
      ).status,
    ).toBe(201);
    expect((await post('c1')).status).toBe(200);
    await rx.next(); // the first event's attempt is now hanging
    const second = await post('c2');
    expect(second.status).toBe(200);
    expect(((await second.json()) as { status: string }).status).toBe('pending');
    expect(sb.webhooks.deliveries('shop_a').map((d) => d.attempts.length)).toEqual([0, 0]);
    await sb.clock.advance(10 * S); // clock timers do not wait for the hanging attempt either
  });

  it('an attempt that times out is recorded as a failure', async () => {
    // Waits on the recorded outcome (idle), not on the request's arrival: on a loaded machine the timeout can run out
    // before the request reaches the receiver, and a test waiting for it then waited for ever.
    // The timeout is 1 s, not less: the retry's 200 must come back within it on a loaded machine too (at 50 ms, with
    // two test files at a time on 2 cores, the retry timed out as well and the delivery stayed pending).
    let hang = true;
    const rx = await receiver(() => (hang ? 'hang' : { status: 200 }));
    const h = await sandbox({ webhookTimeoutMs: 1000 });
    await register(h, rx.url);
    await create(h);
    await h.sandbox.webhooks.idle();
    const [d] = await deliveries(h);
    expect(d!.attempts).toHaveLength(1);
    expect(d!.attempts[0]!.error).toMatch(/timed out after 1000 ms/);
    hang = false;
    await advance(h.sandbox, 5 * S);
    const [after] = await deliveries(h);
    expect(after!.attempts).toHaveLength(2);
    expect(after!.status).toBe('succeeded');
    expect(rx.received.at(-1)!.headers['webhook-id']).toBe(after!.event_id);
  });

  it('pending deliveries survive a restart of a file store and are delivered after reopening', async () => {
    const dir = tempDir(defer, 'paygate-wh-');
    const store = join(dir, 'sandbox.json');
    const port = await closedPort();
    const opts = {
      store,
      world: world(),
      frozenClock: true,
      startTime: T0,
      adminToken: ADMIN,
      webhookUrl: `http://127.0.0.1:${port}/hooks`,
    };
    const first = (await open(opts)).sandbox;
    const secret = first.webhookSecret;
    const res = await first.fetch(
      new Request('http://x/v1/payment', {
        method: 'POST',
        headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
        body: JSON.stringify(paymentBody()),
      }),
    );
    expect(res.status).toBe(200);
    await first.webhooks.idle();
    expect(first.webhooks.deliveries('shop_a')[0]!.attempts).toHaveLength(1);
    await first.close();

    const rx = await receiver(undefined, port);
    const second = (await open(opts)).sandbox;
    expect(second.webhookSecret).toBe(secret);
    expect(second.webhooks.deliveries('shop_a')[0]!.status).toBe('pending');
    await second.clock.advance(5 * S);
    const r = await rx.next();
    expect(stdVerify(secret!, r).type).toBe('operation.pending');
    await second.webhooks.idle();
    expect(second.webhooks.deliveries('shop_a')[0]!.attempts.map((a) => a.status_code ?? 'error')).toEqual([
      'error',
      200,
    ]);
  });

  it('stores the body once per event; each outcome is one small delivery row with the attempt appended, never the body', async () => {
    const dir = tempDir(defer, 'paygate-wh-rows-');
    const rx = await receiver((_r, n) => ({ status: n === 1 ? 500 : 204 }));
    const sb = (
      await open({
        store: join(dir, 'sandbox.json'),
        world: world(),
        frozenClock: true,
        startTime: T0,
        adminToken: ADMIN,
        webhookUrl: rx.url,
      })
    ).sandbox;
    const res = await sb.fetch(
      new Request('http://x/v1/payment', {
        method: 'POST',
        headers: { 'x-api-key': KEY_A, 'content-type': 'application/json' },
        body: JSON.stringify(paymentBody()),
      }),
    );
    expect(res.status).toBe(200);
    await rx.next();
    await sb.webhooks.idle();
    await advance(sb, 5 * S);
    await rx.next();
    await sb.webhooks.idle();
    const lines = readFileSync(join(dir, 'sandbox.json.journal'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ch: { c: string; v: Record<string, unknown> }[] });
    const rows = lines.flatMap((l) => l.ch);
    const payloads = rows.filter((r) => r.c === 'webhook_payloads');
    expect(payloads).toHaveLength(1);
    expect(JSON.parse(payloads[0]!.v.body as string).type).toBe('operation.pending');
    // The event, its payload and its delivery row went in the transition's own transaction.
    const created = lines.find((l) => l.ch.some((r) => r.c === 'operations'))!;
    expect(created.ch.map((r) => r.c)).toEqual(
      expect.arrayContaining(['operations', 'events', 'webhook_payloads', 'webhook_deliveries']),
    );
    // One row per outcome: the delivery, its attempts so far inside it (no attempt rows of their own).
    expect(rows.filter((r) => r.c === 'webhook_attempts')).toEqual([]);
    const deliveryRows = rows.filter((x) => x.c === 'webhook_deliveries');
    type Row = { status: string; attempts?: { status_code?: number }[] };
    expect(deliveryRows.map((r) => (r.v as Row).status)).toEqual(['pending', 'pending', 'succeeded']);
    expect(deliveryRows.map((r) => ((r.v as Row).attempts ?? []).map((a) => a.status_code))).toEqual([
      [],
      [500],
      [500, 204],
    ]);
    for (const r of deliveryRows) {
      expect(JSON.stringify(r.v).length).toBeLessThan(300 + 100 * ((r.v as Row).attempts ?? []).length);
      expect(r.v).not.toHaveProperty('body');
    }
    expect(sb.webhooks.deliveries('shop_a')[0]!.attempts.map((a) => a.status_code)).toEqual([500, 204]);
  });

  it('with a caller-supplied undici dispatcher the attempts run in-thread, signed and recorded the same way', async () => {
    const rx = await receiver((_r, n) =>
      n === 1 ? { status: 503, headers: { 'retry-after': '30' } } : { status: 204 },
    );
    const agent = new Agent();
    defer(() => agent.close());
    const h = await sandbox({ webhookDispatcher: agent });
    const ep = await register(h, rx.url);
    await create(h);
    expect(stdVerify(ep.secret, await rx.next()).type).toBe('operation.pending');
    await h.sandbox.webhooks.idle();
    await advance(h.sandbox, 29 * S);
    expect(rx.unread()).toBe(0);
    await advance(h.sandbox, 1 * S);
    const again = await rx.next();
    expect(again.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    await h.sandbox.webhooks.idle();
    expect((await deliveries(h))[0]!.attempts.map((a) => [a.at, a.status_code])).toEqual([
      ['2026-03-01T12:00:00.000Z', 503],
      ['2026-03-01T12:00:30.000Z', 204],
    ]);
  });

  it('a sandbox reset stops attempts in flight: nothing of the old world is recorded afterwards', async () => {
    const rx = await receiver(() => 'hang');
    const h = await sandbox();
    await register(h, rx.url);
    await create(h);
    await rx.next();
    expect((await h.call('POST', '/sandbox/reset', { key: null, headers: { 'x-admin-token': ADMIN } })).status).toBe(
      200,
    );
    await h.sandbox.webhooks.idle();
    expect(h.sandbox.store.state.webhookDeliveries.size).toBe(0);
  });

  it('fixture webhooks: a missing secret is derived from the id', async () => {
    const rx = await receiver();
    const w = world();
    w.webhooks = [{ id: 'wh_fixture_a', shop_id: 'shop_a', url: rx.url }];
    const h = await sandbox({ world: w });
    const listed = (await h.call('GET', '/sandbox/webhooks')).body.webhooks;
    expect(listed.map((w: { id: string }) => w.id)).toEqual(['wh_fixture_a']);
    await create(h);
    expect(stdVerify(fixtureSecret('wh_fixture_a'), await rx.next()).type).toBe('operation.pending');
    w.webhooks = [{ id: 'wh_x', shop_id: 'shop_nope', url: 'http://127.0.0.1:1/' }];
    await expect(createSandbox({ world: w })).rejects.toThrow(/webhooks.*shop_nope|shop_nope/);
  });
});

describe('verifyWebhook', () => {
  it('is the package entry paygate/webhooks', async () => {
    const mod = (await import(/* @vite-ignore */ 'paygate/webhooks')) as Record<string, unknown>;
    expect(typeof mod.verifyWebhook).toBe('function');
    expect(typeof mod.WebhookVerificationError).toBe('function');
  });

  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = JSON.stringify({ id: 'evt_1', type: 'operation.completed', created_at: T0, data: {} });
  const ts = Math.floor(Date.parse(T0) / 1000);
  const headers = () => ({
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(ts),
    'webhook-signature': new Webhook(secret).sign('evt_1', new Date(ts * 1000), body),
  });
  const now = ts * 1000;

  it('accepts a valid signature (string or bytes, Headers or a record, one secret of several)', () => {
    expect(verifyWebhook(body, headers(), secret, { now }).id).toBe('evt_1');
    expect(
      verifyWebhook(new TextEncoder().encode(body), new Headers(headers()), ['whsec_b3RoZXI=', secret], { now }).type,
    ).toBe('operation.completed');
    const h = headers();
    expect(
      verifyWebhook(body, { ...h, 'webhook-signature': [`v1,AAAA`, h['webhook-signature']] }, secret, { now }).id,
    ).toBe('evt_1');
  });

  it('rejects a bad or missing signature, a tampered body and a stale timestamp', () => {
    expect(() => verifyWebhook(body, { ...headers(), 'webhook-signature': 'v1,AAAA' }, secret, { now })).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      verifyWebhook(body, { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts) }, secret, { now }),
    ).toThrow(/missing/);
    expect(() => verifyWebhook(body.replace('completed', 'rejected'), headers(), secret, { now })).toThrow(
      /no matching/,
    );
    expect(() => verifyWebhook(body, headers(), 'whsec_b3RoZXI=', { now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(body, headers(), secret, { now: now + 301_000 })).toThrow(/tolerance/);
    expect(verifyWebhook(body, headers(), secret, { now: now + 301_000, toleranceSeconds: 600 }).id).toBe('evt_1');
    expect(() => verifyWebhook(body, headers(), secret, { now: now - 301_000 })).toThrow(/tolerance/);
  });
});
