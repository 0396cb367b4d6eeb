// "pay-\ud800" and "pay-\udfff" (lone surrogates) both became U+FFFD when the operation_id was hashed,
// so a second create overwrote the first. Every request field must be well-formed Unicode: 400, nothing stored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/harness.js';

const body = (moid: string, extra = '') =>
  `{"merchant_operation_id":"${moid}","client_id":"c1${extra}","method":"WT_RUB_C2C","amount":"500.00","currency":"RUB","number":"2200700000000004"}`;

describe('lone surrogates in request fields', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness('in-process', { frozenClock: true });
  });
  afterEach(() => h.close());

  it('a merchant_operation_id with a lone surrogate is 400 validation_error naming the field; nothing is stored', async () => {
    const ops = h.sandbox.service.state.operations.size;
    for (const moid of ['pay-\\ud800', 'pay-\\udfff', '\\udc00lead']) {
      const r = await h.call('POST', '/v1/payout', {
        raw: body(moid),
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, moid).toBe(400);
      expect(r.body).toMatchObject({ code: 'validation_error' });
      expect((r.body as { message: string }).message).toMatch(/^merchant_operation_id: must be well-formed Unicode/);
    }
    expect(h.sandbox.service.state.operations.size).toBe(ops);
  });

  it('a literal U+FFFD and a well-formed pair (an emoji) are ordinary text and name different operations', async () => {
    const a = await h.call('POST', '/v1/payout', {
      raw: body('pay-\\ufffd'),
      headers: { 'content-type': 'application/json' },
    });
    const b = await h.call('POST', '/v1/payout', {
      raw: body('pay-\\ud83d\\ude00'),
      headers: { 'content-type': 'application/json' },
    });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect((a.body as { operation_id: string }).operation_id).not.toBe(
      (b.body as { operation_id: string }).operation_id,
    );
  });

  it('any field, nested or not, and the get_operation_state and cancel bodies too', async () => {
    const r = await h.call('POST', '/v1/payment', {
      raw: body('ok-1', '\\ud800'),
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect((r.body as { message: string }).message).toMatch(/^client_id: /);
    const s = await h.call('POST', '/v1/get_operation_state', {
      raw: '{"merchant_operation_id":"x\\udbff"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(s.status).toBe(400);
    const c = await h.call('POST', '/v1/cancel_operation', {
      raw: '{"merchant_operation_id":"x","reason":"\\ud800"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(c.status).toBe(400);
    expect((c.body as { message: string }).message).toMatch(/^reason: /);
  });
});
