// "RSS returns within 10 % of its start once they close": whatever a stream holds is let go when it
// closes. Stalled streams of every kind (the operations stream, the logs stream, a hosted page's events) on raw
// sockets that never read, sent events, then closed by their clients with events still waiting to go out: the
// stream gate, the service's write and close listeners and the streams waiting for a flush are all back to what they
// were. (A stream the sandbox drops for falling behind: test/http/stream-limits.test.ts.) Real sockets on
// 127.0.0.1; every wait is on an event.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { streamsAwaitingFlush } from '../../src/emulator/http/sse.js';
import { StreamGate } from '../../src/emulator/http/stream-gate.js';
import { DEFAULT_STREAM_LIMITS } from '../../src/emulator/server-limits.js';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const ADMIN = 'adm';
const PER_KIND = 12;

/** Wait for `cond` without sleeping: checked once per event-loop turn; the deadline only fails a test that hangs. */
async function until(what: string, cond: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** A raw socket asking for `path` that never reads past the status line; resolves with it and its status. */
function stalled(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ socket: Socket; status: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n')) return;
      socket.off('data', onData);
      socket.pause(); // never read again
      resolve({ socket, status: Number(head.split(' ')[1]) });
    };
    socket.on('data', onData);
    const lines = Object.entries({ host: 'sandbox', accept: 'text/event-stream', ...headers }).map(
      ([k, v]) => `${k}: ${v}`,
    );
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  });
}

describe('every stream closed, by the sandbox or its client', () => {
  const own = { gate: new StreamGate() };
  const h = useSandbox(() => {
    const streams = { perCredential: 64, total: 64 };
    own.gate = new StreamGate({ ...DEFAULT_STREAM_LIMITS, ...streams });
    return { transport: 'http', adminToken: ADMIN, streamGate: own.gate, limits: { streams } };
  });

  const create = async (path: string, moid: string): Promise<string> => {
    const res = await fetch(`${h.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': h.keyOf('shop_a') },
      body: JSON.stringify(paymentBody({ merchant_operation_id: moid })),
    });
    expect(res.status).toBeLessThan(300);
    return ((await res.json()) as { operation_id: string }).operation_id;
  };

  it('leaves nothing held: gate, listeners and flush set back to empty', async () => {
    const { service } = h.sandbox;
    const closeListeners = service.closeListeners.size;
    const port = Number(new URL(h.baseUrl).port);
    const pages: string[] = [];
    for (let i = 0; i < PER_KIND; i++) pages.push(await create('/v1/payment/link', `page-${i}`));
    const admin = { 'x-admin-token': ADMIN };
    const opened = await Promise.all([
      ...pages.map((id) => stalled(port, `/pay/${id}/events`, {})),
      ...pages.map(() => stalled(port, '/sandbox/operations/stream', admin)),
      ...pages.map(() => stalled(port, '/sandbox/logs/stream', admin)),
    ]);
    expect(opened.every((s) => s.status === 200)).toBe(true);
    expect(own.gate.size()).toBe(3 * PER_KIND);
    expect(service.writeListeners.size).toBe(2 * PER_KIND); // pages and operations
    expect(service.closeListeners.size).toBe(closeListeners + 2 * PER_KIND); // operations and logs
    // Creates the streams never read, the last just before their clients close them all (events waiting to go out).
    for (let i = 0; i < 5; i++) await create('/v1/payment', `stall-${i}`);
    for (const { socket } of opened) socket.destroy();
    await until('every stream let go', () => own.gate.size() === 0);
    await until('every flush done', () => streamsAwaitingFlush() === 0);
    expect(service.writeListeners.size).toBe(0);
    expect(service.closeListeners.size).toBe(closeListeners);
  });
});
