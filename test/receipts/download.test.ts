// A receipt named квитанция.pdf made receipt_url answer 500 (the name broke the header), and a
// "receipt" declared text/html was served back inline as HTML from the pages' origin.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentDisposition } from '../../src/emulator/receipts/download.js';
import { KEY_A, harness, paymentBody, type Harness } from '../helpers/harness.js';

const receipt = (name: string) => readFileSync(new URL(`../../fixtures/receipts/${name}`, import.meta.url));

describe('receipt downloads', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness('in-process', { frozenClock: true, adminToken: 'adm' });
  });
  afterEach(() => h.close());

  async function uploadAndUrl(bytes: Uint8Array, filename: string, type: string): Promise<string> {
    const created = (await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'payer+receipt' }) }))
      .body as { operation_id: string };
    const form = new FormData();
    form.set('operation_id', created.operation_id);
    form.set('confirmation_type', 'receipt');
    form.set('receipt', new Blob([bytes], { type }), filename);
    const up = await h.sandbox.fetch(
      new Request('http://paygate.local/v1/confirm_payment', {
        method: 'POST',
        headers: { 'x-api-key': KEY_A },
        body: form,
      }),
    );
    const op = (await up.json()) as { status: string };
    if (op.status === 'manual_check') {
      const r = await h.call('POST', `/sandbox/operations/${created.operation_id}/review`, {
        body: { decision: 'approve' },
      });
      expect(r.status).toBe(200);
    }
    const state = (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: created.operation_id } }))
      .body as { status: string; receipts: { receipt_url: string | null }[] };
    expect(state.status).toBe('completed');
    return state.receipts[0]!.receipt_url!;
  }

  it('a non-Latin-1 file name: 200, an ASCII fallback and the exact name in filename*', async () => {
    const url = await uploadAndUrl(receipt('ok-1500.pdf'), 'квитанция.pdf', 'application/pdf');
    const res = await h.sandbox.fetch(new Request(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="_________.pdf"; filename*=UTF-8''${encodeURIComponent('квитанция.pdf')}`,
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(receipt('ok-1500.pdf'))).toBe(true);
  });

  it('an HTML "receipt" is served as a download of bytes, never as a page: octet-stream, attachment, nosniff, CSP', async () => {
    const html = new TextEncoder().encode('<html><script>alert(document.cookie)</script></html>');
    const url = await uploadAndUrl(html, 'receipt.html', 'text/html');
    const res = await h.sandbox.fetch(new Request(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('names with quotes, backslashes and apostrophes stay one well-formed header value', () => {
    const v = contentDisposition('inline', `a"b\\c'd (1).pdf`);
    expect(v).toBe(`inline; filename="a_b_c'd (1).pdf"; filename*=UTF-8''a%22b%5Cc%27d%20%281%29.pdf`);
    expect(() => new Headers({ 'content-disposition': contentDisposition('inline', '收据 №1.pdf') })).not.toThrow();
  });
});
