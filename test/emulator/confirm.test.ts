// POST /v1/confirm_payment end to end: multipart rules, each sample receipt's review outcome, the stored file
// behind a signed receipt_url that stops working when it expires.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { OperationState } from '../../src/contract/index.js';
import { KEY_A, KEY_B, paymentBody } from '../helpers/harness.js';
import { describeTransports } from '../helpers/transport.js';
import { useSandbox } from '../helpers/sandbox.js';

const sample = (name: string) => readFileSync(new URL(`../../fixtures/receipts/${name}`, import.meta.url));

describeTransports('confirm_payment', (transport) => {
  const h = useSandbox({ transport, frozenClock: true, startTime: '2026-05-01T09:00:00Z', adminToken: 'adm' });

  const awaiting = async (amount = '1500.00', key = KEY_A) => {
    const r = await h.call('POST', '/v1/payment', { body: paymentBody({ client_id: 'payer+receipt', amount }), key });
    expect(r.body.status).toBe('awaiting_confirmation');
    return r.body.operation_id as string;
  };

  const upload = async (
    operationId: string,
    file: Uint8Array | null,
    opts: { type?: string; name?: string; confirmation?: string; key?: string } = {},
  ) => {
    const form = new FormData();
    form.set('operation_id', operationId);
    form.set('confirmation_type', opts.confirmation ?? 'receipt');
    if (file)
      form.set('receipt', new Blob([file], { type: opts.type ?? 'application/pdf' }), opts.name ?? 'receipt.pdf');
    const req = new Request('http://x/', { method: 'POST', body: form });
    const body = new Uint8Array(await req.arrayBuffer());
    return h.call('POST', '/v1/confirm_payment', {
      raw: body,
      key: opts.key ?? KEY_A,
      headers: { 'content-type': req.headers.get('content-type')! },
    });
  };

  it.each([
    ['ok-1500.pdf', 'completed', undefined],
    ['fake-photoshop.pdf', 'manual_check', 'potential_fake'],
    ['processing-1500.pdf', 'manual_check', 'not_terminal'],
    ['mismatch-1499.pdf', 'manual_check', 'potential_fake'],
    ['no-amount.pdf', 'manual_check', 'potential_fake'],
    ['not-a-pdf.png', 'manual_check', 'not_terminal'],
    ['broken.pdf', 'manual_check', 'not_terminal'],
  ])('%s → %s %s', async (file, status, reason) => {
    const id = await awaiting();
    const r = await upload(id, sample(file), {
      type: file.endsWith('.png') ? 'image/png' : 'application/pdf',
      name: file,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe(status);
    if (reason) expect(r.body.manual_check_reason).toBe(reason);
    else expect(r.body).not.toHaveProperty('manual_check_reason');
  });

  it('a matching receipt completes the payment; its file is served behind a signed link that expires', async () => {
    const id = await awaiting();
    const r = await upload(id, sample('ok-1500.pdf'));
    expect(r.body).toMatchObject({ status: 'completed', actual_amount: '1500.00', settlement_amount: '1462.50' });
    const s = OperationState.parse(
      (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: id } })).body,
    );
    expect(s.receipt_evidence_status).toBe('complete');
    expect(s.receipts).toHaveLength(1);
    expect(s.receipts[0]).toMatchObject({ amount: 1500, completed_at: '2026-05-01T09:00:00.000Z' });
    const url = new URL(s.receipts[0]!.receipt_url!);
    expect(url.href.startsWith(h.sandbox.urls.storage)).toBe(true);
    const get = () => h.call('GET', url.pathname + url.search, { key: null });
    const file = await get();
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.text.startsWith('%PDF-')).toBe(true);
    const tampered = await h.call(
      'GET',
      url.pathname + url.search.replace(/signature=(.)/, (_m, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
      { key: null },
    );
    expect(tampered.status).toBe(404);
    await h.call('POST', '/sandbox/clock/advance', {
      body: { by: '15m' },
      key: null,
      headers: { 'x-admin-token': 'adm' },
    });
    const expired = await get();
    expect([expired.status, expired.body.code]).toEqual([410, 'link_expired']);
    const fresh = OperationState.parse(
      (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: id } })).body,
    );
    expect(
      (
        await h.call(
          'GET',
          new URL(fresh.receipts[0]!.receipt_url!).pathname + new URL(fresh.receipts[0]!.receipt_url!).search,
          { key: null },
        )
      ).status,
    ).toBe(200);
  });

  it('a reviewer approves a receipt under manual check; the receipt is then the evidence', async () => {
    const id = await awaiting();
    await upload(id, sample('mismatch-1499.pdf'));
    const r = await h.call('POST', `/sandbox/operations/${id}/review`, {
      body: { decision: 'approve', amount: '1499.00' },
    });
    expect(r.body).toMatchObject({ status: 'completed', actual_amount: '1499.00' });
    const s = (await h.call('POST', '/v1/get_operation_state', { body: { operation_id: id } })).body;
    expect(s.receipt_evidence_status).toBe('complete');
    expect(s.receipts[0].amount).toBe(1499);
  });

  it("refuses what is not a confirmation of this shop's payment awaiting one", async () => {
    const id = await awaiting();
    expect((await upload(id, sample('ok-1500.pdf'), { key: KEY_B })).status).toBe(404);
    const pending = (await h.call('POST', '/v1/payment', { body: paymentBody() })).body.operation_id;
    const notAwaiting = await upload(pending, sample('ok-1500.pdf'));
    expect([notAwaiting.status, notAwaiting.body.code]).toEqual([409, 'invalid_state']);
    const noFile = await upload(id, null);
    expect([noFile.status, noFile.body.code]).toEqual([400, 'validation_error']);
    expect(noFile.body.message).toContain('receipt');
    const badType = await upload(id, sample('ok-1500.pdf'), { confirmation: 'selfie' });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain('confirmation_type');
    const json = await h.call('POST', '/v1/confirm_payment', { body: { operation_id: id } });
    expect(json.status).toBe(415);
    const big = await upload(id, new Uint8Array(10 * 1024 * 1024 + 1));
    expect([big.status, big.body.code]).toEqual([413, 'body_too_large']);
    const unknown = await upload('00000000-0000-4000-8000-000000000000', sample('ok-1500.pdf'));
    expect(unknown.status).toBe(404);
    expect((await h.call('POST', '/v1/get_operation_state', { body: { operation_id: id } })).body.status).toBe(
      'awaiting_confirmation',
    );
  });
});
