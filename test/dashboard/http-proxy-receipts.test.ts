// A receipt's link on the proxy's dashboard (review of issue 28): its URL comes from the untrusted upstream, so only
// an http(s) URL is a link; any other (`javascript:`, `data:`) is shown as text, never an <a href>.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/conformance/types.js';
import { SupportModel } from '../../src/proxy/support-model.js';
import { useCleanup } from '../helpers/cleanup.js';
import { createThrough, gateway, proxied, servedModel } from './proxy-setup.js';

const defer = useCleanup();

describe('a receipt’s link on the proxy', () => {
  it('links an http(s) receipt URL only; a javascript: or data: URL from the upstream is text', async () => {
    const p = await proxied(defer);
    const id = await createThrough(p, 'receipt-links');
    await p.sb.pay(id);
    const state = await gateway(p, '/v1/get_operation_state', { operation_id: id });
    const receipts = state.receipts as Record<string, unknown>[];
    expect(receipts.length).toBeGreaterThan(0);
    const urls = ['https://gw.example/r/1.pdf', 'javascript:alert(document.cookie)', 'data:text/html,<b>x</b>'];
    const body = {
      ...state,
      receipts: urls.map((receipt_url, i) => ({
        ...receipts[0],
        id: `00000000-0000-4000-8000-00000000000${i}`,
        receipt_url,
      })),
    };
    const model = new SupportModel();
    const x: Exchange = {
      seq: 1,
      startedAt: new Date().toISOString(),
      durationMs: 1,
      credential: 'key_000000000001',
      request: { method: 'POST', path: '/v1/get_operation_state', query: {}, headers: {}, body: { operation_id: id } },
      response: { status: 200, headers: {}, body },
    };
    model.observe(x, []);
    const { url, cookie } = await servedModel(defer, model);
    const res = await fetch(`${url}/dashboard/operations/${id}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const hrefs = [...html.matchAll(/<a href="([^"]+)" rel="noreferrer">/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['https://gw.example/r/1.pdf']);
    expect(html).not.toMatch(/href="(javascript:|data:text)/);
    expect(html).toContain('<span class="mono" data-unlinked>javascript:alert(document.cookie)</span>');
    expect(html).toContain('<span class="mono" data-unlinked>data:text/html,&#60;b&#62;x&#60;/b&#62;</span>');
  });
});
