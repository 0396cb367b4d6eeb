// The dashboard's live feed over HTTP: <dashboard>/events is the operations stream, authenticated by the session
// cookie — the list's filters and a shop key's scope applied, one operation followed until terminal — and nothing
// listens to the sandbox's writes unless a dashboard page has its stream open.
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_A, KEY_B, paymentBody } from '../helpers/harness.js';
import { useSandbox, type SandboxUnderTest } from '../helpers/sandbox.js';
import { ADMIN_TOKEN, signIn, type Signed } from './helpers.js';

type Create = Parameters<SandboxUnderTest['client']['payments']['create']>[0];
const pay = (over: Record<string, unknown> = {}) => paymentBody(over) as Create;

describe('dashboard live feed', () => {
  const h = useSandbox({ adminToken: ADMIN_TOKEN, frozenClock: true, startTime: '2026-07-01T10:00:00Z' });
  const readers: Array<ReadableStreamDefaultReader<string>> = [];
  afterEach(async () => {
    await Promise.all(readers.splice(0).map((r) => r.cancel()));
  });

  async function open(s: Signed, query = '') {
    const res = await h.handler.fetch(
      new Request(`http://paygate.local/dashboard/events${query}`, { headers: { cookie: s.cookie } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    readers.push(reader);
    let text = '';
    return {
      /** Read until `pattern` is in what came (false when the stream ended first). */
      async until(pattern: RegExp): Promise<boolean> {
        while (!pattern.test(text)) {
          const { done, value } = await reader.read();
          if (done) break;
          text += value;
        }
        return pattern.test(text);
      },
      get text() {
        return text;
      },
      reader,
    };
  }

  it('a new operation and a status change arrive; only the filters and the shop it may see', async () => {
    const idle = h.sandbox.service.writeListeners.size;
    const shopA = await signIn(h, KEY_A);
    const stream = await open(shopA, '?status=completed');
    expect(h.sandbox.service.writeListeners.size).toBe(idle + 1);
    const b = h.make({ apiKey: KEY_B });
    const other = await b.payments.create(pay({ merchant_operation_id: 'live-b' }));
    await b.sandbox.operations.pay({ operation_id: other.operation_id });
    const mine = await h.client.payments.create(pay({ merchant_operation_id: 'live-a' }));
    await h.client.sandbox.operations.pay({ operation_id: mine.operation_id });
    expect(await stream.until(/"merchant_operation_id":"live-a"/)).toBe(true);
    expect(stream.text).toMatch(/event: operation\ndata: \{[^\n]*"status":"completed"/);
    // shop_b's operation never came, though it matched the status: a key sees its own shop only.
    expect(stream.text).not.toContain('live-b');
    expect(stream.text).not.toContain('"status":"pending"');
    await stream.reader.cancel();
    readers.pop();
    // The stream gone, nothing listens any more.
    await new Promise((r) => setImmediate(r));
    expect(h.sandbox.service.writeListeners.size).toBe(idle);
  });

  it('one operation: its state now, each change, and the end once terminal', async () => {
    const op = await h.client.payments.create(pay());
    const s = await signIn(h, ADMIN_TOKEN);
    const stream = await open(s, `?id=${op.operation_id}`);
    expect(await stream.until(/"status":"pending"/)).toBe(true);
    await h.client.sandbox.operations.pay({ operation_id: op.operation_id });
    expect(await stream.until(/"status":"completed"/)).toBe(true);
    expect((await stream.reader.read()).done).toBe(true);
  });

  it("another shop's operation or listing cannot be followed with a shop key: 404, 400", async () => {
    const b = await h.make({ apiKey: KEY_B }).payments.create(pay());
    const s = await signIn(h, KEY_A);
    const res = await h.handler.fetch(
      new Request(`http://paygate.local/dashboard/events?id=${b.operation_id}`, { headers: { cookie: s.cookie } }),
    );
    expect(res.status).toBe(404);
    const list = await h.handler.fetch(
      new Request('http://paygate.local/dashboard/events?shop=shop_b', { headers: { cookie: s.cookie } }),
    );
    expect(list.status).toBe(400);
  });
});
