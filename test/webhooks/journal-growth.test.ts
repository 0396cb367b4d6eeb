// Every delivery record carried a copy of its endpoint's URL, so one create with 16 endpoints of
// 2,048-character URLs wrote 16 URL copies to the journal, and every outcome rewrote them. A delivery now names its
// endpoint; the URL is read from the endpoint when an attempt is sent.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_ENDPOINTS, MAX_WEBHOOK_URL_LENGTH } from '../../src/contract/sandbox-webhooks.js';
import { paymentBody } from '../helpers/harness.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { startReceiver } from '../webhooks/receiver.js';

const defer = useCleanup();
const open = useSandboxes(defer);

/** A URL of exactly MAX_WEBHOOK_URL_LENGTH characters to `base`, distinct per `i`. */
function longUrl(base: string, i: number): string {
  const head = `${base}/hooks/${i}/`;
  return head + 'x'.repeat(MAX_WEBHOOK_URL_LENGTH - head.length);
}

describe('webhook journal growth', () => {
  it('a create with 16 endpoints of 2,048-character URLs writes no URL copy; each delivery row stays small', async () => {
    const rx = await startReceiver((_r, n) => ({ status: n <= MAX_WEBHOOK_ENDPOINTS ? 500 : 204 }));
    defer(() => rx.close());
    const dir = tempDir(defer, 'paygate-wh-journal-');
    const journal = join(dir, 'sandbox.json.journal');
    const h = await open({ store: join(dir, 'sandbox.json'), frozenClock: true });
    const sb = h.sandbox;
    const existing = sb.webhooks.endpointsOf('shop_a').length;
    const urls: string[] = [];
    for (let i = existing; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      const url = longUrl(new URL(rx.url).origin, i);
      urls.push(url);
      expect((await h.call('POST', '/sandbox/webhooks', { body: { url } })).status).toBe(201);
    }
    await sb.store.sync();
    const size = () => statSync(journal).size;
    const s0 = size();
    expect((await h.call('POST', '/v1/payment', { body: paymentBody() })).status).toBe(200);
    await sb.store.sync();
    const s1 = size();
    await sb.webhooks.idle();
    const s2 = size();
    await sb.clock.advance(5_000);
    await sb.webhooks.idle();
    const s3 = size();
    expect(rx.received.length).toBe(2 * urls.length);

    const figures = { create: s1 - s0, firstAttempts: s2 - s1, retry: s3 - s2, total: s3 - s0 };
    console.log(`journal bytes, 16 endpoints × 2,048-char URLs: ${JSON.stringify(figures)}`);
    const rows = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .flatMap((l) => (JSON.parse(l) as { ch: { c: string; v: Record<string, unknown> }[] }).ch);
    const deliveries = rows.filter((r) => r.c === 'webhook_deliveries');
    expect(deliveries.length).toBe(3 * urls.length);
    for (const d of deliveries) {
      expect(d.v).not.toHaveProperty('url');
      // Its attempts ride in it (one row per outcome): under 300 bytes, plus under 100 per attempt.
      const attempts = ((d.v.attempts as unknown[] | undefined) ?? []).length;
      expect(JSON.stringify(d.v).length).toBeLessThan(300 + 100 * attempts);
    }
    // The create's transaction: the operation, its event and payload, 16 small delivery rows — no URL at all.
    expect(figures.create).toBeLessThan(12_000);
    expect(figures.total).toBeLessThan(30_000);
  });
});
