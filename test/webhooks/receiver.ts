// A real local webhook receiver for tests: records every request and answers as told; next() resolves on arrival.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How to answer: a status (and headers), or 'hang' (never answer). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  /** Every request so far, in arrival order. */
  received: Received[];
  /** Resolves with the next request not yet taken by next() (at once if one already arrived). */
  next(): Promise<Received>;
  /** Requests not yet taken by next(). */
  unread(): number;
  answer: (r: Received, n: number) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => ({ status: 200 }), port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Received[] = [];
  const waiters: ((r: Received) => void)[] = [];
  const hanging: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const a = rec.answer(r, received.length);
      if (a === 'hang') hanging.push(res);
      else {
        res.writeHead(a.status, a.headers);
        res.end('ok');
      }
      const w = waiters.shift();
      if (w) w(r);
      else queue.push(r);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const rec: Receiver = {
    url: `http://127.0.0.1:${actual}/hooks`,
    port: actual,
    received,
    answer,
    next: () => {
      const r = queue.shift();
      return r ? Promise.resolve(r) : new Promise((resolve) => waiters.push(resolve));
    },
    unread: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return rec;
}

/** A port that was bound and closed: nothing listens on it (until a receiver takes it again). */
export { deadPort as closedPort } from '../helpers/transport.js';
