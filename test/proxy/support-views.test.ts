// The support views on proxied traffic (issue 27 §1): the proxy answers the sandbox's support controls —
// /sandbox/operations (list, show, stream) and /sandbox/logs (list, stream) — from what passed through it, in the
// contract's shapes, behind its admin token; a drift of the upstream shows on the operation's timeline.
import { describe, expect, it } from 'vitest';
import { createConformanceChecker } from '../../src/conformance/index.js';
import { ListOperationsResponse, OperationDetails, type OperationRow } from '../../src/contract/sandbox.js';
import { RequestLogList } from '../../src/contract/support.js';
import { createProxy, type Proxy } from '../../src/proxy/server.js';
import { startSandbox, type TestSandbox } from '../../src/testing/index.js';
import { useCleanup } from '../helpers/cleanup.js';

const defer = useCleanup();

async function setup(): Promise<{ sb: TestSandbox; proxy: Proxy; url: string }> {
  const sb = await startSandbox();
  defer(() => sb.close());
  const proxy = createProxy({ upstream: new URL(sb.baseUrl), checker: createConformanceChecker() });
  const { url } = await proxy.listen();
  defer(() => proxy.close());
  return { sb, proxy, url };
}

async function call(url: string, path: string, body?: unknown, key?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key ?? '', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Record<string, unknown>;
}

async function view(url: string, proxy: Proxy, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, { headers: { 'x-admin-token': proxy.adminToken } });
  return { status: res.status, body: await res.json() };
}

/** A payment created through the proxy, paid on the upstream directly, read through the proxy. */
async function paidPayment(sb: TestSandbox, url: string, moid = 'order-1'): Promise<string> {
  const key = sb.keys.shop_a!;
  const op = await call(
    url,
    '/v1/payment',
    { merchant_operation_id: moid, client_id: 'dora', method: 'WT_RUB_C2C', amount: '1500.00', currency: 'RUB' },
    key,
  );
  const id = op.operation_id as string;
  await sb.pay(id);
  await call(url, '/v1/get_operation_state', { operation_id: id }, key);
  return id;
}

async function fault(sb: TestSandbox, rule: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sb.baseUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'x-admin-token': sb.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(res.status).toBe(201);
}

/** The first `n` events of an SSE response, as { event, data }. */
async function events(res: Response, n: number): Promise<Array<{ event: string; data: unknown }>> {
  const out: Array<{ event: string; data: unknown }> = [];
  const reader = res.body!.getReader();
  let text = '';
  while (out.length < n) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    let i: number;
    while ((i = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, i);
      text = text.slice(i + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) out.push({ event, data: JSON.parse(data) as unknown });
    }
  }
  await reader.cancel();
  return out;
}

describe('the support views on proxied traffic', () => {
  it('lists and shows the operations seen: the timeline pending then completed as seen; the request log masked', async () => {
    const { sb, proxy, url } = await setup();
    const id = await paidPayment(sb, url);
    const listed = await view(url, proxy, '/sandbox/operations');
    expect(listed.status).toBe(200);
    const page = ListOperationsResponse.parse(listed.body);
    expect(page.operations.map((r) => [r.operation_id, r.status, r.merchant_operation_id, r.client_id])).toEqual([
      [id, 'completed', 'order-1', 'dora'],
    ]);
    expect(page.operations[0]!.shop_id).toMatch(/^key_[0-9a-f]{12}$/);
    const shown = await view(url, proxy, `/sandbox/operations/${id}`);
    expect(shown.status).toBe(200);
    const d = OperationDetails.parse(shown.body);
    expect(d.history.map((h) => [h.from, h.to, h.cause])).toEqual([
      [null, 'pending', 'create answered (exchange #1)'],
      ['pending', 'completed', 'seen on state read (exchange #2)'],
    ]);
    expect(d.operation.actual_amount).toBe('1500.00');
    expect((await view(url, proxy, '/sandbox/operations/-?merchant_operation_id=order-1')).status).toBe(200);
    const logs = RequestLogList.parse((await view(url, proxy, '/sandbox/logs')).body);
    expect(logs.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v1/get_operation_state 200',
      'POST /v1/payment 200',
    ]);
    expect(JSON.stringify(logs)).not.toContain(sb.keys.shop_a!);
  });

  it('filters as the sandbox does, and refuses a bad filter (400), an unknown operation (404), no token (401)', async () => {
    const { sb, proxy, url } = await setup();
    await paidPayment(sb, url, 'a');
    await call(
      url,
      '/v1/payment',
      { merchant_operation_id: 'b', client_id: 'eve', method: 'WT_RUB_C2C', amount: '20000.00', currency: 'RUB' },
      sb.keys.shop_a!,
    );
    const ids = async (q: string) =>
      ListOperationsResponse.parse((await view(url, proxy, `/sandbox/operations?${q}`)).body).operations.map(
        (r: OperationRow) => r.merchant_operation_id,
      );
    expect(await ids('status=pending')).toEqual(['b']);
    expect(await ids('client_id=dora')).toEqual(['a']);
    expect(await ids('min_amount=10000.00')).toEqual(['b']);
    expect(await ids('max_amount=1500.00')).toEqual(['a']);
    expect(await ids('type=payout')).toEqual([]);
    expect(await ids('since=2000-01-01&method=WT_RUB_C2C')).toEqual(['b', 'a']);
    expect(await ids('until=2000-01-01')).toEqual([]);
    const first = ListOperationsResponse.parse((await view(url, proxy, '/sandbox/operations?limit=1')).body);
    expect(first).toMatchObject({ total: 2, has_more: true });
    expect(await ids(`limit=1&starting_after=${first.next_cursor}`)).toEqual(['a']);
    const bad = await view(url, proxy, '/sandbox/operations?status=paid');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/^status: /) });
    expect((await view(url, proxy, '/sandbox/logs?status=99')).status).toBe(400);
    const missing = await view(url, proxy, '/sandbox/operations/00000000-0000-4000-8000-000000000000');
    expect(missing).toMatchObject({ status: 404, body: { code: 'operation_not_found' } });
    const noToken = await fetch(`${url}/sandbox/operations`);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ code: 'missing_admin_token' });
    const wrong = await fetch(`${url}/sandbox/logs/stream`, { headers: { 'x-admin-token': 'nope' } });
    expect(wrong.status).toBe(401);
  });

  it('a merchant_operation_id two keys used: 409 ambiguous_reference without shop=, the one with it', async () => {
    const { sb, proxy, url } = await setup();
    const body = {
      merchant_operation_id: 'twice',
      client_id: 'c',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    };
    await call(url, '/v1/payment', body, sb.keys.shop_a!);
    const b = await call(url, '/v1/payment', body, sb.keys.shop_b!);
    const both = await view(url, proxy, '/sandbox/operations/-?merchant_operation_id=twice');
    expect(both).toMatchObject({ status: 409, body: { code: 'ambiguous_reference' } });
    const shop = ListOperationsResponse.parse((await view(url, proxy, '/sandbox/operations')).body).operations.find(
      (r) => r.operation_id === b.operation_id,
    )!.shop_id;
    const one = await view(url, proxy, `/sandbox/operations/-?merchant_operation_id=twice&shop=${shop}`);
    expect(one.status).toBe(200);
    expect(OperationDetails.parse(one.body).operation.operation_id).toBe(b.operation_id);
  });

  it('a drift of the upstream shows its violation on the operation’s timeline', async () => {
    const { sb, proxy, url } = await setup();
    const id = await paidPayment(sb, url);
    await fault(sb, { endpoint: 'operation.state', drift: 'out_of_order' });
    await call(url, '/v1/get_operation_state', { operation_id: id }, sb.keys.shop_a!);
    const d = OperationDetails.parse((await view(url, proxy, `/sandbox/operations/${id}`)).body);
    const last = d.history.filter((h) => h.cause.startsWith('violation '));
    expect(last.map((h) => h.cause)).toContainEqual(
      expect.stringMatching(
        /^violation state\.illegal_move \(§[\d.]+, operation\.state, exchange #3\): expected .*; got /,
      ),
    );
    expect(d.history.find((h) => h.from === 'completed' && h.to === 'pending')).toMatchObject({
      from: 'completed',
      to: 'pending',
      cause: 'seen on state read (exchange #3)',
    });
  });

  it('streams the changes and the requests live, in the sandbox’s event shapes; one operation ends when terminal', async () => {
    const { sb, proxy, url } = await setup();
    const key = sb.keys.shop_a!;
    const op = await call(
      url,
      '/v1/payment',
      { merchant_operation_id: 'w', client_id: 'dora', method: 'WT_RUB_C2C', amount: '1500.00', currency: 'RUB' },
      key,
    );
    const id = op.operation_id as string;
    const headers = { 'x-admin-token': proxy.adminToken };
    const one = await fetch(`${url}/sandbox/operations/stream?id=w`, { headers });
    const logs = await fetch(`${url}/sandbox/logs/stream?backlog=1`, { headers });
    expect(one.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await sb.pay(id);
    await call(url, '/v1/get_operation_state', { operation_id: id }, key);
    const seen = await events(one, 5);
    expect(seen.map((e) => [e.event, (e.data as OperationRow).status])).toEqual([
      ['operation', 'pending'],
      ['operation', 'completed'],
    ]);
    const requests = RequestLogList.parse({ requests: (await events(logs, 2)).map((e) => e.data) }).requests;
    expect(requests.map((r) => r.path)).toEqual(['/v1/payment', '/v1/get_operation_state']);
  });

  it('bounds the streams as the sandbox does: one past 16 for the admin token is 429 streams_busy with Retry-After', async () => {
    const { proxy, url } = await setup();
    const headers = { 'x-admin-token': proxy.adminToken };
    const open: Response[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await fetch(`${url}/sandbox/logs/stream`, { headers });
      expect(res.status).toBe(200);
      open.push(res);
    }
    const refused = await fetch(`${url}/sandbox/operations/stream`, { headers });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ code: 'streams_busy' });
    await open.pop()!.body!.cancel();
    // The place is given back once the proxy sees the connection go.
    await expect
      .poll(async () => {
        const res = await fetch(`${url}/sandbox/logs/stream`, { headers });
        await res.body!.cancel();
        return res.status;
      })
      .toBe(200);
    for (const res of open) await res.body!.cancel();
  });
});
