// Owns one sandbox reached either in-process (sandbox.fetch) or over real HTTP on 127.0.0.1:0, raw calls to it
// (`call`), a count of the requests that reached it, the demo keys of the default fixtures and request bodies.
// Its lifecycle (before / after each test or file) is test/helpers/sandbox.ts's.
import type { Server } from 'node:http';
import type { FetchHandler } from '../../src/client/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/emulator/index.js';
import { TRANSPORTS, type Transport } from './transport.js';

export { TRANSPORTS, type Transport };

export const KEY_A = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
export const KEY_B = 'pg_test_b_3Fk8Zp1YdQ6sWe5J';
export const KEY_POOL = 'pg_test_pool_9Ub4Rn2TgK7mXa1C';
export const KEY_REVOKED = 'pg_test_a_revoked_5Lw0Qe3Vb8';

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string | Uint8Array;
  key?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
  headers: Headers;
}

export interface Harness {
  readonly transport: Transport;
  sandbox: Sandbox;
  baseUrl: string;
  /** The listening server ('http' only). */
  server: Server | undefined;
  /** The sandbox's fetch handler, counted in `served()`: what an in-process dispatcher should reach. */
  handler: FetchHandler;
  /** How many requests reached the sandbox so far (through `call`, `handler` or the server). */
  served(): number;
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export async function harness(transport: Transport, opts: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await createSandbox(opts);
  let baseUrl = 'http://paygate.local';
  let server: Server | undefined;
  let served = 0;
  if (transport === 'http') {
    try {
      ({ url: baseUrl, server } = await sandbox.listen({ port: 0, host: '127.0.0.1' }));
    } catch (err) {
      await sandbox.close();
      throw err;
    }
    server.on('request', () => served++);
  }
  const handler: FetchHandler = {
    fetch: (request) => {
      served++;
      return sandbox.fetch(request);
    },
  };
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? KEY_A : o.key;
    if (key !== null) headers['x-api-key'] = key;
    let body: string | Uint8Array | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const req = new Request(baseUrl + path, {
      method,
      headers,
      redirect: 'manual',
      ...(body !== undefined ? { body } : {}),
    });
    const res = transport === 'http' ? await fetch(req) : await handler.fetch(req);
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  return { transport, sandbox, baseUrl, server, handler, served: () => served, call, close: () => sandbox.close() };
}

let seq = 0;
/** A create body for shop A's card rail, with a fresh merchant_operation_id unless given. */
export function paymentBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  seq++;
  return {
    merchant_operation_id: `moid-${process.pid}-${seq}`,
    client_id: 'client-1',
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
    ...over,
  };
}

export function payoutBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return paymentBody({ number: '2200700000000004', ...over });
}
