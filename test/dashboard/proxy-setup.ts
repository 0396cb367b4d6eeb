// Owns what the tests of the dashboard on the proxy share: a sandbox with `paygate proxy` in front of it (the
// conformance checker on), a payment created through the proxy, a drift fault on the upstream, and signing in to
// the proxy's dashboard over raw HTTP (the session cookie a browser would hold).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createConformanceChecker } from '../../src/conformance/index.js';
import type { Violation } from '../../src/conformance/types.js';
import { proxyDashboard } from '../../src/proxy/dashboard.js';
import type { SupportModel } from '../../src/proxy/support-model.js';
import { createProxy, type Proxy } from '../../src/proxy/server.js';
import { startSandbox, type TestSandbox } from '../../src/testing/index.js';
import type { Deferred } from '../helpers/cleanup.js';

export interface Proxied {
  sb: TestSandbox;
  proxy: Proxy;
  /** The proxy's base URL. */
  url: string;
}

export async function proxied(defer: (fn: Deferred) => void): Promise<Proxied> {
  const sb = await startSandbox();
  defer(() => sb.close());
  const proxy = createProxy({ upstream: new URL(sb.baseUrl), checker: createConformanceChecker() });
  const { url } = await proxy.listen();
  defer(() => proxy.close());
  return { sb, proxy, url };
}

/** A gateway call through the proxy with shop_a's key. */
export async function gateway(p: Proxied, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${p.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': p.sb.keys.shop_a!, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** A payment created through the proxy; its operation_id. */
export async function createThrough(p: Proxied, moid: string): Promise<string> {
  const op = await gateway(p, '/v1/payment', {
    merchant_operation_id: moid,
    client_id: 'dora',
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
  });
  expect(typeof op.operation_id).toBe('string');
  return op.operation_id as string;
}

/**
 * A payment created through the proxy, paid on the upstream, read through the proxy; then the upstream drifts
 * (its state read goes back to pending) and is read again: a state.illegal_move violation on the operation.
 */
export async function driftedPayment(p: Proxied, moid = 'drifted-1'): Promise<string> {
  const id = await createThrough(p, moid);
  await p.sb.pay(id);
  await gateway(p, '/v1/get_operation_state', { operation_id: id });
  const res = await fetch(`${p.sb.baseUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'x-admin-token': p.sb.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint: 'operation.state', drift: 'out_of_order' }),
  });
  expect(res.status).toBe(201);
  await gateway(p, '/v1/get_operation_state', { operation_id: id });
  return id;
}

/** POST the sign-in form to the proxy's dashboard as a browser on its page would; the answer (not followed). */
export function postSignIn(p: Proxied, credential: string): Promise<Response> {
  return fetch(`${p.url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ credential }).toString(),
  });
}

/** Sign in with the proxy's admin token; the Cookie header of the session. */
export async function signInProxy(p: Proxied): Promise<string> {
  const r = await postSignIn(p, p.proxy.adminToken);
  expect(r.status).toBe(303);
  return (r.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** GET a dashboard path on the proxy with the session's cookie. */
export async function page(
  p: Proxied,
  cookie: string,
  path: string,
): Promise<{ status: number; text: string; res: Response }> {
  const res = await fetch(`${p.url}/dashboard${path}`, { headers: { cookie }, redirect: 'manual' });
  return { status: res.status, text: await res.text(), res };
}

/**
 * The proxy's dashboard alone, over `model` (filled by the test) and `violations` (the checker's newest and count),
 * on 127.0.0.1 port 0; its URL and a signed-in session's Cookie header.
 */
export async function servedModel(
  defer: (fn: Deferred) => void,
  model: SupportModel,
  violations: (n: number) => { newest: readonly Violation[]; total: number } = () => ({ newest: [], total: 0 }),
): Promise<{ url: string; cookie: string }> {
  const adminToken = 'pg_proxy_test_token';
  const handler = proxyDashboard({ adminToken, model, violations });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  defer(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signIn = await fetch(`${url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ credential: adminToken }).toString(),
  });
  expect(signIn.status).toBe(303);
  return { url, cookie: (signIn.headers.get('set-cookie') ?? '').split(';')[0]! };
}
