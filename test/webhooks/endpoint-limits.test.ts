// Webhook endpoints were unbounded (1,000 endpoints of 65,000-character URLs), and removed
// endpoints kept their secrets. A shop may have 16 endpoints, a URL 2,048 characters; a removed endpoint's secrets go.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_ENDPOINTS, MAX_WEBHOOK_URL_LENGTH } from '../../src/contract/sandbox-webhooks.js';
import { KEY_B, harness, type Harness } from '../helpers/harness.js';

describe('webhook endpoint limits', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness('in-process', { frozenClock: true });
  });
  afterEach(() => h.close());
  const add = (url: string, key?: string) =>
    h.call('POST', '/sandbox/webhooks', { body: { url }, ...(key ? { key } : {}) });

  it('a URL longer than 2,048 characters is 400 validation_error; nothing is stored', async () => {
    const before = h.sandbox.service.state.webhookEndpoints.size;
    const r = await add(`https://example.test/${'x'.repeat(MAX_WEBHOOK_URL_LENGTH)}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'validation_error' });
    expect((r.body as { message: string }).message).toContain('at most 2048 characters');
    expect(h.sandbox.service.state.webhookEndpoints.size).toBe(before);
  });

  it('the 17th endpoint of a shop is 409 webhook_limit saying what to do; another shop is not affected; a removal makes room', async () => {
    const existing = ((await h.call('GET', '/sandbox/webhooks')).body as { webhooks: unknown[] }).webhooks.length;
    const ids: string[] = [];
    for (let i = existing; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      const r = await add(`https://example.test/hook/${i}`);
      expect(r.status).toBe(201);
      ids.push((r.body as { id: string }).id);
    }
    const over = await add('https://example.test/one-too-many');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'webhook_limit' });
    expect((over.body as { message: string }).message).toContain('remove one first');
    expect((await add('https://example.test/shop-b', KEY_B)).status).toBe(201);
    expect((await h.call('DELETE', `/sandbox/webhooks/${ids[0]}`)).status).toBeLessThan(300);
    expect((await add('https://example.test/after-removal')).status).toBe(201);
  });

  it('a removed endpoint keeps no secret', async () => {
    const r = await add('https://example.test/removed');
    const id = (r.body as { id: string; secret: string }).id;
    const rotated = await h.call('POST', `/sandbox/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    await h.call('DELETE', `/sandbox/webhooks/${id}`);
    const stored = h.sandbox.service.state.webhookEndpoints.get(id)!;
    expect(stored.deleted_at).toBeDefined();
    expect(stored.secret).toBe('');
    expect(stored.previous_secrets).toEqual([]);
  });
});
