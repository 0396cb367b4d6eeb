// Owns the scripted fake gateway of the client suites, on either transport: a node:http server on 127.0.0.1:0, or a
// fetch handler reached in-process, that records each request and answers the n-th with `script(req, n)` (a status
// with a body, a hang until the client gives up, or a dropped connection); a Paygate client pointed at it with an
// instant retry sleep; and useScripted(), which closes every server and client a test started after it.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, errors, type Dispatcher } from 'undici';
import { createInProcessDispatcher, Paygate, type ClientOptions, type FetchHandler } from '../../src/client/index.js';
import { useCleanup } from './cleanup.js';
import { instantSleep, type Transport } from './transport.js';

export interface Recorded {
  method: string;
  /** Path and query, as the server saw them. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What a scripted server does for one request. */
export type Reply =
  { status: number; body?: unknown; headers?: Record<string, string>; raw?: string } | 'hang' | 'destroy';

export type Script = (req: Recorded, n: number) => Reply;

export interface TestServer {
  readonly transport: Transport;
  baseUrl: string;
  requests: Recorded[];
  /** A new dispatcher that reaches this server (an Agent over HTTP, or an in-process dispatcher). */
  dispatcher(): Dispatcher;
  close(): Promise<void>;
}

export const KEY = 'pk_test_0123456789abcdef';

/** The headers and payload of a status reply. */
function answer(reply: Exclude<Reply, 'hang' | 'destroy'>): { headers: Record<string, string>; payload: string } {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let payload = '';
  if (reply.raw !== undefined) payload = reply.raw;
  else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json';
  }
  return { headers, payload };
}

/** A server that answers the n-th request with `script(req, n)` (n from 0). */
export async function scriptedServer(script: Script, transport: Transport = 'http'): Promise<TestServer> {
  return transport === 'http' ? httpServer(script) : inProcessServer(script);
}

async function httpServer(script: Script): Promise<TestServer> {
  const requests: Recorded[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(rec);
      const reply = script(rec, requests.length - 1);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      if (reply === 'destroy') {
        req.socket.destroy();
        return;
      }
      const { headers, payload } = answer(reply);
      res.writeHead(reply.status, headers);
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    transport: 'http',
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    dispatcher: () => new Agent(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function inProcessServer(script: Script): TestServer {
  const requests: Recorded[] = [];
  const hanging = new Set<(reason: Error) => void>();
  const handler: FetchHandler = {
    async fetch(request) {
      const url = new URL(request.url);
      const rec: Recorded = {
        method: request.method,
        url: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        body: Buffer.from(await request.arrayBuffer()),
      };
      requests.push(rec);
      const reply = script(rec, requests.length - 1);
      if (reply === 'hang') {
        // Answers never; gives up when the client aborts (its timeout) or the server closes.
        return new Promise<Response>((_resolve, reject) => {
          const stop = (reason: Error) => {
            hanging.delete(stop);
            reject(reason);
          };
          hanging.add(stop);
          request.signal.addEventListener('abort', () => stop(request.signal.reason as Error), { once: true });
        });
      }
      // What undici reports when the server drops the connection.
      if (reply === 'destroy') throw new errors.SocketError('other side closed');
      const { headers, payload } = answer(reply);
      return new Response(payload === '' ? null : payload, { status: reply.status, headers });
    },
  };
  return {
    transport: 'in-process',
    baseUrl: 'http://scripted.local',
    requests,
    dispatcher: () => createInProcessDispatcher(handler),
    close: async () => {
      for (const stop of [...hanging]) stop(new errors.SocketError('server closed'));
    },
  };
}

export interface TestClient {
  client: Paygate;
  /** What the client's retry sleep was asked to wait, in ms. */
  waits: number[];
  close(): Promise<void>;
}

/**
 * A client of `target` (a scripted server, or a base URL reached over HTTP) with its own dispatcher (closed by `close`),
 * the test key, an instant sleep and no jitter.
 */
export function testClient(target: string | TestServer, overrides: Partial<ClientOptions> = {}): TestClient {
  const dispatcher = typeof target === 'string' ? new Agent() : target.dispatcher();
  const baseUrl = typeof target === 'string' ? target : target.baseUrl;
  const timing = instantSleep();
  const client = new Paygate({ baseUrl, apiKey: KEY, dispatcher, sleep: timing.sleep, random: () => 0, ...overrides });
  return { client, waits: timing.waits, close: () => dispatcher.close() };
}

export interface Scripted {
  readonly transport: Transport;
  /** A scripted server on this transport, closed after the test. */
  server(script: Script): Promise<TestServer>;
  /** A client of `target`, closed after the test. */
  client(target: string | TestServer, overrides?: Partial<ClientOptions>): TestClient;
  /** A server and a client of it. */
  start(script: Script, overrides?: Partial<ClientOptions>): Promise<{ server: TestServer; t: TestClient }>;
}

/** Scripted servers and their clients on `transport`; everything a test starts is closed after it (clients first). */
export function useScripted(transport: Transport = 'http'): Scripted {
  const defer = useCleanup();
  const server = async (script: Script) => {
    const s = await scriptedServer(script, transport);
    defer(() => s.close());
    return s;
  };
  const client = (target: string | TestServer, overrides: Partial<ClientOptions> = {}) => {
    const t = testClient(target, overrides);
    defer(() => t.close());
    return t;
  };
  return {
    transport,
    server,
    client,
    start: async (script, overrides = {}) => {
      const s = await server(script);
      return { server: s, t: client(s, overrides) };
    },
  };
}
