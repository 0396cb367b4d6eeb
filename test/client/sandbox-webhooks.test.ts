// client.sandbox.webhooks against the real emulator, in-process and over HTTP: list (masked), add (full secret
// once), rotate-secret, remove, deliveries (all, failed, by event), redeliver (one event, every failed one); and, against
// a scripted gateway on both transports, that the state-changing calls are not retried after a timeout.
import { beforeEach, expect, it } from 'vitest';
import { APITimeoutError, NotFoundError, Paygate, PaygateError } from '../../src/client/index.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { KEY } from './helpers.js';
import { deadPort, describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';
import { useScripted } from '../helpers/scripted.js';
import { useCleanup } from '../helpers/cleanup.js';

const payment = { client_id: 'cust-1', method: 'WT_RUB_C2C', amount: '500.00', currency: 'RUB' };

describeTransports('client.sandbox.webhooks', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, startTime: '2026-01-01T00:00:00Z', adminToken: 'adm' });
  const defer = useCleanup();
  let client: Paygate;
  /** A receiver on 127.0.0.1:0 that records every POST and answers 204. */
  let hooks: Receiver;
  const make = (apiKey: string) => h.make({ apiKey });

  beforeEach(async () => {
    hooks = await startReceiver(() => ({ status: 204 }));
    defer(() => hooks.close());
    client = make(h.keyOf('shop_a'));
  });

  it('add answers the full secret once; list masks it; deliveries are signed with it', async () => {
    expect(await client.sandbox.webhooks.list()).toEqual({ webhooks: [] });
    const added = await client.sandbox.webhooks.add({ url: hooks.url });
    expect(added.url).toBe(hooks.url);
    expect(added.secret).toMatch(/^whsec_/);
    expect(added.created_at).toBe('2026-01-01T00:00:00.000Z');

    const { webhooks } = await client.sandbox.webhooks.list();
    expect(webhooks).toEqual([
      { id: added.id, url: hooks.url, secret: `whsec_…${added.secret.slice(-4)}`, created_at: added.created_at },
    ]);
    expect(JSON.stringify(webhooks)).not.toContain(added.secret);

    // Shop-scoped: shop B sees none of them.
    const shopB = make(h.sandbox.demo.shops.find((s) => s.id === 'shop_b')!.api_key);
    expect(await shopB.sandbox.webhooks.list()).toEqual({ webhooks: [] });

    const op = await client.payments.create(payment);
    await h.sandbox.webhooks.idle();
    expect(hooks.received).toHaveLength(1);
    const event = verifyWebhook(hooks.received[0]!.body, hooks.received[0]!.headers, added.secret, {
      toleranceSeconds: Infinity,
    });
    expect(event).toMatchObject({ id: `evt_${op.operation_id}_0`, type: 'operation.pending' });

    const { deliveries } = await client.sandbox.webhooks.deliveries();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      event_id: event.id,
      event_type: 'operation.pending',
      endpoint_id: added.id,
      url: hooks.url,
      status: 'succeeded',
      next_attempt_at: null,
    });
    expect(deliveries[0]!.attempts).toEqual([
      expect.objectContaining({ at: '2026-01-01T00:00:00.000Z', status_code: 204 }),
    ]);
    expect((await client.sandbox.webhooks.deliveries({ event_id: event.id })).deliveries).toHaveLength(1);
    expect((await client.sandbox.webhooks.deliveries({ event_id: 'evt_none' })).deliveries).toEqual([]);
    expect((await client.sandbox.webhooks.deliveries({ failed: true })).deliveries).toEqual([]);
    expect(await client.sandbox.webhooks.deliveries({ limit: 1 })).toMatchObject({
      has_more: false,
      next_cursor: null,
    });

    // Redeliver one event: same webhook-id and body.
    const again = await client.sandbox.webhooks.redeliver({ event_id: event.id });
    expect(again.scheduled).toBe(1);
    await h.sandbox.webhooks.idle();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[1]!.headers['webhook-id']).toBe(event.id);
    expect(hooks.received[1]!.body).toBe(hooks.received[0]!.body);
    await expect(client.sandbox.webhooks.redeliver({ event_id: 'evt_none' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('rotate-secret: a new full secret; both are signed during the overlap', async () => {
    const added = await client.sandbox.webhooks.add({ url: hooks.url });
    const rotated = await client.sandbox.webhooks.rotateSecret(added.id);
    expect(rotated.id).toBe(added.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(added.secret);
    expect(rotated.previous_secret_expires_at).toBe('2026-01-02T00:00:00.000Z');
    const listed = (await client.sandbox.webhooks.list()).webhooks[0]!;
    expect(listed.secret).toBe(`whsec_…${rotated.secret.slice(-4)}`);
    expect(listed.previous_secret_expires_at).toBe(rotated.previous_secret_expires_at);

    await client.payments.create(payment);
    await h.sandbox.webhooks.idle();
    const got = hooks.received[0]!;
    for (const secret of [added.secret, rotated.secret]) {
      expect(verifyWebhook(got.body, got.headers, secret, { toleranceSeconds: Infinity }).type).toBe(
        'operation.pending',
      );
    }
    await expect(client.sandbox.webhooks.rotateSecret('wh_nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('remove: the endpoint is gone; an unknown id is NotFoundError', async () => {
    const added = await client.sandbox.webhooks.add({ url: hooks.url });
    expect(await client.sandbox.webhooks.remove(added.id)).toEqual({ id: added.id, deleted: true });
    expect(await client.sandbox.webhooks.list()).toEqual({ webhooks: [] });
    await expect(client.sandbox.webhooks.remove(added.id)).rejects.toBeInstanceOf(NotFoundError);
    await client.payments.create(payment);
    await h.sandbox.webhooks.idle();
    expect(hooks.received).toEqual([]);
  });

  it('failed deliveries: listed with --failed, redelivered all at once', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}/hooks`;
    const added = await client.sandbox.webhooks.add({ url: dead });
    const op = await client.payments.create(payment);
    await h.sandbox.webhooks.idle();
    // 8 attempts over ~27.6 h of sandbox time, then the delivery is failed.
    for (const ms of [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000]) {
      await h.sandbox.clock.advance(ms);
      await h.sandbox.webhooks.idle();
    }
    const failed = (await client.sandbox.webhooks.deliveries({ failed: true })).deliveries;
    const first = failed.find((d) => d.event_id === `evt_${op.operation_id}_0`)!;
    expect(first).toMatchObject({ status: 'failed', endpoint_id: added.id, next_attempt_at: null });
    expect(first.attempts).toHaveLength(8);
    expect(first.attempts[0]!.error).toBeTruthy();

    const res = await client.sandbox.webhooks.redeliver({ failed: true });
    expect(res.scheduled).toBe(failed.length);
    expect(res.deliveries.map((d) => d.event_id).sort()).toEqual(failed.map((d) => d.event_id).sort());
  });

  it('pages: limit and cursor; allDeliveries walks every page, newest first', async () => {
    await client.sandbox.webhooks.add({ url: hooks.url });
    await client.sandbox.webhooks.add({ url: `${hooks.url}/2` });
    for (let i = 0; i < 3; i++) await client.payments.create(payment);
    await h.sandbox.webhooks.idle();
    const newest = h.sandbox.webhooks
      .deliveries('shop_a')
      .map((d) => d.id)
      .reverse();
    expect(newest).toHaveLength(6);
    const first = await client.sandbox.webhooks.deliveries({ limit: 4 });
    expect(first.deliveries.map((d) => d.id)).toEqual(newest.slice(0, 4));
    expect(first).toMatchObject({ has_more: true, next_cursor: newest[3] });
    const second = await client.sandbox.webhooks.deliveries({ limit: 4, cursor: first.next_cursor! });
    expect(second.deliveries.map((d) => d.id)).toEqual(newest.slice(4));
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    const walked: string[] = [];
    for await (const d of client.sandbox.webhooks.allDeliveries({ limit: 1 })) walked.push(d.id);
    expect(walked).toEqual(newest);
    const after: string[] = [];
    for await (const d of client.sandbox.webhooks.allDeliveries({ cursor: newest[1]! })) after.push(d.id);
    expect(after).toEqual(newest.slice(2));
    await expect(client.sandbox.webhooks.deliveries({ cursor: 'dlv_nope' })).rejects.toMatchObject({ status: 400 });
    await expect(client.sandbox.webhooks.deliveries({ limit: 201 })).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a bad redeliver input and a bad URL', async () => {
    await expect(client.sandbox.webhooks.redeliver({} as { failed: true })).rejects.toBeInstanceOf(PaygateError);
    await expect(
      client.sandbox.webhooks.redeliver({ failed: true, event_id: 'x' } as unknown as { failed: true }),
    ).rejects.toThrow(/exactly one/);
    await expect(client.sandbox.webhooks.add({ url: 'ftp://nope' })).rejects.toMatchObject({ status: 400 });
  });
});

describeTransports('client.sandbox.webhooks requests', (transport) => {
  const scripted = useScripted(transport);

  it('sends the exact routes and bodies with X-API-Key; changes are not retried after a timeout, reads are', async () => {
    const { server, t } = await scripted.start(() => 'hang', { timeout: 50, maxRetries: 2 });
    const calls: [() => PromiseLike<unknown>, string, string, string][] = [
      [() => t.client.sandbox.webhooks.add({ url: 'http://x/h' }), 'POST', '/sandbox/webhooks', '{"url":"http://x/h"}'],
      [() => t.client.sandbox.webhooks.rotateSecret('wh_1'), 'POST', '/sandbox/webhooks/wh_1/rotate-secret', ''],
      [() => t.client.sandbox.webhooks.remove('wh_1'), 'DELETE', '/sandbox/webhooks/wh_1', ''],
      [
        () => t.client.sandbox.webhooks.redeliver({ event_id: 'evt_1' }),
        'POST',
        '/sandbox/webhooks/deliveries/redeliver',
        '{"event_id":"evt_1"}',
      ],
      [
        () => t.client.sandbox.webhooks.redeliver({ failed: true }),
        'POST',
        '/sandbox/webhooks/deliveries/redeliver',
        '{"failed":true}',
      ],
    ];
    for (const [call, method, path, body] of calls) {
      server.requests.length = 0;
      await expect(call()).rejects.toBeInstanceOf(APITimeoutError);
      expect(server.requests.map((r) => [r.method, r.url, r.headers['x-api-key'], r.body.toString('utf8')])).toEqual([
        [method, path, KEY, body],
      ]);
    }
    server.requests.length = 0;
    await expect(t.client.sandbox.webhooks.deliveries({ failed: true, event_id: 'evt_1' })).rejects.toBeInstanceOf(
      APITimeoutError,
    );
    expect(server.requests.map((r) => r.url)).toEqual(
      Array(3).fill('/sandbox/webhooks/deliveries?failed=true&event_id=evt_1'),
    );
    server.requests.length = 0;
    await expect(t.client.sandbox.webhooks.deliveries({ limit: 20, cursor: 'dlv_1.we_1' })).rejects.toBeInstanceOf(
      APITimeoutError,
    );
    expect(server.requests.map((r) => r.url)).toEqual(
      Array(3).fill('/sandbox/webhooks/deliveries?limit=20&cursor=dlv_1.we_1'),
    );
    server.requests.length = 0;
    await expect(t.client.sandbox.webhooks.list()).rejects.toBeInstanceOf(APITimeoutError);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(Array(3).fill('GET /sandbox/webhooks'));
  });

  it('a body not matching the schema is refused', async () => {
    const { t } = await scripted.start(() => ({ status: 200, body: { webhooks: [{ id: 'wh_1' }] } }));
    await expect(t.client.sandbox.webhooks.list()).rejects.toThrow();
  });
});
