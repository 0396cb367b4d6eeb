// The in-process Dispatcher: undici's request() and fetch() and the Paygate client talk to a WHATWG
// fetch handler with no socket — request bodies (JSON, bytes, streams, multipart), statuses, streaming, aborts.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { FormData as UndiciFormData, fetch as undiciFetch, request, stream, type Dispatcher } from 'undici';
import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  IdempotencyConflictError,
  NotFoundError,
  Paygate,
  RateLimitError,
  createInProcessDispatcher,
} from '../../src/client/index.js';
import { BALANCES, CREATE, KEY, OPERATION, OPERATION_STATE, instantSleep } from './helpers.js';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A fake handler that records each Request and answers with `reply`. */
function fake(reply: (req: Request, seen: Seen) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  return {
    seen,
    async fetch(req: Request): Promise<Response> {
      const s: Seen = {
        method: req.method,
        url: req.url,
        headers: Object.fromEntries(req.headers),
        body: Buffer.from(await req.clone().arrayBuffer()),
      };
      seen.push(s);
      return reply(req, s);
    },
  };
}

const jsonResponse = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('with undici request()', () => {
  it('GET: url, headers, status, response headers and body', async () => {
    const h = fake(() => jsonResponse({ hello: 'world' }, 200, { 'x-request-id': 'r1' }));
    const dispatcher = createInProcessDispatcher(h);
    const res = await request('http://sandbox.local/v1/balances?x=1', {
      dispatcher,
      headers: { 'X-API-Key': 'k', accept: 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-request-id']).toBe('r1');
    expect(await res.body.json()).toEqual({ hello: 'world' });
    expect(h.seen[0]).toMatchObject({ method: 'GET', url: 'http://sandbox.local/v1/balances?x=1' });
    expect(h.seen[0]!.headers['x-api-key']).toBe('k');
  });

  it('POST bodies: string, Buffer, Readable, async iterable, FormData', async () => {
    const h = fake((_req, s) => new Response(s.body, { status: 201 }));
    const dispatcher = createInProcessDispatcher(h);
    const post = async (body: Dispatcher.DispatchOptions['body']) => {
      const res = await request('http://x/echo', { dispatcher, method: 'POST', body });
      expect(res.statusCode).toBe(201);
      return res.body.text();
    };
    expect(await post('{"a":1}')).toBe('{"a":1}');
    expect(await post(Buffer.from('bytes'))).toBe('bytes');
    expect(await post(Readable.from([Buffer.from('str'), Buffer.from('eam')]))).toBe('stream');
    expect(
      await post(
        (async function* () {
          yield new TextEncoder().encode('it');
          yield new TextEncoder().encode('er');
        })() as unknown as Dispatcher.DispatchOptions['body'], // undici accepts async iterables at runtime
      ),
    ).toBe('iter');
    const fd = new UndiciFormData();
    fd.append('operation_id', 'op');
    fd.append('receipt', new Blob(['%PDF'], { type: 'application/pdf' }), 'r.pdf');
    const text = await post(fd);
    expect(text).toContain('name="operation_id"');
    expect(text).toContain('filename="r.pdf"');
    expect(h.seen.at(-1)!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('error statuses come back as responses', async () => {
    const h = fake(() => jsonResponse({ code: 'operation_not_found', message: 'no' }, 404));
    const res = await request('http://x/v1/get_operation_state', {
      dispatcher: createInProcessDispatcher(h),
      method: 'POST',
      body: '{}',
    });
    expect(res.statusCode).toBe(404);
    expect(await res.body.json()).toEqual({ code: 'operation_not_found', message: 'no' });
  });

  it('the query option is applied', async () => {
    const h = fake(() => new Response(null, { status: 204 }));
    const dispatcher = createInProcessDispatcher(h);
    const res = await dispatcher.request({
      origin: 'http://x',
      path: '/q',
      method: 'GET',
      query: { a: '1', b: ['2', '3'] },
    });
    expect(res.statusCode).toBe(204);
    await res.body.dump();
    expect(h.seen[0]!.url).toBe('http://x/q?a=1&b=2&b=3');
  });

  it('a large streamed response arrives whole, with back-pressure', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(97);
    const count = 64;
    let pulled = 0;
    const h = {
      fetch: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(c) {
              if (pulled++ < count) c.enqueue(chunk);
              else c.close();
            },
          }),
        ),
    };
    const res = await request('http://x/big', { dispatcher: createInProcessDispatcher(h), highWaterMark: 1024 });
    let total = 0;
    let first = true;
    for await (const part of res.body) {
      total += (part as Buffer).length;
      if (first) {
        first = false;
        for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
        expect(pulled).toBeLessThan(5);
      }
    }
    expect(total).toBe(chunk.length * count);
  });

  it('set-cookie stays a list', async () => {
    const headers = new Headers();
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    const res = await request('http://x/', {
      dispatcher: createInProcessDispatcher({ fetch: () => new Response('', { headers }) }),
    });
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    await res.body.dump();
  });

  it('a throwing handler rejects the request', async () => {
    const dispatcher = createInProcessDispatcher({
      fetch: () => {
        throw new Error('boom');
      },
    });
    await expect(request('http://x/', { dispatcher })).rejects.toThrow('boom');
  });

  it('an abort reaches the handler through request.signal', async () => {
    let handlerSignal: AbortSignal | undefined;
    const dispatcher = createInProcessDispatcher({
      fetch: (req) => {
        handlerSignal = req.signal;
        return new Promise<Response>(() => {});
      },
    });
    const ac = new AbortController();
    const p = request('http://x/', { dispatcher, signal: ac.signal });
    await new Promise((r) => setImmediate(r));
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(handlerSignal?.aborted).toBe(true);
  });

  it('aborting mid-body stops the stream', async () => {
    let cancelled = false;
    const dispatcher = createInProcessDispatcher({
      fetch: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(new TextEncoder().encode('first'));
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
    });
    const ac = new AbortController();
    const res = await request('http://x/', { dispatcher, signal: ac.signal });
    const reading = res.body.text();
    ac.abort(new Error('enough'));
    await expect(reading).rejects.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(cancelled).toBe(true);
  });

  it('after close() new requests are refused', async () => {
    const dispatcher = createInProcessDispatcher({ fetch: () => new Response('ok') });
    await dispatcher.close();
    await expect(request('http://x/', { dispatcher })).rejects.toThrow(/closed/i);
  });
});

describe('with undici stream()', () => {
  it('writes the response into the factory stream', async () => {
    const parts: Buffer[] = [];
    await stream(
      'http://x/file',
      { method: 'GET', dispatcher: createInProcessDispatcher({ fetch: () => new Response('streamed body') }) },
      () =>
        new Writable({
          write(chunk: Buffer, _enc, cb) {
            parts.push(chunk);
            cb();
          },
        }),
    );
    expect(Buffer.concat(parts).toString()).toBe('streamed body');
  });
});

describe('with undici fetch()', () => {
  it('JSON POST round trip', async () => {
    const h = fake(async (req) => jsonResponse({ got: await req.json() }, 200));
    const res = await undiciFetch('http://x/v1/payment', {
      method: 'POST',
      body: JSON.stringify({ a: 1 }),
      headers: { 'content-type': 'application/json' },
      dispatcher: createInProcessDispatcher(h),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ got: { a: 1 } });
    expect(h.seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('a 204 has no body', async () => {
    const res = await undiciFetch('http://x/readyz', {
      dispatcher: createInProcessDispatcher({ fetch: () => new Response(null, { status: 204 }) }),
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });
});

describe('with the Paygate client', () => {
  /** A tiny fake gateway: enough routing to exercise every client path through the dispatcher. */
  function fakeGateway() {
    const ids = new Map<string, string>();
    return fake(async (req, s) => {
      const url = new URL(req.url);
      if (url.pathname === '/readyz') return new Response(null, { status: 204 });
      const key = req.headers.get('x-api-key');
      if (!key) return jsonResponse({ code: 'missing_api_key', message: 'x-api-key header is required' }, 401);
      if (key !== KEY) return jsonResponse({ code: 'invalid_api_key', message: 'invalid api key' }, 401);
      if (url.pathname === '/v1/balances') return jsonResponse(BALANCES);
      if (url.pathname === '/v1/payment') {
        const body = JSON.parse(s.body.toString()) as { merchant_operation_id: string };
        const prev = ids.get(body.merchant_operation_id);
        if (prev !== undefined && prev !== s.body.toString())
          return jsonResponse({ code: 'idempotency_conflict', message: 'reused' }, 412);
        ids.set(body.merchant_operation_id, s.body.toString());
        return jsonResponse(OPERATION);
      }
      if (url.pathname === '/v1/get_operation_state')
        return jsonResponse({ code: 'operation_not_found', message: 'not found' }, 404);
      if (url.pathname === '/v1/payment/recommendations')
        return jsonResponse({ code: 'rate_limited', message: 'slow' }, 429, { 'retry-after': '1' });
      if (url.pathname === '/v1/confirm_payment') {
        const fd = await req.formData();
        const file = fd.get('receipt') as File;
        return jsonResponse({
          ...OPERATION_STATE,
          name: `${String(fd.get('operation_id'))}/${String(fd.get('confirmation_type'))}/${file.name}/${file.type}/${file.size}`,
        });
      }
      return jsonResponse({ code: 'not_found', message: 'no route' }, 404);
    });
  }

  function clientFor(h: ReturnType<typeof fakeGateway>, apiKey: string | undefined = KEY) {
    const timing = instantSleep();
    return {
      client: new Paygate({
        baseUrl: 'http://sandbox.local',
        apiKey,
        dispatcher: createInProcessDispatcher(h),
        sleep: timing.sleep,
      }),
      waits: timing.waits,
    };
  }

  it('creates, reads balances and probes health with no port', async () => {
    const h = fakeGateway();
    const { client } = clientFor(h);
    const created = await client.payments.create({ ...CREATE, merchant_operation_id: 'm-1' }).withResponse();
    expect(created.data).toEqual(OPERATION);
    expect(created.merchant_operation_id).toBe('m-1');
    expect(await client.balances.list()).toEqual(BALANCES);
    expect(await client.health.check()).toEqual({ ok: true, status: 204 });
    expect(h.seen[0]!.url).toBe('http://sandbox.local/v1/payment');
    expect(h.seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(h.seen[0]!.body.toString())).toEqual({ ...CREATE, merchant_operation_id: 'm-1' });
  });

  it('maps error statuses to classes', async () => {
    const h = fakeGateway();
    const { client, waits } = clientFor(h);
    await client.payments.create({ ...CREATE, merchant_operation_id: 'm-2' });
    await expect(
      client.payments.create({ ...CREATE, amount: '5.00', merchant_operation_id: 'm-2' }),
    ).rejects.toBeInstanceOf(IdempotencyConflictError);
    await expect(client.operations.get({ operation_id: OPERATION.operation_id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      client.payments.recommendations({
        method: 'm',
        currency: 'RUB',
        amount: '1.00',
        min_amount: '1.00',
        max_amount: '2.00',
      }),
    ).rejects.toBeInstanceOf(RateLimitError);
    expect(waits).toEqual([1000, 1000]);
    await expect(clientFor(h, 'wrong-key-wrong-key').client.balances.list()).rejects.toBeInstanceOf(
      AuthenticationError,
    );
    const missing = await new Paygate({
      baseUrl: 'http://sandbox.local',
      apiKey: KEY,
      dispatcher: createInProcessDispatcher(h),
    }).balances
      .list({ headers: { 'x-api-key': '' } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AuthenticationError);
    expect((missing as AuthenticationError).detail).toBe('x-api-key header is required');
  });

  it('sends a multipart receipt the handler can parse', async () => {
    const h = fakeGateway();
    const { client } = clientFor(h);
    const op = await client.payments.confirm({
      operation_id: OPERATION.operation_id,
      receipt: Buffer.from('%PDF-1.4 hi'),
    });
    expect(op.name).toBe(`${OPERATION.operation_id}/receipt/receipt.pdf/application/pdf/11`);
    const streamed = await client.payments.confirm({
      operation_id: OPERATION.operation_id,
      receipt: Readable.from([Buffer.from('%PDF'), Buffer.from('-1.4')]),
    });
    expect(streamed.name).toBe(`${OPERATION.operation_id}/receipt/receipt.pdf/application/pdf/8`);
  });

  it('a handler that throws is a connection error; one that hangs times out', async () => {
    const throwing = new Paygate({
      baseUrl: 'http://sandbox.local',
      apiKey: KEY,
      maxRetries: 0,
      dispatcher: createInProcessDispatcher({
        fetch: () => {
          throw new Error('handler crashed');
        },
      }),
    });
    const err = await throwing.balances.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/handler crashed/);

    let aborted = false;
    const hanging = new Paygate({
      baseUrl: 'http://sandbox.local',
      apiKey: KEY,
      maxRetries: 0,
      timeout: 10,
      dispatcher: createInProcessDispatcher({
        fetch: (req) =>
          new Promise<Response>(() => {
            req.signal.addEventListener('abort', () => {
              aborted = true;
            });
          }),
      }),
    });
    await expect(hanging.balances.list()).rejects.toBeInstanceOf(APITimeoutError);
    expect(aborted).toBe(true);
  });
});
