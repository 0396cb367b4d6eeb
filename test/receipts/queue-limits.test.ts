// Receipt checks of one payer stalled every shop. The hosted page read and parsed a whole 10 MiB
// body before it looked at the payment (twenty uploads to a pending card payment: all 409, +340 MB), and every
// check of every shop waited in one serial queue. Now the payment's status and the declared length are checked
// before the body is read; an upload of unknown length is cut at the limit; the queue is bounded per shop (429) and
// in total (503), both with Retry-After and nothing stored; and a shop flooded with uploads leaves a worker free
// for another shop's check. Checks are held, not slowed, by a gate in front of the inspector.
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReceiptFacts } from '../../src/emulator/receipts/inspect.js';
import {
  RECEIPT_CHECKS_PER_SHOP,
  RECEIPT_CHECKS_TOTAL,
  RECEIPT_CHECK_RETRY_AFTER_S,
} from '../../src/emulator/receipts/limits.js';
import { receiptChecksOf } from '../../src/emulator/receipts/queue.js';
import { LINGER_BYTES } from '../../src/emulator/receipts/upload-body.js';
import { useSandboxes, type SandboxUnderTest } from '../helpers/sandbox.js';
import { paymentBody } from '../helpers/harness.js';

/** The gate: while `hold` is on, each check that reaches the inspector records its tag and waits to be let go. */
const gate = vi.hoisted(() => ({ hold: false, started: [] as string[], waiting: [] as (() => void)[] }));
vi.mock('../../src/emulator/receipts/inspect.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/emulator/receipts/inspect.js')>();
  const unreadable: ReceiptFacts = {
    kind: 'unreadable_pdf',
    text: '',
    amounts: [],
    forgery: [],
    in_progress: false,
    pages: 0,
  };
  return {
    ...real,
    inspectReceipt: async (bytes: Uint8Array, options?: Parameters<typeof real.inspectReceipt>[1]) => {
      if (!gate.hold) return real.inspectReceipt(bytes, options);
      gate.started.push(Buffer.from(bytes).toString('latin1').split('\n')[1]!.slice(1));
      await new Promise<void>((release) => gate.waiting.push(release));
      return unreadable;
    },
  };
});

// Resolve the mock once before any upload: concurrent first imports of a mocked module may get the original.
beforeAll(() => import('../../src/emulator/receipts/inspect.js'));
const open = useSandboxes();
afterEach(() => {
  gate.hold = false;
  for (const release of gate.waiting.splice(0)) release();
  gate.started.length = 0;
});

const MiB = 1024 * 1024;
const okReceipt = readFileSync(new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url));
/** A small PDF-looking file whose second line names it, so the gate can tell the checks apart. */
const tagged = (tag: string) => Buffer.from(`%PDF-1.4\n%${tag}\n%%EOF\n`, 'latin1');

/** Wait for `cond` without sleeping: checked once per event-loop turn; the deadline only fails a test that hangs. */
async function until(what: string, cond: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** Stop holding checks and let every held one go, until no upload is left in the queue. */
async function releaseAll(queue: ReturnType<typeof receiptChecksOf>): Promise<void> {
  gate.hold = false;
  await until('every admitted upload decided', () => {
    for (const release of gate.waiting.splice(0)) release();
    return queue.size() === 0;
  });
}

async function payment(sb: SandboxUnderTest, shop: string, over: Record<string, unknown> = {}, path = '/v1/payment') {
  const res = await sb.call('POST', path, {
    key: sb.keyOf(shop),
    body: paymentBody({ client_id: 'payer+receipt', ...over }),
  });
  expect(res.status).toBe(200);
  return res.body as { operation_id: string; status: string; payment_url?: string | null };
}

function confirm(sb: SandboxUnderTest, shop: string, id: string, file: Uint8Array) {
  const form = new FormData();
  form.set('operation_id', id);
  form.set('confirmation_type', 'receipt');
  form.set('receipt', new Blob([file], { type: 'application/pdf' }), 'receipt.pdf');
  return sb.handler.fetch(
    new Request(`${sb.baseUrl}/v1/confirm_payment`, {
      method: 'POST',
      headers: { 'x-api-key': sb.keyOf(shop) },
      body: form,
    }),
  );
}

/** A raw HTTP/1.1 request over a socket; the answer's head is read while the client still holds most of the body. */
interface Raw {
  socket: Socket;
  /** Resolves with the status line and headers (lowercased) once the head of the answer arrived. */
  answer: Promise<{ status: number; head: string }>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

function raw(sb: SandboxUnderTest, head: string): Raw {
  const { hostname, port } = new URL(sb.baseUrl);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined); // a write after the server closed: EPIPE / ECONNRESET
  let received = '';
  const answer = new Promise<{ status: number; head: string }>((resolve, reject) => {
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end >= 0) resolve({ status: Number(received.split(' ')[1]), head: received.slice(0, end).toLowerCase() });
    });
    socket.on('close', () => reject(new Error(`closed before an answer: ${JSON.stringify(received)}`)));
  });
  answer.catch(() => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(head);
  return { socket, answer, closed };
}

/** Keep sending 256 KiB pieces (framed by `frame`) until the server closes the connection; at most 64 MiB. Bytes sent. */
async function sendUntilClosed(req: Raw, frame: (filler: string) => string): Promise<number> {
  const filler = ' '.repeat(256 * 1024);
  let sent = 0;
  while (!req.socket.destroyed && !req.socket.writableEnded && sent < 64 * MiB) {
    sent += filler.length;
    if (!req.socket.write(frame(filler))) await new Promise((r) => req.socket.once('drain', r).once('close', r));
  }
  await req.closed;
  return sent;
}

const BOUNDARY = 'paygate-test-boundary';
const part = (name: string, value: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="receipt"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`;

function requestHead(path: string, headers: Record<string, string>): string {
  const lines = Object.entries({
    host: 'paygate.test',
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    ...headers,
  }).map(([k, v]) => `${k}: ${v}\r\n`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

describe('an upload the payment cannot take is refused before its body is read', () => {
  it('hosted page, a pending card payment: 409 while the client still holds almost all of a declared 10 MiB body', async () => {
    const sb = await open({ transport: 'http', frozenClock: true, log: () => {} });
    const op = await payment(sb, 'shop_a', { client_id: 'payer' }, '/v1/payment/link');
    expect(op.status).toBe('pending');
    const path = new URL(op.payment_url!).pathname;
    const req = raw(sb, requestHead(`${path}/receipt`, { 'content-length': String(10 * MiB - 1024) }) + filePart);
    req.socket.write(Buffer.alloc(64 * 1024, 0x20)); // 64 KiB of the ~10 MiB declared; the rest is never sent
    const { status, head } = await req.answer;
    expect(status).toBe(409);
    expect(head).toContain('content-type: text/html');
    req.socket.destroy();
    expect(sb.sandbox.service.state.operation(op.operation_id)?.status).toBe('pending');
  });

  it('confirm_payment with its fields first: 409 invalid_state, and 404 for another shop’s payment, as the file part begins', async () => {
    const sb = await open({ transport: 'http', frozenClock: true, log: () => {} });
    const pending = await payment(sb, 'shop_a', { client_id: 'payer' });
    const awaiting = await payment(sb, 'shop_a');
    const cases = [
      { key: sb.keyOf('shop_a'), id: pending.operation_id, status: 409, code: 'invalid_state' },
      { key: sb.keyOf('shop_b'), id: awaiting.operation_id, status: 404, code: 'operation_not_found' },
    ];
    for (const c of cases) {
      const body = part('operation_id', c.id) + part('confirmation_type', 'receipt') + filePart;
      const req = raw(
        sb,
        requestHead('/v1/confirm_payment', { 'x-api-key': c.key, 'content-length': String(10 * MiB - 1024) }) + body,
      );
      req.socket.write(Buffer.alloc(64 * 1024, 0x20));
      const { status } = await req.answer;
      expect(status).toBe(c.status);
      req.socket.destroy();
    }
    expect(sb.sandbox.service.state.operation(awaiting.operation_id)?.status).toBe('awaiting_confirmation');
  });

  it('a declared length over 10 MiB is 413 before anything is read; a client that keeps sending is cut off a few MiB later', async () => {
    const sb = await open({ transport: 'http', frozenClock: true, log: () => {} });
    const op = await payment(sb, 'shop_a', {}, '/v1/payment/link');
    for (const [path, key] of [
      [`${new URL(op.payment_url!).pathname}/receipt`, undefined],
      ['/v1/confirm_payment', sb.keyOf('shop_a')],
    ] as const) {
      const req = raw(
        sb,
        requestHead(path, { 'content-length': String(1024 * MiB), ...(key ? { 'x-api-key': key } : {}) }),
      );
      const { status } = await req.answer; // nothing of the body sent yet
      expect(status).toBe(413);
      const sent = await sendUntilClosed(req, (filler) => filler);
      expect(sent).toBeLessThan(LINGER_BYTES + 8 * MiB); // closed, not read to its gigabyte
    }
  });

  it('a body of unknown length (chunked) is cut at 10 MiB: 413 while the client is still sending, then the connection is closed; nothing stored', async () => {
    const sb = await open({ transport: 'http', frozenClock: true, log: () => {} });
    const op = await payment(sb, 'shop_a');
    const req = raw(
      sb,
      requestHead('/v1/confirm_payment', { 'x-api-key': sb.keyOf('shop_a'), 'transfer-encoding': 'chunked' }),
    );
    const chunk = (data: string) => `${Buffer.byteLength(data, 'latin1').toString(16)}\r\n${data}\r\n`;
    req.socket.write(chunk(part('operation_id', op.operation_id) + part('confirmation_type', 'receipt') + filePart));
    const sent = await sendUntilClosed(req, chunk);
    expect((await req.answer).status).toBe(413);
    expect(sent).toBeGreaterThan(10 * MiB);
    expect(sent).toBeLessThan(10 * MiB + LINGER_BYTES + 8 * MiB);
    const stored = sb.sandbox.service.state.operation(op.operation_id);
    expect(stored?.status).toBe('awaiting_confirmation');
    expect(stored?.type === 'payment' && stored.uploads).toBeFalsy();
  });
});

describe('the receipt-check queue', () => {
  it(`a shop has at most ${RECEIPT_CHECKS_PER_SHOP} uploads admitted: then 429 with Retry-After, nothing stored; another shop's check starts at once`, async () => {
    const sb = await open({ frozenClock: true, log: () => {} });
    const queue = receiptChecksOf(sb.sandbox.service);
    gate.hold = true;
    const ops = [];
    for (let i = 0; i <= RECEIPT_CHECKS_PER_SHOP; i++) ops.push(await payment(sb, 'shop_a', {}, '/v1/payment/link'));
    const other = await payment(sb, 'shop_b');

    const admitted = ops
      .slice(0, RECEIPT_CHECKS_PER_SHOP)
      .map((op, i) => confirm(sb, 'shop_a', op.operation_id, tagged(`a${i}`)));
    await until(
      `${RECEIPT_CHECKS_PER_SHOP} uploads of shop A admitted`,
      () => queue.size('shop_a') === RECEIPT_CHECKS_PER_SHOP,
    );
    await until('the first check of shop A started', () => gate.started.length === 1);

    const refused = ops[RECEIPT_CHECKS_PER_SHOP]!;
    const busy = await confirm(sb, 'shop_a', refused.operation_id, okReceipt);
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe(String(RECEIPT_CHECK_RETRY_AFTER_S));
    expect(((await busy.json()) as { code: string }).code).toBe('receipt_checks_busy');
    const page = await sb.handler.fetch(
      new Request(`${refused.payment_url!}/receipt`, { method: 'POST', body: formWith(okReceipt) }),
    );
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toBe(String(RECEIPT_CHECK_RETRY_AFTER_S));
    expect(await page.text()).toContain('Too many receipts');
    const untouched = sb.sandbox.service.state.operation(refused.operation_id);
    expect(untouched?.status).toBe('awaiting_confirmation');
    expect(untouched?.type === 'payment' && untouched.uploads).toBeFalsy();

    // Shop B's check runs beside shop A's held one; shop A's waiting checks have not started.
    const b = confirm(sb, 'shop_b', other.operation_id, tagged('b0'));
    await until("shop B's check started", () => gate.started.includes('b0'));
    expect(gate.started).toEqual(['a0', 'b0']);

    await releaseAll(queue);
    for (const res of await Promise.all([...admitted, b])) expect(res.status).toBe(200);
  });

  it('an upload whose client goes away mid-body leaves the queue (a place is never lost)', async () => {
    const sb = await open({ transport: 'http', frozenClock: true, log: () => {} });
    const queue = receiptChecksOf(sb.sandbox.service);
    const op = await payment(sb, 'shop_a');
    for (const framing of [{ 'content-length': String(5 * MiB) }, { 'transfer-encoding': 'chunked' }] as Record<
      string,
      string
    >[]) {
      const chunked = 'transfer-encoding' in framing;
      const body =
        part('operation_id', op.operation_id) + part('confirmation_type', 'receipt') + filePart + ' '.repeat(64 * 1024);
      const req = raw(
        sb,
        requestHead('/v1/confirm_payment', { 'x-api-key': sb.keyOf('shop_a'), ...framing }) +
          (chunked ? `${body.length.toString(16)}\r\n${body}\r\n` : body),
      );
      await until('the upload admitted', () => queue.size('shop_a') === 1);
      req.socket.destroy();
      await until('its place given back', () => queue.size('shop_a') === 0);
    }
    expect(sb.sandbox.service.state.operation(op.operation_id)?.status).toBe('awaiting_confirmation');
  });

  it(`the sandbox has at most ${RECEIPT_CHECKS_TOTAL} uploads admitted: then 503 with Retry-After, nothing stored`, async () => {
    const shops = Math.ceil(RECEIPT_CHECKS_TOTAL / RECEIPT_CHECKS_PER_SHOP) + 1;
    const sb = await open({ frozenClock: true, log: () => {}, world: worldWithShops(shops) });
    const queue = receiptChecksOf(sb.sandbox.service);
    gate.hold = true;
    const pending: (Response | Promise<Response>)[] = [];
    for (let i = 0; i < RECEIPT_CHECKS_TOTAL; i++) {
      const shop = `shop_${Math.floor(i / RECEIPT_CHECKS_PER_SHOP)}`;
      pending.push(confirm(sb, shop, (await payment(sb, shop)).operation_id, tagged(`${shop}-${i}`)));
    }
    await until('the queue full', () => queue.size() === RECEIPT_CHECKS_TOTAL);
    const last = `shop_${shops - 1}`;
    const op = await payment(sb, last);
    const full = await confirm(sb, last, op.operation_id, okReceipt);
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe(String(RECEIPT_CHECK_RETRY_AFTER_S));
    expect(((await full.json()) as { code: string }).code).toBe('receipt_checks_full');
    expect(sb.sandbox.service.state.operation(op.operation_id)?.status).toBe('awaiting_confirmation');

    await releaseAll(queue);
    for (const res of await Promise.all(pending)) expect(res.status).toBe(200);
  });
});

function formWith(file: Uint8Array): FormData {
  const form = new FormData();
  form.set('receipt', new Blob([file], { type: 'application/pdf' }), 'receipt.pdf');
  return form;
}

/** The default world with shop_a's setup copied into shops shop_0 … shop_{n-1}, each with its own key. */
function worldWithShops(n: number): unknown {
  const world = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')) as Record<
    string,
    Record<string, unknown>[]
  >;
  const of = (list: string) => world[list]!.filter((x) => x.shop_id === 'shop_a' || x.id === 'shop_a');
  const [shopA] = of('shops');
  for (let i = 0; i < n; i++) {
    const id = `shop_${i}`;
    world.shops!.push({ ...shopA, id, name: `Shop ${i}` });
    world.api_keys!.push({ id: `key_${id}`, shop_id: id, key: `pg_test_${id}_queue_${'x'.repeat(12)}`, label: id });
    for (const r of of('routes')) world.routes!.push({ ...r, id: `${String(r.id)}_${id}`, shop_id: id });
    for (const p of of('pricing')) world.pricing!.push({ ...p, shop_id: id });
  }
  return world;
}
