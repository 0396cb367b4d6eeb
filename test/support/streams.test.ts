// The live support streams over a real socket: GET /sandbox/operations/stream watching one operation
// (its current row, then each change, then the end once it is terminal — driven by the sandbox's pay control and
// clock, never by waiting), a filtered tail that receives only matching changes, a key's tail that sees its own shop
// only, and the server dropping its listener when the client goes away; GET /sandbox/logs/stream likewise.
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { APIError, type Paygate } from '../../src/client/index.js';
import type { SandboxOperationRow, SandboxRequestLogEntry } from '../../src/client/resources/sandbox-support.js';
import { useSandbox } from '../helpers/sandbox.js';

const ADMIN = 'adm';
const T0 = '2026-01-01T00:00:00.000Z';
const card = (moid: string, client = 'payer-1', amount = '500.00') => ({
  merchant_operation_id: moid,
  client_id: client,
  method: 'WT_RUB_C2C',
  amount,
  currency: 'RUB',
});

/** Resolves the next time `set.add` (or `set.delete`) is called: a listener of a stream registered (or dropped). */
function nextCall<T>(set: Set<T>, method: 'add' | 'delete'): Promise<void> {
  return new Promise((resolve) => {
    const own = set as unknown as Record<string, unknown>;
    const original = (method === 'add' ? set.add : set.delete) as (this: Set<T>, value: T) => unknown;
    own[method] = function (this: Set<T>, value: T) {
      delete own[method];
      const r = original.call(this, value);
      resolve();
      return r;
    };
  });
}

/**
 * Collect a stream's items in the background until it ends, `signal` aborts it, or an item satisfies `last` (then
 * the loop breaks, which closes the stream from the client's side).
 */
function collect<T>(stream: AsyncIterable<T>, last?: (item: T) => boolean): { items: T[]; done: Promise<void> } {
  const items: T[] = [];
  const done = (async () => {
    for await (const item of stream) {
      items.push(item);
      if (last?.(item)) break;
    }
  })();
  return { items, done };
}

/** Open a raw SSE response (resolves once its headers are in: the server has registered its listener) and parse its events. */
async function rawStream(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<{ events: { event: string; data: unknown }[]; ended: Promise<void>; headers: Headers }> {
  const res = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: { event: string; data: unknown }[] = [];
  const parser = createParser({
    onEvent: (ev) => events.push({ event: ev.event ?? 'message', data: JSON.parse(ev.data) }),
  });
  const ended = (async () => {
    try {
      for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) parser.feed(chunk);
    } catch (err) {
      if (!signal.aborted) throw err;
    }
  })();
  return { events, ended, headers: res.headers };
}

describe('GET /sandbox/operations/stream', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, startTime: T0, adminToken: ADMIN });
  const listeners = () => h.sandbox.service.writeListeners;

  it('watching one operation: its current row, then each change, and the stream ends when the payer pays', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const op = await a.payments.create(card('watch-1'));
    const it = a.sandbox.operations.stream({ id: op.operation_id })[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value).toMatchObject({
      operation_id: op.operation_id,
      status: 'pending',
      merchant_operation_id: 'watch-1',
      shop_id: 'shop_a',
      reason: 'create',
    });
    expect(listeners().size).toBe(1);
    const dropped = nextCall(listeners(), 'delete');
    await a.sandbox.operations.pay({ operation_id: op.operation_id });
    const second = await it.next();
    expect(second.value).toMatchObject({ operation_id: op.operation_id, status: 'completed', actual_amount: '500.00' });
    expect(await it.next()).toEqual({ done: true, value: undefined });
    await dropped;
    expect(listeners().size).toBe(0);
  });

  it('watching one operation until the sandbox clock expires it (by merchant_operation_id, with the admin token and shop)', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const op = await a.payments.create(card('watch-2'));
    const watched = collect(h.admin.sandbox.operations.stream({ id: 'watch-2', shop: 'shop_a' }));
    await nextCall(listeners(), 'add');
    await h.admin.sandbox.clock.advance('29m');
    await h.admin.sandbox.clock.advance('2m');
    await watched.done;
    expect(watched.items.map((r) => [r.operation_id, r.status])).toEqual([
      [op.operation_id, 'pending'],
      [op.operation_id, 'rejected'],
    ]);
    expect(watched.items[1]!.reason).toMatch(/expire/);
    expect(listeners().size).toBe(0);
  });

  it('watching an operation that is already terminal: its row, then the end', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const op = await a.payments.create(card('watch-3', 'payer+reject'));
    expect(op.status).toBe('rejected');
    const watched = collect(a.sandbox.operations.stream({ id: op.operation_id }));
    await watched.done;
    expect(watched.items.map((r) => r.status)).toEqual(['rejected']);
    expect(listeners().size).toBe(0);
  });

  it('a filtered tail across shops receives only the matching changes; aborting it drops the server listener', async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const b = h.make({ apiKey: h.keyOf('shop_b') });
    const ac = new AbortController();
    let completed!: () => void;
    const sawLast = new Promise<void>((r) => (completed = r));
    const tail = collect(h.admin.sandbox.operations.stream({ client_id: 'watched' }, { signal: ac.signal }), (row) => {
      if (row.status === 'completed') completed();
      return false;
    });
    await nextCall(listeners(), 'add');
    const other = await a.payments.create(card('t-1', 'someone-else'));
    const mine = await b.payments.create(card('t-2', 'watched', '900.00'));
    await a.sandbox.operations.pay({ operation_id: other.operation_id });
    await b.sandbox.operations.pay({ operation_id: mine.operation_id });
    // The last matching change was written after every other one: had any leaked, it would be listed before it.
    await sawLast;
    const dropped = nextCall(listeners(), 'delete');
    expect(listeners().size).toBe(1);
    ac.abort();
    await tail.done;
    await dropped;
    expect(listeners().size).toBe(0);
    expect(tail.items.map((r) => [r.shop_id, r.merchant_operation_id, r.status])).toEqual([
      ['shop_b', 't-2', 'pending'],
      ['shop_b', 't-2', 'completed'],
    ]);
  });

  it("a shop key's tail sees its own shop only; filters combine (status and min_amount)", async () => {
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const b = h.make({ apiKey: h.keyOf('shop_b') });
    const ac = new AbortController();
    // These two end from the client's side (the loop breaks) once they see k-3's completion.
    const k3Completed = (r: SandboxOperationRow) => r.merchant_operation_id === 'k-3' && r.status === 'completed';
    const own = collect(b.sandbox.operations.stream({}, { signal: ac.signal }), k3Completed);
    const big = collect(
      h.admin.sandbox.operations.stream({ status: 'completed', min_amount: '1000.00' }, { signal: ac.signal }),
      k3Completed,
    );
    await nextCall(listeners(), 'add');
    if (listeners().size < 2) await nextCall(listeners(), 'add');
    const small = await a.payments.create(card('k-1', 'p', '500.00'));
    const large = await a.payments.create(card('k-2', 'p', '1500.00'));
    const inB = await b.payments.create(card('k-3', 'p', '2500.00'));
    for (const [c, op] of [
      [a, small],
      [a, large],
      [b, inB],
    ] as const)
      await c.sandbox.operations.pay({ operation_id: op.operation_id });
    await Promise.all([own.done, big.done]);
    expect(ac.signal.aborted).toBe(false);
    expect(own.items.map((r) => [r.merchant_operation_id, r.status])).toEqual([
      ['k-3', 'pending'],
      ['k-3', 'completed'],
    ]);
    expect(big.items.map((r) => r.merchant_operation_id)).toEqual(['k-2', 'k-3']);
    if (listeners().size > 0) await nextCall(listeners(), 'delete');
    if (listeners().size > 0) await nextCall(listeners(), 'delete');
    expect(listeners().size).toBe(0);
  });

  it('errors come before any event: 400 for a bad filter, 404 for an unknown operation, 400 for another shop', async () => {
    // With the admin token a merchant_operation_id is resolved as by operations.show: no shop used it is a 404 (it was
    // a 400 asking for shop= once).
    const a = h.make({ apiKey: h.keyOf('shop_a') });
    const first = (c: Paygate, q: Record<string, string>) =>
      c.sandbox.operations.stream(q)[Symbol.asyncIterator]().next();
    await expect(first(h.admin, { min_amount: '1,5' })).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
    });
    await expect(first(a, { id: '00000000-0000-5000-8000-000000000000' })).rejects.toMatchObject({ status: 404 });
    await expect(first(a, { shop: 'shop_b' })).rejects.toBeInstanceOf(APIError);
    await expect(first(h.admin, { id: 'some-merchant-id' })).rejects.toMatchObject({ status: 404 });
    expect(listeners().size).toBe(0);
  });
});

describe('GET /sandbox/operations/stream in process (createInProcessDispatcher)', () => {
  const h = useSandbox({ frozenClock: true, startTime: T0, adminToken: ADMIN });

  it('aborting an idle stream ends it at once and drops the server listener (not at the next heartbeat)', async () => {
    const listeners = h.sandbox.service.writeListeners;
    const ac = new AbortController();
    const tail = collect(h.admin.sandbox.operations.stream({}, { signal: ac.signal }));
    await nextCall(listeners, 'add');
    const op = await h.make({ apiKey: h.keyOf('shop_a') }).payments.create(card('ip-1'));
    while (tail.items.length === 0) await new Promise((r) => setImmediate(r));
    const dropped = nextCall(listeners, 'delete');
    ac.abort();
    await tail.done;
    await dropped;
    expect(listeners.size).toBe(0);
    expect(tail.items.map((r) => r.operation_id)).toEqual([op.operation_id]);
  });
});

describe('GET /sandbox/logs/stream', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, startTime: T0, adminToken: ADMIN });

  it('each answered request that matches the filters, as it is answered; the x-request-id header is its id', async () => {
    const ac = new AbortController();
    const errors = await rawStream(
      `${h.baseUrl}/sandbox/logs/stream?errors=true`,
      { 'x-admin-token': ADMIN },
      ac.signal,
    );
    const ok = await fetch(`${h.baseUrl}/v1/balances`, { headers: { 'x-api-key': h.keyOf('shop_a') } });
    const bad = await fetch(`${h.baseUrl}/v1/balances?k=s3cret`, { headers: { 'x-api-key': 'pg_test_nope' } });
    const missing = await fetch(`${h.baseUrl}/v1/nothing-here`, { headers: { 'x-api-key': h.keyOf('shop_b') } });
    await Promise.all([ok.text(), bad.text(), missing.text()]);
    // The stream has the entry of every request answered before this marker's.
    const marker = await fetch(`${h.baseUrl}/v1/marker`, { headers: { 'x-api-key': h.keyOf('shop_b') } });
    await marker.text();
    await until(() =>
      errors.events.some((e) => (e.data as SandboxRequestLogEntry).id === marker.headers.get('x-request-id')),
    );
    ac.abort();
    await errors.ended;
    expect(errors.events.every((e) => e.event === 'request')).toBe(true);
    const seen = errors.events.map((e) => e.data as SandboxRequestLogEntry);
    expect(seen.map((e) => [e.method, e.path, e.status, e.shop_id])).toEqual([
      ['GET', '/v1/balances?k=***', 401, ''],
      ['GET', '/v1/nothing-here', 404, 'shop_b'],
      ['GET', '/v1/marker', 404, 'shop_b'],
    ]);
    expect(seen.map((e) => e.id)).toEqual([
      bad.headers.get('x-request-id'),
      missing.headers.get('x-request-id'),
      marker.headers.get('x-request-id'),
    ]);
    expect(seen[1]!.error_code).toBe('not_found');
    expect(seen[0]!.error_code).toBeTruthy();
    expect(JSON.stringify(seen)).not.toContain('s3cret');
  });

  it("a shop key's log stream shows its own shop's requests only; the client's stream yields the entries", async () => {
    const ac = new AbortController();
    const raw = await rawStream(`${h.baseUrl}/sandbox/logs/stream`, { 'x-api-key': h.keyOf('shop_b') }, ac.signal);
    await h.make({ apiKey: h.keyOf('shop_a') }).balances.list();
    const mine = await h
      .make({ apiKey: h.keyOf('shop_b') })
      .balances.list()
      .withResponse();
    await until(() => raw.events.length > 1);
    ac.abort();
    await raw.ended;
    // The stream's own request is answered (its headers sent) once its listener is in: it is the first entry.
    expect(raw.events.map((e) => e.data as SandboxRequestLogEntry).map((e) => [e.shop_id, e.path, e.id])).toEqual([
      ['shop_b', '/sandbox/logs/stream', raw.headers.get('x-request-id')],
      ['shop_b', '/v1/balances', mine.response.requestId],
    ]);

    // The client's stream: the first entry it yields is one answered after it opened.
    const b = h.make({ apiKey: h.keyOf('shop_b') });
    const it = b.sandbox.logs.stream({ path: '/v1/balances' })[Symbol.asyncIterator]();
    const next = it.next();
    let entry: IteratorResult<SandboxRequestLogEntry> | undefined;
    void next.then((r) => (entry = r));
    // Until the client's stream is open, a request may be answered before it: send until one arrives.
    while (!entry) await b.balances.list();
    expect(entry.value).toMatchObject({
      shop_id: 'shop_b',
      method: 'GET',
      path: '/v1/balances',
      status: 200,
      error_code: null,
    });
    await it.return(undefined);
  });
});

describe('GET /sandbox/logs/stream?backlog=n', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, startTime: T0, adminToken: ADMIN });

  it('the newest n matching entries first, oldest first, then the live ones: none missed, none repeated', async () => {
    const before: string[] = [];
    for (let i = 0; i < 5; i++)
      before.push(
        (await fetch(`${h.baseUrl}/v1/balances?n=${i}`, { headers: { 'x-api-key': h.keyOf('shop_a') } })).headers.get(
          'x-request-id',
        )!,
      );
    await fetch(`${h.baseUrl}/livez`);
    const ac = new AbortController();
    const raw = await rawStream(
      `${h.baseUrl}/sandbox/logs/stream?backlog=3&path=/v1/balances`,
      { 'x-admin-token': ADMIN },
      ac.signal,
    );
    const after = (
      await fetch(`${h.baseUrl}/v1/balances?n=live`, { headers: { 'x-api-key': h.keyOf('shop_a') } })
    ).headers.get('x-request-id')!;
    await until(() => raw.events.length >= 4);
    ac.abort();
    await raw.ended;
    expect(raw.events.map((e) => (e.data as SandboxRequestLogEntry).id)).toEqual([...before.slice(2), after]);
  });

  it('backlog must be an integer from 0 to 2000', async () => {
    for (const q of ['backlog=-1', 'backlog=2001', 'backlog=some']) {
      const res = await fetch(`${h.baseUrl}/sandbox/logs/stream?${q}`, { headers: { 'x-admin-token': ADMIN } });
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(/^backlog: /);
    }
  });
});

/** Resolves once `ok()` holds, checking after each turn of the event loop's I/O (no timer). */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; !ok(); i++) {
    if (i > 100_000) throw new Error('until: never held');
    await new Promise((r) => setImmediate(r));
  }
}
