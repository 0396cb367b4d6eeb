// A webhook URL with credentials (user:password@, ?token=) was listed in full, and its user and
// password were silently dropped when sending. Listings now mask them like secrets; they are sent as Basic auth.
import { afterEach, describe, expect, it } from 'vitest';
import { maskUrl } from '../../src/emulator/webhook-outbox/records.js';
import { harness, paymentBody, type Harness } from '../helpers/harness.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('webhook URLs with credentials', () => {
  it('are masked in the list, the deliveries and a rotation; the user and password arrive as Basic auth', async () => {
    const rx: Receiver = await startReceiver();
    cleanup.push(() => rx.close());
    const h: Harness = await harness('in-process', { frozenClock: true, adminToken: 'adm' });
    cleanup.push(() => h.close());
    const url = `http://hook-user:p%40ss@127.0.0.1:${rx.port}/hooks?token=s3cr3t&shop=a`;
    const added = await h.call('POST', '/sandbox/webhooks', { body: { url } });
    expect(added.status).toBe(201);

    const list = (await h.call('GET', '/sandbox/webhooks')).body as { webhooks: { url: string }[] };
    const shown = list.webhooks.map((w) => w.url).join(' ');
    expect(shown).toContain(`http://***:***@127.0.0.1:${rx.port}/hooks?token=***&shop=***`);
    expect(shown).not.toContain('s3cr3t');
    expect(shown).not.toContain('p%40ss');

    await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'payer+receipt' }) });
    const got = await rx.next();
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:p@ss').toString('base64')}`);
    await h.sandbox.webhooks.idle();
    const d = (await h.call('GET', '/sandbox/webhooks/deliveries')).body as { deliveries: { url: string }[] };
    expect(d.deliveries.length).toBeGreaterThan(0);
    for (const x of d.deliveries) expect(x.url).not.toContain('s3cr3t');

    const id = (added.body as { id: string }).id;
    const rotated = await h.call('POST', `/sandbox/webhooks/${id}/rotate-secret`);
    expect((rotated.body as { url: string }).url).not.toContain('s3cr3t');
  });

  it('maskUrl leaves a URL without credentials as it is', () => {
    expect(maskUrl('https://example.test/hooks')).toBe('https://example.test/hooks');
    expect(maskUrl('not a url')).toBe('***');
  });
});
