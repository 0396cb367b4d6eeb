// Every client method sends the right method, path, headers and body, and parses the right response: against a scripted
// gateway on both transports (over HTTP on 127.0.0.1:0, and in-process).
import { inspect } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { Paygate, PaygateError } from '../../src/client/index.js';
import { AvailabilityResponse, FlexibleLinkResponse, RecommendationsResponse } from '../../src/contract/index.js';
import {
  AVAILABILITY,
  BALANCES,
  CREATE,
  KEY,
  OPERATION,
  OPERATION_STATE,
  json,
  type Recorded,
  type Reply,
  type TestClient,
  type TestServer,
} from './helpers.js';
import { describeTransports } from '../helpers/transport.js';
import { useScripted } from '../helpers/scripted.js';

const ROUTES: Record<string, unknown> = {
  'POST /v1/payment': OPERATION,
  'POST /v1/payment/link': { ...OPERATION, payment_url: 'http://pay.local/pay/x' },
  'POST /v1/payment/link/flexible': {
    operation_id: OPERATION.operation_id,
    status: 'amount_selection',
    method: 'WT_RUB_C2C',
    currency: 'RUB',
    recommended_amount: '150.00',
    payment_url: 'http://pay.local/pay/x?k=secret',
    expires_at: '2025-01-01T00:15:00Z',
  },
  'POST /v1/payout': { ...OPERATION, type: 'payout' },
  'POST /v1/confirm_payment': { ...OPERATION, status: 'manual_check', manual_check_reason: 'not_terminal' },
  'POST /v1/get_operation_state': OPERATION_STATE,
  'POST /v1/cancel_operation': { outcome: 'cancelled', operation: { ...OPERATION, status: 'cancelled' } },
  'GET /v1/balances': BALANCES,
  'GET /v1/payment/availability': AVAILABILITY,
  'POST /v1/payment/recommendations': { ...AVAILABILITY, recommendations: [{ amount: '150.00', delta: '0.00' }] },
};

/** A flexible link that created the operation at once (amount available now). */
const FLEX_OPERATION = { ...OPERATION, payment_url: 'http://pay.local/pay/x?k=secret' };

/** The scripted gateway: every route of ROUTES, the health probes, 404 otherwise. */
const routes = (req: Recorded): Reply => {
  const path = req.url.split('?')[0];
  if (['/livez', '/healthz', '/readyz'].includes(path ?? '')) return { status: 204 };
  const body = ROUTES[`${req.method} ${path}`];
  return body ? { status: 200, body } : { status: 404, body: { code: 'not_found', message: 'no route' } };
};

describeTransports('the client on the wire', (transport) => {
  const scripted = useScripted(transport);
  let server: TestServer;
  let t: TestClient;
  beforeEach(async () => {
    ({ server, t } = await scripted.start(routes));
  });

  describe('requests', () => {
    it('payments.create posts the body with a generated merchant_operation_id and the key', async () => {
      const { data, merchant_operation_id, response } = await t.client.payments.create(CREATE).withResponse();
      expect(data).toEqual(OPERATION);
      expect(merchant_operation_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.status).toBe(200);
      expect(response.attempts).toBe(1);
      const req = server.requests[0]!;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v1/payment');
      expect(req.headers['x-api-key']).toBe(KEY);
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['user-agent']).toMatch(/^paygate-client\//);
      expect(json(req.body)).toEqual({ ...CREATE, merchant_operation_id });
    });

    it('a given merchant_operation_id is sent unchanged, and awaiting gives the operation', async () => {
      const op = await t.client.payments.create({ ...CREATE, merchant_operation_id: 'm-1' });
      expect(op.operation_id).toBe(OPERATION.operation_id);
      expect(json(server.requests[0]!.body)).toMatchObject({ merchant_operation_id: 'm-1' });
      const again = await t.client.payouts.create({ ...CREATE, merchant_operation_id: 'm-2' }).withResponse();
      expect(again.merchant_operation_id).toBe('m-2');
    });

    it('each call generates its own id', async () => {
      const a = await t.client.payments.create(CREATE).withResponse();
      const b = await t.client.payments.create(CREATE).withResponse();
      expect(a.merchant_operation_id).not.toBe(b.merchant_operation_id);
    });

    it('createLink, createFlexibleLink and payouts.create hit their paths', async () => {
      const link = await t.client.payments.createLink(CREATE);
      expect(link.payment_url).toBe('http://pay.local/pay/x');
      const flex = await t.client.payments.createFlexibleLink({
        client_id: 'c',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        recommended_amount: '150.00',
      });
      expect(flex.status).toBe('amount_selection');
      const payout = await t.client.payouts.create({ ...CREATE, number: '4111', bankname: 'sber' });
      expect(payout.type).toBe('payout');
      expect(server.requests.map((r) => r.url)).toEqual([
        '/v1/payment/link',
        '/v1/payment/link/flexible',
        '/v1/payout',
      ]);
      expect(json(server.requests[1]!.body)).toMatchObject({ recommended_amount: '150.00' });
    });

    it('operations.get sends just the identifier given', async () => {
      await t.client.operations.get({ operation_id: OPERATION.operation_id });
      await t.client.operations.get({ merchant_operation_id: 'm-1' });
      expect(json(server.requests[0]!.body)).toEqual({ operation_id: OPERATION.operation_id });
      expect(json(server.requests[1]!.body)).toEqual({ merchant_operation_id: 'm-1' });
    });

    it('operations.cancel sends the identifier and reason', async () => {
      const res = await t.client.operations.cancel({ merchant_operation_id: 'm-1', reason: 'customer left' });
      expect(res.outcome).toBe('cancelled');
      expect(json(server.requests[0]!.body)).toEqual({ merchant_operation_id: 'm-1', reason: 'customer left' });
    });

    it('balances.list is a GET with the key and no body', async () => {
      expect(await t.client.balances.list()).toEqual(BALANCES);
      const req = server.requests[0]!;
      expect(req.method).toBe('GET');
      expect(req.headers['x-api-key']).toBe(KEY);
      expect(req.body.length).toBe(0);
    });

    it('health.check sends no key and reports the status', async () => {
      expect(await t.client.health.check()).toEqual({ ok: true, status: 204 });
      expect(await t.client.health.check('livez')).toEqual({ ok: true, status: 204 });
      expect(server.requests.map((r) => r.url)).toEqual(['/readyz', '/livez']);
      expect(server.requests[0]!.headers['x-api-key']).toBeUndefined();
    });

    it('per-call headers are sent', async () => {
      await t.client.balances.list({ headers: { 'X-Trace': 'abc' } });
      expect(server.requests[0]!.headers['x-trace']).toBe('abc');
    });

    it('a base URL with a path prefix keeps it', async () => {
      const c = scripted.client(server, { baseUrl: `${server.baseUrl}/gw/` });
      await c.client.balances.list().catch(() => undefined);
      expect(server.requests[0]!.url).toBe('/gw/v1/balances');
    });
  });

  describe('flexible link, availability and recommendations (the emulator answers 501 for these: covered here)', () => {
    const FLEX = {
      client_id: 'c-9',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '150.00',
      min_amount: '100.00',
      max_amount: '200.00',
    };
    const QUERY = { method: 'WT_RUB_C2C', currency: 'RUB', min_amount: '100.00', max_amount: '200.00' };

    it('the canned bodies are valid by the contract', () => {
      expect(FlexibleLinkResponse.safeParse(ROUTES['POST /v1/payment/link/flexible']).success).toBe(true);
      expect(FlexibleLinkResponse.safeParse(FLEX_OPERATION).success).toBe(true);
      expect(AvailabilityResponse.safeParse(ROUTES['GET /v1/payment/availability']).success).toBe(true);
      expect(RecommendationsResponse.safeParse(ROUTES['POST /v1/payment/recommendations']).success).toBe(true);
    });

    it('payments.createFlexibleLink posts the body with a generated merchant_operation_id; an amount selection', async () => {
      const { data, merchant_operation_id, response } = await t.client.payments.createFlexibleLink(FLEX).withResponse();
      expect(data).toEqual(ROUTES['POST /v1/payment/link/flexible']);
      expect(response.status).toBe(200);
      const req = server.requests[0]!;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v1/payment/link/flexible');
      expect(req.headers['x-api-key']).toBe(KEY);
      expect(req.headers['content-type']).toBe('application/json');
      expect(json(req.body)).toEqual({ ...FLEX, merchant_operation_id });
      expect(merchant_operation_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('payments.createFlexibleLink: an operation created at once (the other branch of the union)', async () => {
      const { server: s, t: c } = await scripted.start(() => ({ status: 200, body: FLEX_OPERATION }));
      const res = await c.client.payments.createFlexibleLink({ ...FLEX, merchant_operation_id: 'flex-1' });
      expect(res).toEqual(FLEX_OPERATION);
      expect('type' in res && res.type).toBe('payment');
      expect(json(s.requests[0]!.body)).toEqual({ ...FLEX, merchant_operation_id: 'flex-1' });
    });

    it('payments.availability is a GET with the query string, the key and no body', async () => {
      const res = await t.client.payments.availability(QUERY);
      expect(res).toEqual(AVAILABILITY);
      const req = server.requests[0]!;
      const url = new URL(req.url, 'http://x');
      expect(req.method).toBe('GET');
      expect(url.pathname).toBe('/v1/payment/availability');
      expect(Object.fromEntries(url.searchParams)).toEqual(QUERY);
      expect(req.headers['x-api-key']).toBe(KEY);
      expect(req.body.length).toBe(0);
    });

    it('payments.recommendations posts its body as JSON with the key', async () => {
      const params = { ...QUERY, amount: '150.00', limit: 5 };
      const res = await t.client.payments.recommendations(params);
      expect(res).toEqual(ROUTES['POST /v1/payment/recommendations']);
      expect(res.recommendations[0]).toEqual({ amount: '150.00', delta: '0.00' });
      const req = server.requests[0]!;
      expect(req.method).toBe('POST');
      expect(req.url).toBe('/v1/payment/recommendations');
      expect(req.headers['x-api-key']).toBe(KEY);
      expect(req.headers['content-type']).toBe('application/json');
      expect(json(req.body)).toEqual(params);
    });
  });

  describe('api key', () => {
    it('a /v1 call without a key throws before sending; health works without one', async () => {
      const c = scripted.client(server, { apiKey: undefined });
      await expect(c.client.balances.list()).rejects.toThrow(/needs an API key/);
      await expect(c.client.payments.create(CREATE)).rejects.toBeInstanceOf(PaygateError);
      expect(server.requests).toHaveLength(0);
      expect((await c.client.health.check()).ok).toBe(true);
    });

    it('an unknown health probe is refused', async () => {
      // @ts-expect-error runtime check for callers without types (the CLI parses user input)
      await expect(t.client.health.check('nope')).rejects.toThrow(/unknown probe/);
    });
  });
});

describe('api key and options (no server)', () => {
  it('is masked in toString, inspect and JSON', () => {
    const c = new Paygate({ baseUrl: 'http://x', apiKey: KEY });
    for (const shown of [String(c), inspect(c), JSON.stringify(c), inspect({ nested: c }, { depth: 5 })]) {
      expect(shown).not.toContain(KEY);
      expect(shown).not.toContain(KEY.slice(0, 8));
    }
    expect(String(c)).toContain('****cdef');
    expect(c.maskedApiKey).toBe('****cdef');
    expect(new Paygate({ baseUrl: 'http://x', apiKey: 'short' }).maskedApiKey).toBe('****');
  });

  it('validates constructor options', () => {
    expect(() => new Paygate({ baseUrl: '' })).toThrow(/baseUrl is required/);
    expect(() => new Paygate({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
    expect(() => new Paygate({ baseUrl: 'ftp://x' })).toThrow(/http or https/);
    expect(() => new Paygate({ baseUrl: 'http://x', timeout: -1 })).toThrow(/timeout/);
    const c = new Paygate({ baseUrl: 'http://x/' });
    expect(c.baseUrl).toBe('http://x');
    expect(c.timeout).toBe(30_000);
    expect(c.maxRetries).toBe(2);
  });
});
