// Connection limits. There were none (1,500 connections sending a header line every 4 s, then 1,500 sending a
// body a byte every 3 s, all stayed open). Now a request must send its headers within headersTimeout and arrive
// whole within requestTimeout (408 and the connection closed), while an event stream — a long answer to a request
// that has arrived — outlives both; the server takes so many connections and answers the next one 503
// connections_full, clearly, and closes it; and a receipt upload that trickles in loses its queue place at the
// upload deadline (408 upload_timeout). Small configured limits, raw sockets on 127.0.0.1; every wait is on an event.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { receiptChecksOf } from '../../src/emulator/receipts/queue.js';
import { LIMIT_RETRY_AFTER_S, type ConnectionLimits, type StreamLimits } from '../../src/emulator/server-limits.js';
import { useSandbox } from '../helpers/sandbox.js';

const ADMIN = 'adm';

/** A raw connection to the sandbox: everything it receives, and a promise of its close. */
async function rawSocket(baseUrl: string): Promise<{
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  data: (has: string | ((text: string) => boolean)) => Promise<void>;
}> {
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  const waiters: Array<{ has: (text: string) => boolean; resolve: () => void }> = [];
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    text += chunk;
    for (const w of waiters.splice(0)) {
      if (w.has(text)) w.resolve();
      else waiters.push(w);
    }
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const data = (want: string | ((text: string) => boolean)) => {
    const has = typeof want === 'string' ? (t: string) => t.includes(want) : want;
    return has(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ has, resolve }));
  };
  return { socket, received: () => text, closed, data };
}

function limited(connections: Partial<ConnectionLimits>, streams: Partial<StreamLimits> = {}) {
  return useSandbox({
    transport: 'http',
    adminToken: ADMIN,
    limits: { connections: { checkIntervalMs: 20, ...connections }, streams },
  });
}

describe('request timeouts', () => {
  const h = limited({ headersTimeoutMs: 150, requestTimeoutMs: 300 }, { heartbeatMs: 40 });

  it('headers that never end: 408 and the connection closed after headersTimeout', async () => {
    const c = await rawSocket(h.baseUrl);
    c.socket.write('GET /livez HTTP/1.1\r\nHost: sandbox\r\nX-Slow: 1\r\n');
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a body that trickles in: 408 and the connection closed after requestTimeout', async () => {
    const c = await rawSocket(h.baseUrl);
    c.socket.write(
      `POST /v1/payment HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\nX-Api-Key: ${h.keyOf('shop_a')}\r\nContent-Length: 100\r\n\r\n{`,
    );
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an event stream outlives both: requestTimeout covers receiving the request, not the answer', async () => {
    const c = await rawSocket(h.baseUrl);
    c.socket.write(
      `GET /sandbox/logs/stream HTTP/1.1\r\nHost: sandbox\r\nX-Admin-Token: ${ADMIN}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    await c.data('\r\n\r\n');
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    // Keep-alive comments every 40 ms: the tenth comes well past the 300 ms request timeout (and several checks).
    await c.data((text) => text.split(': keep-alive').length > 10);
    expect(c.socket.destroyed).toBe(false);
    expect(c.received()).not.toMatch(/408/);
    c.socket.destroy();
    await c.closed;
  });
});

describe('connections', () => {
  const h = limited({ maxConnections: 2 });

  it('past maxConnections a new connection is answered 503 connections_full with Retry-After, and closed', async () => {
    const held = [await rawSocket(h.baseUrl), await rawSocket(h.baseUrl)];
    // Both are served (so the server holds them).
    for (const c of held) {
      c.socket.write('GET /livez HTTP/1.1\r\nHost: sandbox\r\n\r\n');
      await c.data('\r\n\r\n');
      expect(c.received()).toMatch(/^HTTP\/1\.1 2\d\d /);
    }
    const refused = await rawSocket(h.baseUrl);
    await refused.closed;
    const answer = refused.received();
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(new RegExp(`retry-after: ${LIMIT_RETRY_AFTER_S}\\r\\n`, 'i'));
    expect(answer).toMatch(/connection: close/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      code: 'connections_full',
      message: expect.stringMatching(/2 connections open/),
    });
    for (const c of held) {
      c.socket.destroy();
      await c.closed;
    }
  });
});

describe('receipt upload deadline', () => {
  const h = limited({ uploadDeadlineMs: 150 });

  it('an upload that trickles in is 408 upload_timeout at the deadline; its queue place is freed and the connection closed', async () => {
    const c = await rawSocket(h.baseUrl);
    const boundary = 'xyzzy';
    const start = `--${boundary}\r\nContent-Disposition: form-data; name="confirmation_type"\r\n\r\nreceipt\r\n`;
    c.socket.write(
      `POST /v1/confirm_payment HTTP/1.1\r\nHost: sandbox\r\nX-Api-Key: ${h.keyOf('shop_a')}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 5000\r\n\r\n${start}`,
    );
    const queue = receiptChecksOf(h.sandbox.service);
    await c.closed;
    const answer = c.received();
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'upload_timeout' });
    expect(queue.size()).toBe(0);
  });
});
