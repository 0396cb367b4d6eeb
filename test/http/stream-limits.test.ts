// Stalled server-sent-event streams buffered without limit (200 raw connections to the ops
// stream that never read: creates 3× slower, +163 MB that stayed). Every SSE stream of the emulator (the ops stream,
// the logs stream, the hosted page's events) now goes through one bounded helper: a client that stops reading is
// dropped once what waits for it passes the configured bytes or events (its listener removed, its queue let go);
// a credential may have so many streams open (429 streams_busy) and the server so many in all (503 streams_full),
// both with a JSON body and Retry-After; a closed stream gives its place and its listener back. Driven with small
// configured limits; nothing waits on the wall clock.
import { describe, expect, it } from 'vitest';
import { StreamGate } from '../../src/emulator/http/stream-gate.js';
import { DEFAULT_STREAM_LIMITS, LIMIT_RETRY_AFTER_S, type StreamLimits } from '../../src/emulator/server-limits.js';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox, type SandboxUnderTest } from '../helpers/sandbox.js';

const ADMIN = 'adm';
const T0 = '2026-01-01T00:00:00.000Z';

/** Wait for `cond` without sleeping: checked once per event-loop turn; the deadline only fails a test that hangs. */
async function until(what: string, cond: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** A sandbox per test with its own stream gate (under `gate`), of the given limits. */
function streamed(limits: Partial<StreamLimits>, transport: 'http' | 'in-process') {
  const own = { gate: new StreamGate() };
  const h = useSandbox(() => {
    own.gate = new StreamGate({ ...DEFAULT_STREAM_LIMITS, ...limits });
    return {
      transport,
      frozenClock: true,
      startTime: T0,
      adminToken: ADMIN,
      streamGate: own.gate,
      limits: { streams: limits },
    };
  });
  return { h, own };
}

async function createPayment(h: SandboxUnderTest, moid: string, path = '/v1/payment'): Promise<string> {
  const res = await h.sandbox.fetch(
    new Request(`http://sandbox.local${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': h.keyOf('shop_a') },
      body: JSON.stringify(paymentBody({ merchant_operation_id: moid })),
    }),
  );
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { operation_id: string }).operation_id;
}

describe('a client that stops reading is dropped', () => {
  const { h, own } = streamed({ maxBufferedEvents: 8, maxBufferedBytes: 1024 * 1024 }, 'in-process');

  it('past its bound in events: the stream errors, its listener is removed and its place freed', async () => {
    const res = await h.sandbox.fetch(
      new Request('http://sandbox.local/sandbox/operations/stream', { headers: { 'x-admin-token': ADMIN } }),
    );
    expect(res.status).toBe(200);
    expect(h.sandbox.service.writeListeners.size).toBe(1);
    expect(own.gate.size()).toBe(1);
    // Nobody reads the body: each create queues one event.
    for (let i = 0; i < 8; i++) await createPayment(h, `stall-${i}`);
    expect(own.gate.dropped).toBe(0);
    expect(own.gate.size()).toBe(1);
    await createPayment(h, 'stall-8');
    await createPayment(h, 'stall-9');
    expect(own.gate.dropped).toBe(1);
    expect(own.gate.size()).toBe(0);
    expect(h.sandbox.service.writeListeners.size).toBe(0);
    // What it had queued is gone: the reader sees the stream fail, not a backlog.
    await expect(res.body!.getReader().read()).rejects.toThrow(/fell behind/);
  });

  it('a client that reads keeps its stream: the bound is on what waits, not on what was sent', async () => {
    const res = await h.sandbox.fetch(
      new Request('http://sandbox.local/sandbox/operations/stream', { headers: { 'x-admin-token': ADMIN } }),
    );
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (let i = 0; i < 30; i++) {
      await createPayment(h, `read-${i}`);
      while (!text.includes(`read-${i}`)) text += (await reader.read()).value ?? '';
    }
    expect(own.gate.dropped).toBe(0);
    expect(own.gate.size()).toBe(1);
    await reader.cancel();
    await until('the cancelled stream is let go', () => own.gate.size() === 0);
    expect(h.sandbox.service.writeListeners.size).toBe(0);
  });
});

describe('past its bound in bytes', () => {
  const { h, own } = streamed({ maxBufferedEvents: 10_000, maxBufferedBytes: 2048 }, 'in-process');

  it('the logs stream drops a client that let more than maxBufferedBytes wait; a requested backlog is let through', async () => {
    for (let i = 0; i < 20; i++) await h.sandbox.fetch(new Request('http://sandbox.local/livez'));
    // A backlog of 20 entries (over 2 KiB) is what the client asked for: it is not held against it.
    const res = await h.sandbox.fetch(
      new Request('http://sandbox.local/sandbox/logs/stream?backlog=20', { headers: { 'x-admin-token': ADMIN } }),
    );
    expect(res.status).toBe(200);
    expect(own.gate.size()).toBe(1);
    let n = 0;
    while (own.gate.dropped === 0 && n < 200) {
      await h.sandbox.fetch(new Request('http://sandbox.local/livez'));
      n++;
    }
    expect(own.gate.dropped).toBe(1);
    // Each entry is more than 100 bytes: 2 KiB over the backlog is passed within some 20 requests.
    expect(n).toBeLessThan(25);
    expect(own.gate.size()).toBe(0);
    await expect(res.body!.getReader().read()).rejects.toThrow(/fell behind/);
  });
});

describe('reconnecting with Last-Event-ID', () => {
  const { h, own } = streamed({}, 'in-process');
  const logsStream = (headers: Record<string, string> = {}) =>
    h.sandbox.fetch(
      new Request('http://sandbox.local/sandbox/logs/stream?path=/livez', {
        headers: { 'x-admin-token': ADMIN, ...headers },
      }),
    );
  const livez = (n: number) => h.sandbox.fetch(new Request(`http://sandbox.local/livez?n=${n}`));

  it('the logs stream sends each entry with its id; a client that reconnects gets what it missed, in order', async () => {
    const first = (await logsStream()).body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    await livez(1);
    await livez(2);
    while (!text.includes('n=2')) text += (await first.read()).value ?? '';
    const ids = [...text.matchAll(/^id: (req_\d+)$/gm)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    await first.cancel();
    await until('the first stream is let go', () => own.gate.size() === 0);
    // Missed while away: 3 and 4.
    await livez(3);
    await livez(4);
    const again = (await logsStream({ 'last-event-id': ids[1]! }))
      .body!.pipeThrough(new TextDecoderStream())
      .getReader();
    let more = '';
    await livez(5);
    while (!more.includes('n=5')) more += (await again.read()).value ?? '';
    expect([...more.matchAll(/"path":"\/livez\?n=(\d)"/g)].map((m) => m[1])).toEqual(['3', '4', '5']);
    await again.cancel();
  });
});

describe('streams per credential and in all', () => {
  const { h, own } = streamed({ perCredential: 2, total: 3 }, 'http');

  const open = (path: string, headers: Record<string, string>, signal: AbortSignal) =>
    fetch(`${h.baseUrl}${path}`, { headers, signal });

  it('one more than a credential may have is 429 streams_busy, one more than the server takes is 503 streams_full; a closed one gives its place back', async () => {
    const a = { 'x-api-key': h.keyOf('shop_a') };
    const b = { 'x-api-key': h.keyOf('shop_b') };
    const ac = new AbortController();
    const first = await open('/sandbox/operations/stream', a, ac.signal);
    const second = await open('/sandbox/logs/stream', a, ac.signal);
    expect([first.status, second.status]).toEqual([200, 200]);

    const busy = await fetch(`${h.baseUrl}/sandbox/operations/stream`, { headers: a });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe(String(LIMIT_RETRY_AFTER_S));
    expect(busy.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await busy.json()).toMatchObject({
      code: 'streams_busy',
      message: expect.stringMatching(/2 event streams open/),
    });

    const ac2 = new AbortController();
    const third = await open('/sandbox/operations/stream', b, ac2.signal);
    expect(third.status).toBe(200);
    expect(own.gate.size()).toBe(3);
    const full = await fetch(`${h.baseUrl}/sandbox/operations/stream`, { headers: { 'x-admin-token': ADMIN } });
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe(String(LIMIT_RETRY_AFTER_S));
    expect(await full.json()).toMatchObject({ code: 'streams_full' });

    // Closing a's two streams gives their places (and listeners) back.
    ac.abort();
    await until('the closed streams are let go', () => own.gate.size() === 1);
    expect(own.gate.size('key:shop_a')).toBe(0);
    expect(h.sandbox.service.writeListeners.size).toBe(1);
    const again = await open('/sandbox/operations/stream', a, ac2.signal);
    expect(again.status).toBe(200);
    ac2.abort();
    await until('every stream let go', () => own.gate.size() === 0);
    expect(h.sandbox.service.writeListeners.size).toBe(0);
  });

  it("the hosted page's events count under the page and among the server's", async () => {
    const id = await createPayment(h, 'page-1', '/v1/payment/link');
    const ac = new AbortController();
    const page = (signal?: AbortSignal) => fetch(`${h.baseUrl}/pay/${id}/events`, signal ? { signal } : {});
    expect((await page(ac.signal)).status).toBe(200);
    expect((await page(ac.signal)).status).toBe(200);
    expect(own.gate.size(`page:${id}`)).toBe(2);
    const busy = await page();
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe(String(LIMIT_RETRY_AFTER_S));
    expect(await busy.json()).toMatchObject({ code: 'streams_busy' });
    ac.abort();
    await until('the page streams are let go', () => own.gate.size() === 0);
    expect(h.sandbox.service.writeListeners.size).toBe(0);
  });
});
