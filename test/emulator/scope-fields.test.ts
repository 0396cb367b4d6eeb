// Every gateway endpoint that takes fields — a JSON body, a multipart form or a query — refuses merchant_id and
// shop_id the same way: 400 validation_error naming the field, nothing stored (spec §2.2: the API key fixes them).
// The same request without the field is not a 400, so the field alone is what is refused.
import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointDef } from '../../src/contract/index.js';
import { EXAMPLE_OPERATION_ID, REQUEST_EXAMPLES, type NamedExample } from '../../src/contract/openapi/examples.js';
import type { CallOptions, CallResult } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const takingFields = (Object.values(endpoints) as EndpointDef[]).filter((e) => e.body || e.query || e.multipart);

/** A request the endpoint validates (its document example), with `extra` fields added to its body, form or query. */
async function requestOf(e: EndpointDef, extra: Record<string, string>): Promise<{ path: string; opts: CallOptions }> {
  if (e.query) {
    const query = new URLSearchParams({
      method: 'WT_RUB_C2C',
      currency: 'RUB',
      min_amount: '1000.00',
      max_amount: '2000.00',
      ...extra,
    });
    return { path: `${e.path}?${query}`, opts: {} };
  }
  if (e.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries({ operation_id: EXAMPLE_OPERATION_ID, confirmation_type: 'receipt', ...extra }))
      form.set(k, v);
    form.set('receipt', new Blob([new Uint8Array([37, 80, 68, 70])], { type: 'application/pdf' }), 'receipt.pdf');
    const req = new Request('http://x/', { method: 'POST', body: form });
    return {
      path: e.path,
      opts: {
        raw: new Uint8Array(await req.arrayBuffer()),
        headers: { 'content-type': req.headers.get('content-type')! },
      },
    };
  }
  const example = REQUEST_EXAMPLES[e.id];
  const body = Array.isArray(example) ? (example as NamedExample[])[0]!.value : example;
  expect(body, `a request example for ${e.id}`).toBeDefined();
  return { path: e.path, opts: { body: { ...(body as object), ...extra } } };
}

describe('merchant_id and shop_id on every gateway endpoint that takes fields', () => {
  const h = useSandbox();

  const send = async (e: EndpointDef, extra: Record<string, string>): Promise<CallResult> => {
    const { path, opts } = await requestOf(e, extra);
    return h.call(e.method, path, opts);
  };

  it('are the bodies, forms and queries of these endpoints', () => {
    expect(takingFields.map((e) => e.id).sort()).toEqual(
      [
        'operation.cancel',
        'payment.confirm',
        'payment.flexible_link',
        'payment.create',
        'payment.link',
        'payout.create',
        'payment.availability',
        'operation.state',
        'payment.recommendations',
      ].sort(),
    );
  });

  describe.each(takingFields.map((e) => [e.id, e] as const))('%s', (_id, e) => {
    it.each([
      ['merchant_id', 'm_acme'],
      ['merchant_id', ''],
      ['shop_id', 'shop_a'],
      ['shop_id', ''],
    ])('%s %j: 400 validation_error naming it, nothing stored; without it, no 400', async (field, value) => {
      const refused = await send(e, { [field]: value });
      expect([refused.status, refused.body?.code]).toEqual([400, 'validation_error']);
      expect(refused.body.message).toContain(`${field}: ${field} must not be sent`);
      expect(h.sandbox.store.state.operations.size).toBe(0);
      const plain = await send(e, {});
      expect(plain.status, plain.text).not.toBe(400);
    });
  });
});
