// Spec §5 rule 3: an unauthenticated request never reaches dispatch. Without a
// valid key, an unknown /v1 path and a known one with the wrong method are 401, like any /v1 request; only a valid
// key learns that the path or the method does not exist (404, 405).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEY_A, KEY_REVOKED, harness, type Harness } from '../helpers/harness.js';

describe('authentication before dispatch', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness('in-process');
  });
  afterEach(() => h.close());

  it('no key: 401 x-api-key header is required, for an unknown path and for a wrong method', async () => {
    for (const [m, p] of [
      ['POST', '/v1/nonexistent'],
      ['GET', '/v1/payment'],
      ['DELETE', '/v1/balances'],
      ['GET', '/v1'],
    ] as const) {
      const r = await h.call(m, p, { key: null });
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(r.body).toEqual({ code: 'missing_api_key', message: 'x-api-key header is required' });
    }
  });

  it('an unknown or revoked key: 401 invalid api key', async () => {
    for (const key of ['pg_nope', KEY_REVOKED]) {
      const r = await h.call('GET', '/v1/payment', { key });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 'invalid_api_key', message: 'invalid api key' });
    }
  });

  it('a valid key: 404 for an unknown path, 405 with Allow for a wrong method', async () => {
    expect((await h.call('POST', '/v1/nonexistent', { key: KEY_A })).status).toBe(404);
    const r = await h.call('GET', '/v1/payment', { key: KEY_A });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });

  it('outside /v1 nothing changes: an unknown path is 404 without a key', async () => {
    expect((await h.call('GET', '/nowhere', { key: null })).status).toBe(404);
  });
});
