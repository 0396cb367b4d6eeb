// Test helpers of the client suite: a scripted node:http server on 127.0.0.1:0, valid wire bodies, an instant sleep.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { Paygate, type ClientOptions } from '../../src/client/index.js';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What a scripted server does for one request. */
export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string>; raw?: string }
  | 'hang'
  | 'destroy';

export interface TestServer {
  baseUrl: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A server that answers the n-th request with `script(req, n)` (n from 0). */
export async function scriptedServer(script: (req: Recorded, n: number) => Reply): Promise<TestServer> {
  const requests: Recorded[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
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
      const headers: Record<string, string> = { ...(reply.headers ?? {}) };
      let payload = '';
      if (reply.raw !== undefined) payload = reply.raw;
      else if (reply.body !== undefined) {
        payload = JSON.stringify(reply.body);
        headers['content-type'] ??= 'application/json';
      }
      res.writeHead(reply.status, headers);
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A sleep that returns at once and records what it was asked to wait. */
export function instantSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}

export const KEY = 'pk_test_0123456789abcdef';

/** A client with its own Agent (closed by `close`) and an instant sleep. */
export function testClient(baseUrl: string, overrides: Partial<ClientOptions> = {}) {
  const agent = new Agent();
  const timing = instantSleep();
  const client = new Paygate({ baseUrl, apiKey: KEY, dispatcher: agent, sleep: timing.sleep, random: () => 0, ...overrides });
  return { client, waits: timing.waits, close: () => agent.close() };
}

export const OPERATION = {
  operation_id: '0b5c7e52-4a8e-4c8f-9d0e-2f1a3b4c5d6e',
  type: 'payment',
  status: 'pending',
  method: 'WT_RUB_C2C',
  expected_amount: '100.00',
  actual_amount: '0.00',
  currency: 'RUB',
  settlement_amount: '97.00',
  settlement_currency: 'RUB',
  commission_amount: '3.00',
  number: '4111111111111111',
  name: 'Ivan',
} as const;

export const OPERATION_STATE = { ...OPERATION, receipts: [], receipt_evidence_status: 'not_ready' } as const;

export const BALANCES = { balances: [{ currency: 'RUB', balance: '0.00', current_minus: '0.00', reserved: '0.00' }] };

export const AVAILABILITY = {
  method: 'WT_RUB_C2C',
  currency: 'RUB',
  evaluated_at: '2025-01-01T00:00:00Z',
  coverage: 'full',
  reserved: false,
  truncated: false,
  intervals: [{ min_amount: '100.00', max_amount: '200.00' }],
};

export const CREATE = { client_id: 'c-1', method: 'WT_RUB_C2C', amount: '100.00', currency: 'RUB' } as const;

export function json(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8'));
}
