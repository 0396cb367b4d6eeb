// startSandbox({ forwardWebhooksTo }): a URL (string or URL) gets every delivery POSTed on, body and webhook-*
// headers unchanged, its status the sandbox's answer; anything that is neither a URL nor a handler is refused at once.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { startSandbox, type TestSandbox } from '../../src/testing/index.js';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function receiver(status: number) {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  open.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`), got };
}

async function start(forwardWebhooksTo: unknown): Promise<TestSandbox> {
  const sb = await startSandbox({ forwardWebhooksTo: forwardWebhooksTo as string });
  open.push(() => sb.close());
  return sb;
}

describe('startSandbox forwardWebhooksTo', () => {
  it('a URL object: every delivery reaches it, verifiable, and its answer is what the sandbox records', async () => {
    const rx = await receiver(503);
    const sb = await start(rx.url);
    const op = await sb.client.payments.create({
      client_id: 'alice',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    });
    await sb.webhooks.settle();
    expect(rx.got).toHaveLength(1);
    const event = verifyWebhook(rx.got[0]!.body, rx.got[0]!.headers as Record<string, string>, sb.webhookSecret);
    expect(event).toMatchObject({ type: 'operation.pending', data: { operation: { operation_id: op.operation_id } } });
    const page = await sb.client.request('webhooks.deliveries', { query: {} });
    expect(page.deliveries[0]!.attempts.map((a) => a.status_code)).toEqual([503]);
    expect(page.deliveries[0]!.status).toBe('pending');
  });

  it.each([
    [42, /must be an http\(s\) URL \(string or URL\) or a fetch handler .*not number/],
    [{ fetch: () => new Response() }, /not Object/],
    ['not a url', /forwardWebhooksTo is not a URL: "not a url"/],
    ['ftp://127.0.0.1/hooks', /must be an http\(s\) URL, not ftp:/],
  ])('refuses %j at startSandbox with a clear error', async (value, message) => {
    await expect(startSandbox({ forwardWebhooksTo: value as string })).rejects.toThrow(message);
  });
});
