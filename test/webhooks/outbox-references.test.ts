// A delivery names its endpoint instead of carrying a copy of its URL: an attempt reads the URL when
// it is sent, a removed endpoint's pending deliveries end at once (failed, endpoint_deleted) and are never sent, and
// stores written by the earlier version (delivery rows with `url`, `shop_id`, `event_type`) still open.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxState } from '../../src/store/state.js';
import { paymentBody, type Harness } from '../helpers/harness.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { closedPort, startReceiver, type Receiver } from './receiver.js';

const defer = useCleanup();
const open = useSandboxes(defer);
const T0 = '2026-03-01T12:00:00.000Z';

async function receiver(answer?: Receiver['answer'], port?: number): Promise<Receiver> {
  const r = await startReceiver(answer, port);
  defer(() => r.close());
  return r;
}

async function create(h: Harness): Promise<void> {
  const r = await h.call('POST', '/v1/payment', { body: paymentBody() });
  expect(r.status, r.text).toBe(200);
}

/** Apply `edit` to every webhook_deliveries row of the store's snapshot and journal, as an earlier version wrote them. */
function rewriteDeliveryRows(store: string, edit: (row: Record<string, unknown>) => void): number {
  let n = 0;
  if (existsSync(store)) {
    // Snapshot version 2: a header line, then `"<collection>"\t"<id>"\t<entity JSON>` per entity, then an end line.
    const lines = readFileSync(store, 'utf8').split('\n').filter(Boolean);
    const out = lines.map((line) => {
      const [c, id, json] = line.split('\t');
      if (json === undefined || JSON.parse(c!) !== 'webhook_deliveries') return line;
      const row = JSON.parse(json) as Record<string, unknown>;
      edit(row);
      n++;
      return `${c}\t${id}\t${JSON.stringify(row)}`;
    });
    writeFileSync(store, out.map((l) => `${l}\n`).join(''));
  }
  const journal = `${store}.journal`;
  if (existsSync(journal)) {
    const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    const out = lines.map((l) => {
      const rec = JSON.parse(l) as { seq: number; ch: { c: string; v: Record<string, unknown> }[] };
      for (const ch of rec.ch.filter((x) => x.c === 'webhook_deliveries')) {
        edit(ch.v);
        n++;
      }
      return JSON.stringify(rec);
    });
    writeFileSync(journal, out.map((l) => `${l}\n`).join(''));
  }
  return n;
}

/** The attempts kept in each delivery row of the store, moved out to rows of their own (`webhook_attempts`), as the earlier version stored them. */
function splitAttemptRows(store: string): number {
  let n = 0;
  const split = (v: Record<string, unknown>): Record<string, unknown>[] => {
    const attempts = (v.attempts as Record<string, unknown>[] | undefined) ?? [];
    delete v.attempts;
    n += attempts.length;
    return attempts.map((a, i) => ({ id: `${String(v.id)}.${i + 1}`, delivery_id: v.id, ...a }));
  };
  const lines = readFileSync(store, 'utf8').split('\n').filter(Boolean);
  const entities: string[] = [];
  for (const line of lines.slice(1, -1)) {
    const [c, id, json] = line.split('\t');
    if (JSON.parse(c!) !== 'webhook_deliveries') {
      entities.push(line);
      continue;
    }
    const row = JSON.parse(json!) as Record<string, unknown>;
    const rows = split(row);
    entities.push(
      `${c}\t${id}\t${JSON.stringify(row)}`,
      ...rows.map((r) => `"webhook_attempts"\t${JSON.stringify(r.id)}\t${JSON.stringify(r)}`),
    );
  }
  writeFileSync(store, [lines[0], ...entities, JSON.stringify({ end: entities.length })].map((l) => `${l}\n`).join(''));
  const journal = `${store}.journal`;
  if (existsSync(journal)) {
    const out = readFileSync(journal, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const rec = JSON.parse(l) as { seq: number; ch: { c: string; v: Record<string, unknown> }[] };
        rec.ch = rec.ch.flatMap((ch) =>
          ch.c === 'webhook_deliveries' ? [ch, ...split(ch.v).map((v) => ({ c: 'webhook_attempts', v }))] : [ch],
        );
        return JSON.stringify(rec);
      });
    writeFileSync(journal, out.map((l) => `${l}\n`).join(''));
  }
  return n;
}

describe('deliveries refer to their endpoint', () => {
  it('removing an endpoint ends its pending deliveries at once (failed, endpoint_deleted); none is sent afterwards or redelivered', async () => {
    const rx = await receiver(() => ({ status: 500 }));
    const h = await open({ frozenClock: true, startTime: T0 });
    const ep = (await h.call('POST', '/sandbox/webhooks', { body: { url: rx.url } })).body as { id: string };
    await create(h);
    await rx.next();
    await h.sandbox.webhooks.idle();
    const [pending] = h.sandbox.webhooks.deliveries('shop_a');
    expect(pending).toMatchObject({ status: 'pending', next_attempt_at: '2026-03-01T12:00:05.000Z' });

    expect((await h.call('DELETE', `/sandbox/webhooks/${ep.id}`)).status).toBe(200);
    // In the removal's own commit, not when its next attempt falls due.
    const [ended] = (await h.call('GET', '/sandbox/webhooks/deliveries')).body.deliveries as {
      status: string;
      error?: string;
      next_attempt_at: string | null;
      url: string;
    }[];
    expect(ended).toMatchObject({ status: 'failed', error: 'endpoint_deleted', next_attempt_at: null, url: rx.url });
    await h.sandbox.clock.advance(48 * 3_600_000);
    await h.sandbox.webhooks.idle();
    expect(rx.received).toHaveLength(1);
    const again = await h.call('POST', '/sandbox/webhooks/deliveries/redeliver', { body: { failed: true } });
    expect(again.body).toEqual({ scheduled: 0, deliveries: [] });
    expect(rx.received).toHaveLength(1);
  });

  it('an attempt on the wire when its endpoint is removed is recorded, and its delivery is not retried', async () => {
    const rx = await receiver(() => 'hang');
    const h = await open({ frozenClock: true, startTime: T0, webhookTimeoutMs: 50 });
    const ep = (await h.call('POST', '/sandbox/webhooks', { body: { url: rx.url } })).body as { id: string };
    await create(h);
    // On the wire, hanging until the 50 ms attempt timeout; on a loaded machine the timeout can come before the
    // request reaches the receiver, so wait for whichever comes first rather than for the arrival alone.
    await Promise.race([rx.next(), h.sandbox.webhooks.idle()]);
    expect((await h.call('DELETE', `/sandbox/webhooks/${ep.id}`)).status).toBe(200);
    await h.sandbox.webhooks.idle();
    const [d] = h.sandbox.webhooks.deliveries('shop_a');
    expect(d).toMatchObject({ status: 'failed', error: 'endpoint_deleted', next_attempt_at: null });
    expect(d!.attempts).toHaveLength(1);
    expect(d!.attempts[0]!.error).toMatch(/timed out/);
    await h.sandbox.clock.advance(3_600_000);
    await h.sandbox.webhooks.idle();
    // The one attempt (which may have timed out before reaching the receiver) and never a retry.
    expect(rx.received.length).toBeLessThanOrEqual(1);
  });

  it('a changed endpoint URL (another --webhook-url on restart): pending deliveries go to the new URL, never the old one', async () => {
    const dir = tempDir(defer, 'paygate-wh-ref-');
    const store = join(dir, 'sandbox.json');
    const oldRx = await receiver(() => ({ status: 500 }));
    const first = await open({ store, frozenClock: true, startTime: T0, webhookUrl: oldRx.url });
    await create(first);
    await oldRx.next();
    await first.sandbox.webhooks.idle();
    await first.close();

    const newRx = await receiver(() => ({ status: 204 }));
    const second = await open({ store, frozenClock: true, startTime: T0, webhookUrl: newRx.url });
    await second.sandbox.clock.advance(5_000);
    await newRx.next();
    await second.sandbox.webhooks.idle();
    expect(oldRx.received).toHaveLength(1);
    const [d] = second.sandbox.webhooks.deliveries('shop_a');
    expect(d).toMatchObject({ status: 'succeeded', url: newRx.url });
    expect(d!.attempts.map((a) => a.status_code)).toEqual([500, 204]);
  });

  it('a store whose delivery rows carry the old copies (url, shop_id, event_type) opens; attempts go to the endpoint', async () => {
    const dir = tempDir(defer, 'paygate-wh-old-');
    const store = join(dir, 'sandbox.json');
    const port = await closedPort();
    const opts = { store, frozenClock: true, startTime: T0, webhookUrl: `http://127.0.0.1:${port}/hooks` };
    const first = await open(opts);
    await create(first);
    await first.sandbox.webhooks.idle();
    const eventId = first.sandbox.webhooks.deliveries('shop_a')[0]!.event_id;
    await first.close();
    // The previous version's row shape, with a URL that is no longer the endpoint's.
    const rewritten = rewriteDeliveryRows(store, (row) =>
      Object.assign(row, { url: 'http://127.0.0.1:9/stale', shop_id: 'shop_a', event_type: 'operation.pending' }),
    );
    expect(rewritten).toBeGreaterThan(0);

    const rx = await receiver(() => ({ status: 204 }), port);
    const second = await open(opts);
    const row = second.sandbox.store.state.webhookDeliveries.values().next().value!;
    expect(row).not.toHaveProperty('url');
    expect(row).not.toHaveProperty('shop_id');
    const listed = (await second.call('GET', '/sandbox/webhooks/deliveries')).body as {
      deliveries: { event_id: string; event_type: string; url: string; status: string }[];
    };
    expect(listed.deliveries).toEqual([
      expect.objectContaining({
        event_id: eventId,
        event_type: 'operation.pending',
        url: opts.webhookUrl,
        status: 'pending',
      }),
    ]);
    await second.sandbox.clock.advance(5_000);
    expect((await rx.next()).headers['webhook-id']).toBe(eventId);
    await second.sandbox.webhooks.idle();
    expect(second.sandbox.webhooks.deliveries('shop_a')[0]!.status).toBe('succeeded');
  });

  it('a store that kept each attempt in a row of its own opens with the attempts in their deliveries; the schedule goes on from them', async () => {
    const dir = tempDir(defer, 'paygate-wh-attempt-rows-');
    const store = join(dir, 'sandbox.json');
    const rx = await receiver(() => ({ status: 500 }));
    const opts = { store, frozenClock: true, startTime: T0, webhookUrl: rx.url };
    const first = await open(opts);
    await create(first);
    await rx.next();
    await first.sandbox.webhooks.idle();
    await first.sandbox.clock.advance(5_000);
    await rx.next();
    await first.sandbox.webhooks.idle();
    await first.close();
    expect(splitAttemptRows(store)).toBe(2);
    expect(readFileSync(store, 'utf8')).toContain('"webhook_attempts"');

    const second = await open(opts);
    const [d] = second.sandbox.webhooks.deliveries('shop_a');
    expect(d!.attempts.map((a) => a.status_code)).toEqual([500, 500]);
    // Two attempts made: the third falls due 5 minutes after the second (the schedule's third step).
    expect(d!.next_attempt_at).toBe('2026-03-01T12:05:05.000Z');
    await second.sandbox.clock.advance(5 * 60_000 + 5_000); // the reopened sandbox's clock starts at T0 again
    await rx.next();
    await second.sandbox.webhooks.idle();
    const [after] = second.sandbox.webhooks.deliveries('shop_a');
    expect(after!.attempts.map((a) => a.status_code)).toEqual([500, 500, 500]);
    expect(after!.next_attempt_at).toBe('2026-03-01T12:35:05.000Z');
    await second.close();
    // Written back in the current shape: the attempts inside the delivery, no attempt rows.
    expect(readFileSync(store, 'utf8')).not.toContain('"webhook_attempts"');
  });

  it('a store whose attempts carry no webhook_timestamp (stamped in sandbox time) opens; new attempts record theirs', async () => {
    const dir = tempDir(defer, 'paygate-wh-no-timestamp-');
    const store = join(dir, 'sandbox.json');
    const rx = await receiver(() => ({ status: 500 }));
    const opts = { store, frozenClock: true, startTime: T0, webhookUrl: rx.url };
    const first = await open(opts);
    await create(first);
    await rx.next();
    await first.sandbox.webhooks.idle();
    await first.close();
    const stripped = rewriteDeliveryRows(store, (row) => {
      for (const a of (row.attempts ?? []) as Record<string, unknown>[]) delete a.webhook_timestamp;
    });
    expect(stripped).toBeGreaterThan(0);
    expect(
      readFileSync(store, 'utf8') + (existsSync(`${store}.journal`) ? readFileSync(`${store}.journal`, 'utf8') : ''),
    ).not.toContain('webhook_timestamp');

    const second = await open(opts);
    await second.sandbox.clock.advance(5_000);
    const retried = await rx.next();
    await second.sandbox.webhooks.idle();
    const listed = await second.call('GET', '/sandbox/webhooks/deliveries');
    expect(listed.status, listed.text).toBe(200);
    const attempts = listed.body.deliveries[0].attempts as { webhook_timestamp?: number }[];
    expect(attempts).toHaveLength(2);
    expect('webhook_timestamp' in attempts[0]!).toBe(false);
    expect(attempts[1]!.webhook_timestamp).toBe(Number(retried.headers['webhook-timestamp']));
    await second.close();
  });

  it('SandboxState: attempt rows join their delivery once (those a rewritten delivery already holds are skipped; orphans dropped)', () => {
    const state = new SandboxState();
    const a1 = { at: T0, status_code: 500, duration_ms: 3 };
    const a2 = { at: T0, error: 'ECONNREFUSED: connect', duration_ms: 1 };
    const d = {
      id: 'dlv_x.we_1',
      event_id: 'evt_x',
      endpoint_id: 'we_1',
      status: 'pending',
      round_start: 0,
      next_attempt_at: T0,
      created_at: T0,
      attempts: [a1],
    };
    state.load({
      webhook_deliveries: [d],
      webhook_attempts: [
        { id: `${d.id}.1`, delivery_id: d.id, ...a1 },
        { id: `${d.id}.2`, delivery_id: d.id, ...a2 },
        { id: 'dlv_gone.we_1.1', delivery_id: 'dlv_gone.we_1', ...a1 },
      ],
    });
    expect(state.webhookDeliveries.get(d.id)!.attempts).toEqual([a1, a2]);
    expect(state.webhookDeliveries.has('dlv_gone.we_1')).toBe(false);
    expect(state.snapshot().webhook_attempts ?? []).toEqual([]);
  });

  it('SandboxState loads old-shape rows (indexed by their shop when the endpoint record is missing) and takes back a failed write', () => {
    const state = new SandboxState();
    const old = {
      id: 'dlv_x.we_gone',
      event_id: 'evt_x',
      event_type: 'operation.pending',
      shop_id: 'shop_a',
      endpoint_id: 'we_gone',
      url: 'http://x/y',
      status: 'failed',
      round_start: 0,
      next_attempt_at: null,
      created_at: T0,
    };
    state.load({ webhook_deliveries: [old] });
    expect(state.webhookDeliveries.get(old.id)).toEqual({
      id: old.id,
      event_id: 'evt_x',
      endpoint_id: 'we_gone',
      status: 'failed',
      round_start: 0,
      next_attempt_at: null,
      created_at: T0,
    });
    expect(state.deliveryIndex.of('shop_a')).toEqual([old.id]);

    const ep = {
      id: 'we_1',
      shop_id: 'shop_b',
      url: 'http://x/1',
      secret: 's',
      previous_secrets: [],
      source: 'api' as const,
      created_at: T0,
    };
    state.apply([{ kind: 'webhook_endpoint', endpoint: ep }]);
    const d = {
      id: 'dlv_y.we_1',
      event_id: 'evt_y',
      endpoint_id: 'we_1',
      status: 'pending' as const,
      round_start: 0,
      next_attempt_at: T0,
      created_at: T0,
    };
    const applied = state.apply([{ kind: 'webhook_delivery', delivery: d }]);
    expect(state.deliveryIndex.of('shop_b')).toEqual([d.id]);
    applied.undo();
    expect(state.deliveryIndex.of('shop_b')).toEqual([]);
    expect(state.webhookDeliveries.has(d.id)).toBe(false);
  });
});
