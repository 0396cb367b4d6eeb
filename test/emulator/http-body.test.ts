// Body limits over a real socket: a chunked body with no Content-Length is cut off at the limit with a 413,
// and the connection still carries the answer.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { KEY_A } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('request bodies over HTTP', () => {
  const h = useSandbox({ transport: 'http' });

  const send = (chunks: string[], headers: Record<string, string> = {}) =>
    new Promise<[number, string]>((resolve, reject) => {
      const u = new URL(h.baseUrl);
      const req = http.request(
        { host: u.hostname, port: u.port, path: '/v1/payment', method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY_A, 'transfer-encoding': 'chunked', ...headers } },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve([res.statusCode!, body]));
        },
      );
      req.on('error', reject);
      for (const c of chunks) req.write(c);
      req.end();
    });

  it('a chunked body over the limit is a 413 and nothing is stored', async () => {
    const [status, body] = await send(Array.from({ length: 20 }, () => 'x'.repeat(8192)));
    expect(status).toBe(413);
    expect(JSON.parse(body).code).toBe('body_too_large');
    expect(h.sandbox.store.state.operations.size).toBe(0);
  });

  it('a chunked body within the limit is read whole', async () => {
    const json = JSON.stringify({ merchant_operation_id: 'chunked-1', client_id: 'c', method: 'WT_RUB_C2C', amount: '150.00', currency: 'RUB' });
    const [status, body] = await send([json.slice(0, 10), json.slice(10, 40), json.slice(40)]);
    expect(status).toBe(200);
    expect(JSON.parse(body).expected_amount).toBe('150.00');
  });
});
