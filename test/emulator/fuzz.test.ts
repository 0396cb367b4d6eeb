// Property test: whatever body arrives at any endpoint, the answer is a well-formed response below 500, errors carry
// { code, message }, and a refused request stores nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_A, KEY_POOL } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

const PATHS = [
  '/v1/payment',
  '/v1/payment/link',
  '/v1/payout',
  '/v1/get_operation_state',
  '/v1/cancel_operation',
  '/v1/payment/recommendations',
  '/v1/payment/link/flexible',
  '/sandbox/operations/00000000-0000-4000-8000-000000000000/pay',
  '/sandbox/clock/advance',
  '/sandbox/keys',
  '/sandbox/pool/layout',
  '/sandbox/links/00000000-0000-4000-8000-000000000000/confirm',
];

const field = fc.oneof(
  fc.constantFrom(
    'merchant_operation_id',
    'client_id',
    'method',
    'amount',
    'currency',
    'number',
    'name',
    'bankname',
    'operation_id',
    'reason',
    'by',
    'shop_id',
    'outcome',
    'recommended_amount',
    'min_amount',
    'max_amount',
    'limit',
    'amounts',
    'generate',
  ),
  fc.string(),
);
const value = fc.oneof(
  fc.string(),
  fc.constantFrom('WT_RUB_C2C', 'WT_RUB_PHONE', 'RUB', 'USDT', '100.00', '0.01', '1e5', '-1', 'sber', '10s', 'shop_b'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);
const body = fc.oneof(
  fc.dictionary(field, value, { maxKeys: 9 }).map((o) => JSON.stringify(o)),
  fc.json(),
  fc.string(),
);

describe('no input makes the sandbox fail', () => {
  const h = useSandbox({ per: 'file', frozenClock: true, adminToken: 'adm' });

  it('any JSON or text to any endpoint → < 500 with the error shape', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        body,
        fc.boolean(),
        fc.boolean(),
        async (path, raw, asAdmin, asPool) => {
          const before = h.sandbox.store.state.operations.size;
          const headers: Record<string, string> = {
            'content-type': 'application/json',
            ...(asAdmin ? { 'x-admin-token': 'adm' } : {}),
          };
          const r = await h.call('POST', path, { raw, key: asPool ? KEY_POOL : KEY_A, headers });
          expect(r.status, `${path} ${raw} → ${r.text}`).toBeLessThan(500);
          if (r.status >= 400) {
            expect(typeof r.body?.code).toBe('string');
            expect(typeof r.body?.message).toBe('string');
            expect(h.sandbox.store.state.operations.size).toBe(before);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
