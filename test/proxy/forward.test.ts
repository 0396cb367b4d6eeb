// paygate proxy's forwarding (issue 27 §1): every /v1 request and health probe reaches the upstream unchanged
// (method, path, query, body bytes, headers but the hop-by-hop ones; the caller's X-API-Key too) and the answer
// comes back unchanged; the key never appears in an Exchange or in the proxy's views; an upstream that cannot be
// reached is a 502 with a JSON body.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createProxy, type Proxy } from '../../src/proxy/server.js';
import { startSandbox } from '../../src/testing/index.js';
import { useCleanup } from '../helpers/cleanup.js';

const defer = useCleanup();
const KEY = 'pg_test_a_7Hq2Lm9XwR4tNc8V';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** An upstream that records what it got and answers with `answer`. */
async function recordingUpstream(
  answer: (req: Seen, res: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      answer(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  defer(() => new Promise<void>((r) => server.close(() => r())));
  defer(() => server.closeAllConnections());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function proxyTo(
  upstream: string,
  extra: Partial<Parameters<typeof createProxy>[0]> = {},
): Promise<{ proxy: Proxy; url: string }> {
  const proxy = createProxy({ upstream: new URL(upstream), ...extra });
  const { url } = await proxy.listen({ port: 0 });
  defer(() => proxy.close());
  return { proxy, url };
}

describe('paygate proxy forwarding', () => {
  it('sends method, path, query, body bytes and headers on unchanged, and the answer back unchanged', async () => {
    const up = await recordingUpstream((_s, res) => {
      res.writeHead(418, { 'content-type': 'text/plain; charset=utf-8', 'x-upstream': 'yes', 'retry-after': '7' });
      res.end('not json — тело\n');
    });
    const { proxy, url } = await proxyTo(`${up.url}/prefix`);
    const body = Buffer.from('{"amount":"1500.00","client_id":"alice","note":"ü"}');
    const res = await fetch(`${url}/v1/payment?a=1&b=two%20words`, {
      method: 'POST',
      headers: { 'X-API-Key': KEY, 'content-type': 'application/json', 'x-custom': 'kept', 'idempotency-key': 'k1' },
      body,
    });
    expect(res.status).toBe(418);
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(Buffer.from(await res.arrayBuffer()).toString('utf8')).toBe('not json — тело\n');
    const got = up.seen[0]!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/prefix/v1/payment?a=1&b=two%20words');
    expect(got.body.equals(body)).toBe(true);
    expect(got.headers['x-api-key']).toBe(KEY);
    expect(got.headers['x-custom']).toBe('kept');
    expect(got.headers['idempotency-key']).toBe('k1');
    expect(got.headers['content-length']).toBe(String(body.length));
    // The Exchange: no key, only its fingerprint; the body parsed, the answer's text kept.
    const x = proxy.exchanges[0]!;
    expect(JSON.stringify(x)).not.toContain(KEY);
    expect(x.credential).toMatch(/^key_[0-9a-f]{12}$/);
    expect(x.request).toMatchObject({ method: 'POST', path: '/v1/payment', query: { a: '1', b: 'two words' } });
    expect(x.request.body).toEqual({ amount: '1500.00', client_id: 'alice', note: 'ü' });
    expect(x.request.headers['x-api-key']).toBeUndefined();
    expect(x.response).toMatchObject({ status: 418, bodyText: 'not json — тело\n' });
  });

  it('forwards the health probes and a GET without a body; answers other paths itself (404)', async () => {
    const up = await recordingUpstream((s, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: s.url }));
    });
    const { url } = await proxyTo(up.url);
    for (const p of ['/livez', '/healthz', '/readyz', '/v1/balances']) {
      const res = await fetch(`${url}${p}`, { headers: { 'x-api-key': KEY } });
      expect(await res.json()).toEqual({ path: p });
    }
    expect(up.seen.every((s) => s.body.length === 0 && s.headers['transfer-encoding'] === undefined)).toBe(true);
    const other = await fetch(`${url}/sandbox/clock`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { message: string }).message).toContain('/proxy/violations');
    expect(up.seen).toHaveLength(4);
  });

  it('passes a multipart receipt upload through byte for byte: the sandbox answers as it would directly', async () => {
    const sb = await startSandbox();
    defer(() => sb.close());
    const { proxy, url } = await proxyTo(sb.baseUrl);
    const create = await fetch(`${url}/v1/payment`, {
      method: 'POST',
      headers: { 'x-api-key': sb.keys.shop_a!, 'content-type': 'application/json' },
      body: JSON.stringify({
        merchant_operation_id: 'order-rita-1',
        client_id: 'rita+receipt',
        method: 'WT_RUB_C2C',
        amount: '1500.00',
        currency: 'RUB',
      }),
    });
    expect(create.status).toBe(200);
    const op = (await create.json()) as { operation_id: string; status: string };
    expect(op.status).toBe('awaiting_confirmation');
    const pdf = readFileSync(new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url));
    const form = new FormData();
    form.set('operation_id', op.operation_id);
    form.set('confirmation_type', 'receipt');
    form.set('receipt', new Blob([pdf], { type: 'application/pdf' }), 'receipt.pdf');
    const confirm = await fetch(`${url}/v1/confirm_payment`, {
      method: 'POST',
      headers: { 'x-api-key': sb.keys.shop_a! },
      body: form,
    });
    expect(confirm.status).toBe(200);
    expect(((await confirm.json()) as { status: string }).status).toBe('completed');
    const x = proxy.exchanges[1]!;
    expect(x.request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(x.request.body).toBeUndefined();
    expect(x.request.bodyText).toBeUndefined();
  });

  it('streams a multipart body to the upstream unchanged (the bytes the upstream got are the bytes sent)', async () => {
    const up = await recordingUpstream((_s, res) => res.end());
    const { url } = await proxyTo(up.url);
    const pdf = readFileSync(new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url));
    const req = new Request(`${url}/v1/confirm_payment`, {
      method: 'POST',
      body: (() => {
        const f = new FormData();
        f.set('operation_id', 'x');
        f.set('receipt', new Blob([pdf], { type: 'application/pdf' }), 'r.pdf');
        return f;
      })(),
    });
    const sent = Buffer.from(await req.clone().arrayBuffer());
    await fetch(req);
    expect(up.seen[0]!.body.equals(sent)).toBe(true);
    expect(up.seen[0]!.headers['content-type']).toBe(req.headers.get('content-type'));
  });

  it('answers 502 with a JSON body when the upstream cannot be reached, and counts it', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const failures: string[] = [];
    const { proxy, url } = await proxyTo(`http://127.0.0.1:${port}`, {
      onUpstreamFailure: (f) => failures.push(f.path),
    });
    const res = await fetch(`${url}/v1/balances`, { headers: { 'x-api-key': KEY } });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('upstream_unreachable');
    expect(body.message).toContain(`127.0.0.1:${port}`);
    expect(body.message).toContain('ECONNREFUSED');
    // A request with a body too.
    const post = await fetch(`${url}/v1/payment`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '1.00' }),
    });
    expect(post.status).toBe(502);
    expect(failures).toEqual(['/v1/balances', '/v1/payment']);
    expect(proxy.count).toBe(0);
  });

  it('stops reading the upstream when the caller goes away mid-answer, and reports no upstream failure', async () => {
    let upstreamClosed = false;
    const up = await recordingUpstream((_s, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
      res.on('close', () => (upstreamClosed = true));
    });
    const { proxy, url } = await proxyTo(up.url);
    const abort = new AbortController();
    const res = await fetch(`${url}/v1/balances`, { headers: { 'x-api-key': KEY }, signal: abort.signal });
    expect(res.status).toBe(200);
    abort.abort();
    await expect.poll(() => upstreamClosed).toBe(true);
    expect(proxy.failures).toEqual([]);
    expect(proxy.count).toBe(0);
  });

  it('masks the key wherever it would appear in an Exchange: an answer echoing it, a body carrying it', async () => {
    const up = await recordingUpstream((s, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: 'invalid_api_key', message: `invalid api key ${String(s.headers['x-api-key'])}` }),
      );
    });
    const { proxy, url } = await proxyTo(up.url);
    const res = await fetch(`${url}/v1/balances?key=${KEY}`, { headers: { 'x-api-key': KEY } });
    expect(((await res.json()) as { message: string }).message).toBe(`invalid api key ${KEY}`);
    const text = JSON.stringify(proxy.exchanges);
    expect(text).not.toContain(KEY);
    expect(proxy.exchanges[0]!.response.body).toEqual({ code: 'invalid_api_key', message: 'invalid api key ****Nc8V' });
    expect(proxy.exchanges[0]!.request.query).toEqual({ key: '****Nc8V' });
  });

  it('serves its views behind its admin token; the key is in none of them', async () => {
    const sb = await startSandbox();
    defer(() => sb.close());
    const { proxy, url } = await proxyTo(sb.baseUrl);
    await fetch(`${url}/v1/balances`, { headers: { 'x-api-key': sb.keys.shop_a! } });
    expect((await fetch(`${url}/proxy/exchanges`)).status).toBe(401);
    expect((await fetch(`${url}/proxy/exchanges`, { headers: { 'x-admin-token': 'nope' } })).status).toBe(401);
    const admin = { 'x-admin-token': proxy.adminToken };
    const ex = await fetch(`${url}/proxy/exchanges?limit=5`, { headers: admin });
    const text = await ex.text();
    expect(ex.status).toBe(200);
    expect(text).not.toContain(sb.keys.shop_a!);
    const list = JSON.parse(text) as { total: number; exchanges: { request: { path: string } }[] };
    expect(list.total).toBe(1);
    expect(list.exchanges[0]!.request.path).toBe('/v1/balances');
    const v = await fetch(`${url}/sandbox/proxy/violations`, { headers: admin });
    expect(await v.json()).toMatchObject({ exchanges: 1, violations: [], upstream_failures: [] });
    expect((await fetch(`${url}/proxy/exchanges?limit=0`, { headers: admin })).status).toBe(400);
  });
});
