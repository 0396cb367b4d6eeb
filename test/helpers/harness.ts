// Test harness: one sandbox reached either in-process (sandbox.fetch) or over real HTTP on 127.0.0.1:0.
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/emulator/index.js';

export const KEY_A = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
export const KEY_B = 'pg_test_b_3Fk8Zp1YdQ6sWe5J';
export const KEY_POOL = 'pg_test_pool_9Ub4Rn2TgK7mXa1C';
export const KEY_REVOKED = 'pg_test_a_revoked_5Lw0Qe3Vb8';

export type Transport = 'in-process' | 'http';
export const TRANSPORTS: Transport[] = ['in-process', 'http'];

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
  sandbox: Sandbox;
  baseUrl: string;
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export async function harness(transport: Transport, opts: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await createSandbox(opts);
  let baseUrl = 'http://paygate.local';
  if (transport === 'http') baseUrl = (await sandbox.listen({ port: 0, host: '127.0.0.1' })).url;
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
    const req = new Request(baseUrl + path, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) });
    const res = transport === 'http' ? await fetch(req) : await sandbox.fetch(req);
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  return { sandbox, baseUrl, call, close: () => sandbox.close() };
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
