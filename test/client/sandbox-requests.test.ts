// client.sandbox against a scripted gateway on both transports (node:http on 127.0.0.1:0, and in-process): method, path,
// query, body and credential of every control call, and the retry policy of state-changing actions; response checks
// (in-process) and the admin token's masking.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  ContractMismatchError,
  Paygate,
  RateLimitError,
  SANDBOX_RETRY_CLASS,
  sandboxEndpoints,
  type ClientOptions,
} from '../../src/client/index.js';
import { isRetryable } from '../../src/client/retry.js';
import { KEY, OPERATION, OPERATION_STATE, json, type Recorded, type Script, type TestServer } from './helpers.js';
import { describeTransports } from '../helpers/transport.js';
import { useScripted, type Scripted } from '../helpers/scripted.js';

const ADMIN = 'pg_admin_0123456789abcdefwxyz';
const NOW = '2026-01-01T00:00:00.000Z';
const KEY_INFO = { id: 'key_0123456789ab', shop_id: 'shop_a', last4: 'wxyz', revoked: false, created_at: NOW };
const DETAILS = {
  operation: OPERATION_STATE,
  shop_id: 'shop_a',
  merchant_operation_id: 'm-1',
  client_id: 'c-1',
  created_at: NOW,
  updated_at: NOW,
  reason: 'provider accepted',
  history: [{ at: NOW, from: null, to: 'pending', cause: 'provider accepted' }],
  uploads: [],
  webhooks: [],
  postings: [],
};
/** A listing row: the operation plus who, when and why. */
const ROW = {
  ...OPERATION,
  shop_id: 'shop_a',
  merchant_operation_id: 'm-1',
  client_id: 'c-1',
  created_at: NOW,
  updated_at: NOW,
  reason: 'create',
};

/** Requests through a scripted gateway, by a client that holds the test key and the admin token. */
function controls(scripted: Scripted) {
  const setup = (script: Script, options: Partial<ClientOptions> = {}) =>
    scripted.start(script, { adminToken: ADMIN, ...options });
  /** Answers every request with `body`. */
  const answering = (body: unknown) => setup(() => ({ status: 200, body }));
  return { setup, answering };
}

function single(s: TestServer): Recorded {
  expect(s.requests).toHaveLength(1);
  return s.requests[0]!;
}

describeTransports('sandbox controls on the wire', (transport) => {
  const scripted = useScripted(transport);
  const { setup, answering } = controls(scripted);

  describe('shop-scoped controls send the API key, never the admin token', () => {
    it('operations.list: GET with the filters as query parameters', async () => {
      const page = { total: 1, operations: [ROW], has_more: false, next_cursor: null };
      const { server, t } = await answering(page);
      const res = await t.client.sandbox.operations.list({ status: 'pending', type: 'payment', limit: 10, offset: 20 });
      expect(res).toEqual(page);
      const req = single(server);
      const url = new URL(req.url, 'http://x');
      expect(req.method).toBe('GET');
      expect(url.pathname).toBe('/sandbox/operations');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        status: 'pending',
        type: 'payment',
        limit: '10',
        offset: '20',
      });
      // A support read: with the admin token held, it is sent (every shop); the key is not.
      expect(req.headers['x-admin-token']).toBe(ADMIN);
      expect(req.headers['x-api-key']).toBeUndefined();
      expect(req.body.length).toBe(0);
    });

    it('a support read without the admin token sends the key (its shop only)', async () => {
      const { server, t } = await setup(
        () => ({ status: 200, body: { operations: [], has_more: false, next_cursor: null } }),
        { adminToken: undefined },
      );
      await t.client.sandbox.operations.list({ client_id: 'c-1' });
      const req = single(server);
      expect([req.url, req.headers['x-api-key'], req.headers['x-admin-token']]).toEqual([
        '/sandbox/operations?client_id=c-1',
        KEY,
        undefined,
      ]);
    });

    it('operations.list without filters sends no query string', async () => {
      const { server, t } = await answering({ total: 0, operations: [], has_more: false, next_cursor: null });
      await t.client.sandbox.operations.list();
      expect(single(server).url).toBe('/sandbox/operations');
    });

    it('operations.details by operation_id and by merchant_operation_id (-?merchant_operation_id=, encoded)', async () => {
      const { server, t } = await answering(DETAILS);
      expect(await t.client.sandbox.operations.details({ operation_id: OPERATION.operation_id })).toEqual(DETAILS);
      await t.client.sandbox.operations.details({ merchant_operation_id: 'order 7/a&b' });
      expect(server.requests.map((r) => [r.method, r.url])).toEqual([
        ['GET', `/sandbox/operations/${OPERATION.operation_id}`],
        ['GET', '/sandbox/operations/-?merchant_operation_id=order+7%2Fa%26b'],
      ]);
      expect(new URL(server.requests[1]!.url, 'http://x').searchParams.get('merchant_operation_id')).toBe(
        'order 7/a&b',
      );
    });

    it('pay, settle and review post their bodies to …/pay, …/settle and …/review', async () => {
      const { server, t } = await answering({ ...OPERATION, status: 'completed', actual_amount: '100.00' });
      const ref = { operation_id: OPERATION.operation_id };
      expect((await t.client.sandbox.operations.pay(ref)).status).toBe('completed');
      await t.client.sandbox.operations.pay({ merchant_operation_id: 'm-1' }, { amount: '50.00' });
      await t.client.sandbox.operations.settle(ref, 'failed');
      await t.client.sandbox.operations.review(ref, 'approve', { amount: '90.00' });
      await t.client.sandbox.operations.review({ merchant_operation_id: 'm-2' }, 'decline');
      const base = `/sandbox/operations/${OPERATION.operation_id}`;
      expect(server.requests.map((r) => [r.method, r.url, json(r.body)])).toEqual([
        ['POST', `${base}/pay`, {}],
        ['POST', '/sandbox/operations/-/pay?merchant_operation_id=m-1', { amount: '50.00' }],
        ['POST', `${base}/settle`, { outcome: 'failed' }],
        ['POST', `${base}/review`, { decision: 'approve', amount: '90.00' }],
        ['POST', '/sandbox/operations/-/review?merchant_operation_id=m-2', { decision: 'decline' }],
      ]);
      for (const req of server.requests) {
        expect(req.headers['x-api-key']).toBe(KEY);
        expect(req.headers['x-admin-token']).toBeUndefined();
        expect(req.headers['content-type']).toBe('application/json');
      }
    });

    it('an operation_id is URL-encoded into the path; an empty one is refused before sending', async () => {
      const { server, t } = await answering(DETAILS);
      await t.client.sandbox.operations.details({ operation_id: 'a/b?c' });
      expect(single(server).url).toBe('/sandbox/operations/a%2Fb%3Fc');
      await expect(t.client.sandbox.operations.pay({ operation_id: '' })).rejects.toThrow(
        /path parameter "id" must be a non-empty string/,
      );
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('pool layout and links send the API key, never the admin token', () => {
    const LAYOUT = {
      created: 2,
      rejected: 0,
      first_operation_id: OPERATION.operation_id,
      last_operation_id: OPERATION.operation_id,
    };
    const LINK = {
      operation_id: OPERATION.operation_id,
      merchant_operation_id: 'm-1',
      status: 'amount_selection',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      recommended_amount: '2200.00',
      min_amount: '2000.00',
      max_amount: null,
      expires_at: NOW,
      confirmed_amount: null,
      created_at: NOW,
    };

    it('pool.layout posts { method, amounts } or { method, generate } (optional step and seed left out)', async () => {
      const { server, t } = await answering(LAYOUT);
      expect(await t.client.sandbox.pool.layout({ method: 'WT_RUB_C2C', amounts: ['1500.00', '2500.00'] })).toEqual(
        LAYOUT,
      );
      await t.client.sandbox.pool.layout({
        method: 'WT_RUB_C2C',
        generate: { count: 2, min: '500.00', max: '900.00' },
      });
      await t.client.sandbox.pool.layout({
        method: 'WT_RUB_C2C',
        generate: { count: 2, min: '500.00', max: '900.00', step: '100.00', seed: -3 },
      });
      expect(server.requests.map((r) => [r.method, r.url, json(r.body)])).toEqual([
        ['POST', '/sandbox/pool/layout', { method: 'WT_RUB_C2C', amounts: ['1500.00', '2500.00'] }],
        [
          'POST',
          '/sandbox/pool/layout',
          { method: 'WT_RUB_C2C', generate: { count: 2, min: '500.00', max: '900.00' } },
        ],
        [
          'POST',
          '/sandbox/pool/layout',
          { method: 'WT_RUB_C2C', generate: { count: 2, min: '500.00', max: '900.00', step: '100.00', seed: -3 } },
        ],
      ]);
      for (const req of server.requests) {
        expect(req.headers['x-api-key']).toBe(KEY);
        expect(req.headers['x-admin-token']).toBeUndefined();
      }
    });

    it('links.get and links.confirm: the id URL-encoded into the path, { amount } posted', async () => {
      const { server, t } = await setup((req) =>
        req.method === 'GET'
          ? { status: 200, body: LINK }
          : { status: 200, body: { ...OPERATION, expected_amount: '2500.00' } },
      );
      expect(await t.client.sandbox.links.get(OPERATION.operation_id)).toEqual(LINK);
      expect((await t.client.sandbox.links.confirm('a/b', { amount: '2500.00' })).expected_amount).toBe('2500.00');
      expect(server.requests.map((r) => [r.method, r.url, r.body.length ? json(r.body) : undefined])).toEqual([
        ['GET', `/sandbox/links/${OPERATION.operation_id}`, undefined],
        ['POST', '/sandbox/links/a%2Fb/confirm', { amount: '2500.00' }],
      ]);
      for (const req of server.requests) {
        expect(req.headers['x-api-key']).toBe(KEY);
        expect(req.headers['x-admin-token']).toBeUndefined();
      }
      await expect(t.client.sandbox.links.get('')).rejects.toThrow(/path parameter "id" must be a non-empty string/);
      expect(server.requests).toHaveLength(2);
    });

    it('a layout after a timeout is not sent again; links.get (a read) is', async () => {
      const { server, t } = await setup((_req, n) => (n === 0 || n === 1 ? 'hang' : { status: 200, body: LINK }), {
        timeout: 50,
      });
      const err = await t.client.sandbox.pool
        .layout({ method: 'WT_RUB_C2C', amounts: ['1500.00'] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APITimeoutError);
      expect((err as Error).message).toMatch(
        /POST \/sandbox\/pool\/layout timed out after 50 ms \(attempt 1 of 3\); payouts may or may not have been laid out/,
      );
      expect(server.requests).toHaveLength(1);
      expect((await t.client.sandbox.links.get(OPERATION.operation_id).withResponse()).response.attempts).toBe(2);
    });
  });

  describe('admin controls send the admin token, never the API key', () => {
    it('pool.show (query), pool.settings and pool.updateSettings (only the fields given)', async () => {
      const { server, t } = await setup((req) =>
        req.url.startsWith('/sandbox/pool/settings')
          ? { status: 200, body: { read_latency_ms: 1500, rate_limit: false } }
          : { status: 200, body: { pools: [] } },
      );
      expect(await t.client.sandbox.pool.show()).toEqual({ pools: [] });
      await t.client.sandbox.pool.show({ method: 'WT_RUB_C2C', limit: 0 });
      expect(await t.client.sandbox.pool.settings()).toEqual({ read_latency_ms: 1500, rate_limit: false });
      await t.client.sandbox.pool.updateSettings({ read_latency_ms: 1500 });
      await t.client.sandbox.pool.updateSettings({ rate_limit: false });
      await t.client.sandbox.pool.updateSettings({ read_latency_ms: 0, rate_limit: true });
      expect(server.requests.map((r) => [r.method, r.url, r.body.length ? json(r.body) : undefined])).toEqual([
        ['GET', '/sandbox/pool', undefined],
        ['GET', '/sandbox/pool?method=WT_RUB_C2C&limit=0', undefined],
        ['GET', '/sandbox/pool/settings', undefined],
        ['POST', '/sandbox/pool/settings', { read_latency_ms: 1500 }],
        ['POST', '/sandbox/pool/settings', { rate_limit: false }],
        ['POST', '/sandbox/pool/settings', { read_latency_ms: 0, rate_limit: true }],
      ]);
      for (const req of server.requests) {
        expect(req.headers['x-admin-token']).toBe(ADMIN);
        expect(req.headers['x-api-key']).toBeUndefined();
      }
    });

    it('clock.get and clock.advance (milliseconds or a duration)', async () => {
      const clock = { now: NOW, frozen: true, pending_timers: 0 };
      const { server, t } = await answering(clock);
      expect(await t.client.sandbox.clock.get()).toEqual(clock);
      await t.client.sandbox.clock.advance('10s');
      await t.client.sandbox.clock.advance(1500);
      expect(server.requests.map((r) => [r.method, r.url, r.body.length ? json(r.body) : undefined])).toEqual([
        ['GET', '/sandbox/clock', undefined],
        ['POST', '/sandbox/clock/advance', { by: '10s' }],
        ['POST', '/sandbox/clock/advance', { by: 1500 }],
      ]);
      for (const req of server.requests) {
        expect(req.headers['x-admin-token']).toBe(ADMIN);
        expect(req.headers['x-api-key']).toBeUndefined();
      }
    });

    it('evidence.get is a GET, evidence.set a PUT', async () => {
      const { server, t } = await answering({ available: false });
      expect(await t.client.sandbox.evidence.get()).toEqual({ available: false });
      expect(await t.client.sandbox.evidence.set(false)).toEqual({ available: false });
      expect(server.requests.map((r) => [r.method, r.url, r.body.length ? json(r.body) : undefined])).toEqual([
        ['GET', '/sandbox/evidence', undefined],
        ['PUT', '/sandbox/evidence', { available: false }],
      ]);
      expect(server.requests[1]!.headers['x-admin-token']).toBe(ADMIN);
    });

    it('keys.list, keys.issue and keys.revoke', async () => {
      const { server, t } = await setup((req) => {
        if (req.method === 'GET') return { status: 200, body: { keys: [KEY_INFO] } };
        if (req.url === '/sandbox/keys')
          return { status: 200, body: { ...KEY_INFO, label: 'ci', api_key: 'pg_test_secretwxyz' } };
        return { status: 200, body: { ...KEY_INFO, revoked: true, revoked_at: NOW } };
      });
      expect((await t.client.sandbox.keys.list({ shop_id: 'shop_a' })).keys).toEqual([KEY_INFO]);
      await t.client.sandbox.keys.list();
      expect((await t.client.sandbox.keys.issue({ shop_id: 'shop_a', label: 'ci' })).api_key).toBe(
        'pg_test_secretwxyz',
      );
      await t.client.sandbox.keys.issue({ shop_id: 'shop_b' });
      expect((await t.client.sandbox.keys.revoke(KEY_INFO.id)).revoked).toBe(true);
      expect(server.requests.map((r) => [r.method, r.url, r.body.length ? json(r.body) : undefined])).toEqual([
        ['GET', '/sandbox/keys?shop_id=shop_a', undefined],
        ['GET', '/sandbox/keys', undefined],
        ['POST', '/sandbox/keys', { shop_id: 'shop_a', label: 'ci' }],
        ['POST', '/sandbox/keys', { shop_id: 'shop_b' }],
        ['POST', `/sandbox/keys/${KEY_INFO.id}/revoke`, undefined],
      ]);
      for (const req of server.requests) expect(req.headers['x-admin-token']).toBe(ADMIN);
    });

    it('reset posts to /sandbox/reset', async () => {
      const { server, t } = await answering({ reset: true, now: NOW });
      expect(await t.client.sandbox.reset()).toEqual({ reset: true, now: NOW });
      const req = single(server);
      expect([req.method, req.url, req.headers['x-admin-token'], req.headers['x-api-key']]).toEqual([
        'POST',
        '/sandbox/reset',
        ADMIN,
        undefined,
      ]);
    });

    it('admin controls work without an API key; without the admin token nothing is sent', async () => {
      const { server, t } = await setup(() => ({ status: 200, body: { available: true } }), { apiKey: undefined });
      expect(t.client.hasApiKey).toBe(false);
      expect(await t.client.sandbox.evidence.get()).toEqual({ available: true });
      expect(single(server).headers['x-admin-token']).toBe(ADMIN);
      const noAdmin = scripted.client(server);
      expect(noAdmin.client.hasAdminToken).toBe(false);
      await expect(noAdmin.client.sandbox.evidence.set(true)).rejects.toThrow(
        /PUT \/sandbox\/evidence needs the sandbox admin token: pass \{ adminToken \}.*PAYGATE_ADMIN_TOKEN/,
      );
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('retries', () => {
    it('pay after a timeout is not sent again: APITimeoutError with a hint, one request', async () => {
      const { server, t } = await setup(() => 'hang', { timeout: 50 });
      const err = await t.client.sandbox.operations
        .pay({ operation_id: OPERATION.operation_id })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APITimeoutError);
      expect((err as Error).message).toMatch(
        /POST \/sandbox\/operations\/:id\/pay timed out after 50 ms \(attempt 1 of 3\); the sandbox may or may not have applied it/,
      );
      expect(server.requests).toHaveLength(1);
    });

    it('advance and reset after a dropped connection are not sent again', async () => {
      const { server, t } = await setup(() => 'destroy');
      await expect(t.client.sandbox.clock.advance('10s')).rejects.toBeInstanceOf(APIConnectionError);
      expect(server.requests).toHaveLength(1);
      await expect(t.client.sandbox.reset()).rejects.toBeInstanceOf(APIConnectionError);
      expect(server.requests).toHaveLength(2);
      expect(t.waits).toEqual([]);
    });

    it('an action answered 429 or 503 is retried with the same body', async () => {
      const { server, t } = await setup((_req, n) =>
        n === 0
          ? { status: 429, body: { code: 'rate_limited', message: 'x' }, headers: { 'retry-after': '1' } }
          : n === 1
            ? { status: 503, body: { code: 'unavailable', message: 'x' } }
            : { status: 200, body: { ...OPERATION, type: 'payout', status: 'completed' } },
      );
      const res = await t.client.sandbox.operations
        .settle({ operation_id: OPERATION.operation_id }, 'completed')
        .withResponse();
      expect(res.response.attempts).toBe(3);
      expect(t.waits).toEqual([1000, 1000]);
      expect(server.requests.map((r) => json(r.body))).toEqual([
        { outcome: 'completed' },
        { outcome: 'completed' },
        { outcome: 'completed' },
      ]);
    });

    it('an action gives up after maxRetries 429s', async () => {
      const { server, t } = await setup(() => ({ status: 429, body: { code: 'rate_limited', message: 'x' } }));
      await expect(t.client.sandbox.keys.issue({ shop_id: 'shop_a' })).rejects.toBeInstanceOf(RateLimitError);
      expect(server.requests).toHaveLength(3);
    });

    it('reads are retried after a timeout and a dropped connection', async () => {
      const { server, t } = await setup(
        (_req, n) => (n === 0 ? 'hang' : n === 1 ? 'destroy' : { status: 200, body: DETAILS }),
        { timeout: 50 },
      );
      const res = await t.client.sandbox.operations.details({ merchant_operation_id: 'm-1' }).withResponse();
      expect(res.response.attempts).toBe(3);
      expect(server.requests).toHaveLength(3);
    });
  });
});

describe('responses are checked against src/contract/sandbox.ts', () => {
  // Not HTTP itself: in-process only.
  const { setup, answering } = controls(useScripted('in-process'));

  it('a details body without its history is a ContractMismatchError naming the field', async () => {
    const { history: _h, ...rest } = DETAILS;
    const { t } = await answering(rest);
    const err = await t.client.sandbox.operations
      .details({ operation_id: OPERATION.operation_id })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContractMismatchError);
    expect((err as ContractMismatchError).message).toBe(
      'GET /sandbox/operations/:id: response field "history": is missing',
    );
  });

  it('a pool window without free_total, and settings with a string latency, are refused', async () => {
    const { t } = await setup((req) =>
      req.url === '/sandbox/pool'
        ? {
            status: 200,
            body: {
              pools: [
                {
                  pool_id: 'p',
                  method: 'WT_RUB_C2C',
                  currency: 'RUB',
                  min_piece: '500.00',
                  min_remainder: '500.00',
                  slots: 0,
                  first: [],
                },
              ],
            },
          }
        : { status: 200, body: { read_latency_ms: '1500', rate_limit: true } },
    );
    await expect(t.client.sandbox.pool.show()).rejects.toThrow(ContractMismatchError);
    await expect(t.client.sandbox.pool.show()).rejects.toThrow(
      /GET \/sandbox\/pool: response field "pools\[0\]\.free_total": is missing/,
    );
    await expect(t.client.sandbox.pool.settings()).rejects.toThrow(
      /GET \/sandbox\/pool\/settings: response field "read_latency_ms"/,
    );
  });

  it('a clock with a numeric now is refused', async () => {
    const { t } = await answering({ now: 1, frozen: true, pending_timers: 0 });
    await expect(t.client.sandbox.clock.get()).rejects.toThrow(/GET \/sandbox\/clock: response field "now"/);
  });
});

describe('the admin token is never shown', () => {
  it('is masked in toString, inspect and JSON', () => {
    const c = new Paygate({ baseUrl: 'http://x', apiKey: KEY, adminToken: ADMIN });
    for (const shown of [String(c), inspect(c), JSON.stringify(c), inspect({ nested: c }, { depth: 5 })]) {
      expect(shown).not.toContain(ADMIN);
      expect(shown).not.toContain(ADMIN.slice(0, 12));
      expect(shown).not.toContain(KEY);
    }
    expect(String(c)).toContain("adminToken: '****wxyz'");
    expect(JSON.parse(JSON.stringify(c))).toMatchObject({ apiKey: '****cdef', adminToken: '****wxyz' });
    expect(c.maskedAdminToken).toBe('****wxyz');
    expect(new Paygate({ baseUrl: 'http://x', adminToken: 'adm' }).maskedAdminToken).toBe('****');
    const none = new Paygate({ baseUrl: 'http://x' });
    expect(none.hasAdminToken).toBe(false);
    expect(String(none)).not.toContain('adminToken');
    expect(JSON.parse(JSON.stringify(none))).not.toHaveProperty('adminToken');
  });
});

describe('retry classes of the controls', () => {
  it('every control route has a retry class; reads are reads, every state change is an action', () => {
    expect(Object.keys(SANDBOX_RETRY_CLASS).sort()).toEqual(Object.keys(sandboxEndpoints).sort());
    const actions = Object.entries(SANDBOX_RETRY_CLASS)
      .filter(([, c]) => c === 'action')
      .map(([id]) => id)
      .sort();
    expect(actions).toEqual(
      [
        'operations.pay',
        'operations.settle',
        'operations.review',
        'clock.advance',
        'evidence.set',
        'keys.issue',
        'keys.revoke',
        'sandbox.reset',
        'webhooks.add',
        'webhooks.rotate_secret',
        'webhooks.remove',
        'webhooks.redeliver',
        'pool.layout',
        'pool.update_settings',
        'links.confirm',
        'faults.add',
        'faults.set',
        'faults.clear',
        'faults.remove',
        'workspaces.create',
        'workspaces.delete',
      ].sort(),
    );
    for (const [id, c] of Object.entries(SANDBOX_RETRY_CLASS)) {
      if (c !== 'action') expect(sandboxEndpoints[id as keyof typeof sandboxEndpoints].method).toBe('GET');
    }
  });

  it('an action is retried on a 429/503 answer, never after a timeout or a connection error', () => {
    expect(isRetryable('action', { kind: 'status', status: 429 }, true)).toBe(true);
    expect(isRetryable('action', { kind: 'status', status: 503 }, true)).toBe(true);
    expect(isRetryable('action', { kind: 'timeout' }, true)).toBe(false);
    expect(isRetryable('action', { kind: 'connection' }, true)).toBe(false);
    for (const status of [400, 401, 404, 409, 500, 501, 502, 504])
      expect(isRetryable('action', { kind: 'status', status }, true)).toBe(false);
  });
});
