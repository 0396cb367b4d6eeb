// Nobody can tell which workspaces exist without the server's admin token. Under `/w/<id>/…` an unknown
// id answers exactly what a known workspace answers a request without valid credentials (spec §5: the credential is
// checked before anything else): no key, a wrong key, another workspace's key or admin token, any /v1 path.
import { describe, expect, it } from 'vitest';
import { KEY_A, paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { admin, createWs } from './helpers.js';

const ADMIN = 'pg_admin_ws_existence_0123456789';

describe('workspaces: an unknown id tells nothing without the server admin token', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, adminToken: ADMIN });

  it('an unknown workspace and a known one answer the same without valid credentials; the server admin learns 404', async () => {
    const wsa = await createWs(h, ADMIN, { id: 'wsa' });
    const wsb = await createWs(h, ADMIN, { id: 'wsb' });
    const cases: { method: string; path: string; headers: Record<string, string>; body?: unknown }[] = [
      { method: 'GET', path: '/v1/balances', headers: {} },
      { method: 'GET', path: '/v1/balances', headers: { 'x-api-key': 'sk_test_not_a_key' } },
      { method: 'GET', path: '/v1/balances', headers: { 'x-api-key': KEY_A } }, // the default workspace's key
      { method: 'GET', path: '/v1/balances', headers: { 'x-api-key': wsb.keys.shop_a! } },
      { method: 'POST', path: '/v1/payment', headers: { 'x-api-key': wsb.keys.shop_a! }, body: paymentBody() },
      { method: 'GET', path: '/v1/no-such-endpoint', headers: {} },
      { method: 'DELETE', path: '/v1/payment', headers: {} },
      { method: 'GET', path: '/sandbox/clock', headers: {} },
      { method: 'GET', path: '/sandbox/clock', headers: { 'x-admin-token': wsb.adminToken } },
      {
        method: 'POST',
        path: '/sandbox/clock/advance',
        headers: { 'x-admin-token': 'pg_admin_guess' },
        body: { by: '1m' },
      },
      { method: 'GET', path: '/sandbox/operations', headers: { 'x-api-key': wsb.keys.shop_a! } },
      {
        method: 'GET',
        path: '/sandbox/operations/00000000-0000-0000-0000-000000000000',
        headers: { 'x-admin-token': wsb.adminToken },
      },
    ];
    for (const c of cases) {
      const opts = { key: null, headers: c.headers, ...(c.body !== undefined ? { body: c.body } : {}) };
      const known = await h.call(c.method, `/w/${wsa.id}${c.path}`, opts);
      const unknown = await h.call(c.method, `/w/nonexist${c.path}`, opts);
      const what = `${c.method} ${c.path} ${JSON.stringify(c.headers)}`;
      expect(known.status, what).toBe(401);
      expect({ status: unknown.status, body: unknown.body }, what).toEqual({ status: known.status, body: known.body });
      expect(unknown.text, what).not.toContain('nonexist');
    }
    // The workspace's own key works there; the server's admin token (it lists the workspaces anyway) learns the truth.
    expect((await h.call('GET', '/w/wsa/v1/balances', { key: wsa.keys.shop_a! })).status).toBe(200);
    const listed = await admin(h, ADMIN, 'GET', '/w/nonexist/v1/balances');
    expect([listed.status, listed.body.code]).toEqual([404, 'workspace_not_found']);
    expect(listed.body.message).toContain('nonexist');
  });
});
