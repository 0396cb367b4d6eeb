// The CLI's node:http transport under the client's core (src/cli/http-transport.ts): what goes on the wire, and every
// failure the core tells apart (dropped connection, no answer, nobody listening, the caller's abort) mapped as it is
// over undici, against a scripted server on 127.0.0.1.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { nodeTransport } from '../../src/cli/http-transport.js';
import { APIConnectionError, APITimeoutError, APIUserAbortError } from '../../src/client/errors.js';
import type { ClientOptions } from '../../src/client/options.js';
import { Paygate } from '../../src/client/paygate.js';
import { deadPort } from '../helpers/transport.js';
import { useScripted, type Script } from '../helpers/scripted.js';
import { CREATE, KEY, OPERATION, OPERATION_STATE } from '../client/helpers.js';

const scripted = useScripted('http');

async function setup(script: Script, overrides: Partial<ClientOptions> = {}) {
  return scripted.start(script, { dispatcher: undefined, transport: nodeTransport(), ...overrides });
}

describe('the CLI transport (node:http)', () => {
  it('sends the method, path, headers and a JSON body with its length in bytes; gives back status, headers and body', async () => {
    const { server, t } = await setup(() => ({ status: 200, body: OPERATION, headers: { 'X-Request-Id': 'req-1' } }));
    const res = await t.client.payments.create({ ...CREATE, client_id: 'клиент-1' }).withResponse();
    expect(res.data).toEqual(OPERATION);
    expect(res.response.requestId).toBe('req-1');
    const [req] = server.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/v1/payment');
    expect(req!.headers['x-api-key']).toBe(KEY);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['content-length']).toBe(String(req!.body.length));
    expect(req!.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(req!.body.toString('utf8'))).toMatchObject({ client_id: 'клиент-1' });
  });

  it('streams a receipt given as a stream', async () => {
    const { server, t } = await setup(() => ({ status: 200, body: OPERATION }));
    const pdf = Buffer.from('%PDF-1.4 receipt bytes');
    await t.client.payments.confirm({
      operation_id: OPERATION.operation_id,
      receipt: Readable.from([pdf.subarray(0, 5), pdf.subarray(5)]),
    });
    const body = server.requests[0]!.body.toString('latin1');
    expect(server.requests[0]!.headers['transfer-encoding']).toBe('chunked');
    expect(body).toContain(pdf.toString('latin1'));
    expect(body).toContain('name="operation_id"');
  });

  it('a dropped connection on a read is retried', async () => {
    const { server, t } = await setup((_req, n) => (n === 0 ? 'destroy' : { status: 200, body: OPERATION_STATE }));
    const res = await t.client.operations.get({ operation_id: OPERATION.operation_id }).withResponse();
    expect(res.response.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('a server that never answers: APITimeoutError after each attempt', async () => {
    const { t } = await setup(() => 'hang', { timeout: 30, maxRetries: 1 });
    const err = await t.client.balances.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
    expect((err as Error).message).toMatch(/^GET \/v1\/balances timed out after 30 ms \(attempt 2 of 2\)/);
  });

  it('nobody listening: APIConnectionError with the socket error', async () => {
    const baseUrl = `http://127.0.0.1:${await deadPort()}`;
    const client = new Paygate({ baseUrl, apiKey: KEY, maxRetries: 0, transport: nodeTransport() });
    const err = await client.balances.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toBe(
      `GET /v1/balances failed to connect to ${baseUrl}: connect ECONNREFUSED ${baseUrl.slice('http://'.length)} (attempt 1 of 1)`,
    );
  });

  it("the caller's abort ends a request in flight", async () => {
    const ac = new AbortController();
    const { server, t } = await setup(() => {
      ac.abort();
      return 'hang';
    });
    await expect(t.client.balances.list({ signal: ac.signal })).rejects.toBeInstanceOf(APIUserAbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('an answer that is not 2xx is an APIError with its body', async () => {
    const { t } = await setup(() => ({
      status: 404,
      body: { error: { code: 'not_found', message: 'no such operation' } },
    }));
    const err = await t.client.operations.get({ operation_id: OPERATION.operation_id }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });
});
