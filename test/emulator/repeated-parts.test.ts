// One multipart request means one thing: a field or file part sent twice is refused (400) on /v1/confirm_payment and
// on the hosted page's upload, whatever the order, and nothing is stored. Before, the first operation_id counted:
// shop A's then shop B's confirmed shop A's payment; a second receipt file part was dropped unread.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { KEY_A, KEY_B, paymentBody } from '../helpers/harness.js';
import { describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';

const sample = (name: string) => readFileSync(new URL(`../../fixtures/receipts/${name}`, import.meta.url));
type Part = [name: string, value: string | { file: Uint8Array; filename?: string }];

describeTransports('repeated multipart parts', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, startTime: '2026-05-01T09:00:00Z', adminToken: 'adm' });
  const ADMIN = { key: null, headers: { 'x-admin-token': 'adm' } };

  const encode = async (parts: Part[]) => {
    const form = new FormData();
    for (const [name, v] of parts) {
      if (typeof v === 'string') form.append(name, v);
      else form.append(name, new Blob([v.file], { type: 'application/pdf' }), v.filename ?? 'receipt.pdf');
    }
    const req = new Request('http://x/', { method: 'POST', body: form });
    return { raw: new Uint8Array(await req.arrayBuffer()), type: req.headers.get('content-type')! };
  };
  const confirm = async (parts: Part[], key = KEY_A) => {
    const { raw, type } = await encode(parts);
    return h.call('POST', '/v1/confirm_payment', { raw, key, headers: { 'content-type': type } });
  };
  const awaiting = async (key: string, over: Record<string, unknown> = {}) => {
    const r = await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'payer+receipt', ...over }), key });
    expect(r.body.status).toBe('awaiting_confirmation');
    return r.body.operation_id as string;
  };
  const uploads = async (id: string) => (await h.call('GET', `/sandbox/operations/${id}`, ADMIN)).body.uploads.length;
  const status = async (id: string, key = KEY_A) =>
    (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: id }, key })).body.status;
  const receipt = { file: sample('ok-1500.pdf') };

  it('two operation_id fields, in either order, are a 400 naming the field; neither payment takes the receipt', async () => {
    const a = await awaiting(KEY_A);
    const b = await awaiting(KEY_B);
    for (const [first, second] of [
      [a, b],
      [b, a],
    ]) {
      const r = await confirm([
        ['operation_id', first!],
        ['operation_id', second!],
        ['confirmation_type', 'receipt'],
        ['receipt', receipt],
      ]);
      expect(r.status, r.text).toBe(400);
      expect(r.body).toEqual({
        code: 'validation_error',
        message: 'operation_id: is sent more than once; send each field and file part once',
      });
    }
    expect([await uploads(a), await uploads(b)]).toEqual([0, 0]);
    expect([await status(a), await status(b, KEY_B)]).toEqual(['awaiting_confirmation', 'awaiting_confirmation']);
  });

  it('a second receipt file part, or a field sent twice after the file, is a 400 and nothing is stored', async () => {
    const id = await awaiting(KEY_A);
    const two = await confirm([
      ['operation_id', id],
      ['confirmation_type', 'receipt'],
      ['receipt', receipt],
      ['receipt', { file: sample('mismatch-1499.pdf') }],
    ]);
    expect([two.status, two.body.code]).toEqual([400, 'validation_error']);
    expect(two.body.message).toMatch(/^receipt: is sent more than once/);
    const late = await confirm([
      ['receipt', receipt],
      ['operation_id', id],
      ['confirmation_type', 'receipt'],
      ['confirmation_type', 'receipt'],
    ]);
    expect([late.status, late.body.code]).toEqual([400, 'validation_error']);
    expect(late.body.message).toMatch(/^confirmation_type: /);
    // A text field and a file part of one name are one name twice.
    const mixed = await confirm([
      ['operation_id', id],
      ['confirmation_type', 'receipt'],
      ['receipt', 'text'],
      ['receipt', receipt],
    ]);
    expect([mixed.status, mixed.body.code]).toEqual([400, 'validation_error']);
    expect(await uploads(id)).toBe(0);
    expect(await status(id)).toBe('awaiting_confirmation');
    // Each once: taken.
    const ok = await confirm([
      ['operation_id', id],
      ['confirmation_type', 'receipt'],
      ['receipt', receipt],
    ]);
    expect([ok.status, ok.body.status]).toEqual([200, 'completed']);
  });

  it('the hosted page refuses a second receipt part with 400 and the page; nothing is stored', async () => {
    const op = (await h.call('POST', '/v1/payment/link', { body: paymentBody({ client_id: 'p+receipt' }) })).body;
    const { raw, type } = await encode([
      ['receipt', receipt],
      ['receipt', { file: sample('mismatch-1499.pdf') }],
    ]);
    const r = await h.call('POST', `${new URL(op.payment_url).pathname}/receipt?lang=en`, {
      key: null,
      raw,
      headers: { 'content-type': type },
    });
    expect(r.status).toBe(400);
    expect(r.text).toContain('data-state="upload"');
    expect(await uploads(op.operation_id)).toBe(0);
    expect(await status(op.operation_id)).toBe('awaiting_confirmation');
  });
});
