// `paygate verify` against a drifting sandbox (the fault injector): each drift is named by its rule, the run does
// not pass, and what verify created is still cancelled. One fresh sandbox per drift; every fault is scoped to one
// shop (verify acts as shop_a; shop_b is the second key's). A gateway that lets in any key, which no fault can make
// (faults act after authentication), is a transport that puts a valid key on every request.
import { describe, expect, it } from 'vitest';
import type { FaultInput } from '../../src/contract/faults.js';
import { runVerify } from '../../src/verify/index.js';
import { KEY_A, KEY_B } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { sandboxTransport } from './transport.js';

const DRIFTS: { drift: string; fault: FaultInput; rules: string[]; shop?: string }[] = [
  {
    drift: 'a create refused with 412 though the body is new',
    fault: { endpoint: 'payment.create', status: 412, count: 1 },
    rules: ['response.valid_request_answered'],
  },
  {
    drift: 'balances answered 500',
    fault: { endpoint: 'balances.list', status: 500 },
    rules: ['auth.header_case', 'response.valid_request_answered'],
  },
  {
    drift: "a state read of verify's own payment answered 404",
    fault: { endpoint: 'operation.state', status: 404, count: 1 },
    rules: ['state.wrong_operation'],
  },
  {
    drift: 'a cancel of a pending payment refused with 412',
    fault: { endpoint: 'operation.cancel', status: 412, code: 'not_cancellable' },
    rules: ['response.invalid_request_status', 'response.valid_request_answered'],
  },
  {
    drift: 'a valid key answered 401 invalid api key',
    fault: { endpoint: 'balances.list', status: 401, code: 'invalid_api_key', count: 1 },
    rules: ['auth.header_case'],
  },
  {
    drift: 'a refused request answered 429 instead of 400',
    fault: { endpoint: 'payment.availability', status: 429, count: 1 },
    rules: ['response.invalid_request_status'],
  },
  {
    drift: "another shop's state read of verify's payment answered 400 instead of 404",
    fault: { endpoint: 'operation.state', status: 400 },
    shop: 'shop_b',
    rules: ['isolation.cross_shop'],
  },
  {
    drift: 'recommendations answered 503',
    fault: { endpoint: 'payment.recommendations', status: 503 },
    rules: ['response.invalid_request_status', 'response.valid_request_answered'],
  },
];

describe('paygate verify against a drifting sandbox', () => {
  const h = useSandbox();

  it.each(DRIFTS)('$drift: $rules', async ({ fault, rules, shop = 'shop_a' }) => {
    await h.admin.sandbox.faults.add({ ...fault, shop_id: shop });
    const r = await runVerify({
      baseUrl: 'http://gateway.local',
      transport: sandboxTransport(h.sandbox),
      apiKey: KEY_A,
      secondKey: KEY_B,
    });
    expect(r.passed).toBe(false);
    expect(r.rules.filter((x) => x.result === 'failed').map((x) => x.id)).toEqual(rules);
    for (const v of r.violations) {
      expect(v.expected).toMatch(/^expected /);
      expect(v.got).toMatch(/^got /);
      expect(v.exchange).toBeGreaterThan(0);
    }
    // What verify created is cancelled all the same (the cancel fault aside).
    if (fault.endpoint !== 'operation.cancel') expect(r.created.every((c) => c.status === 'cancelled')).toBe(true);
  });
});

describe('paygate verify against a gateway that lets in any key', () => {
  const h = useSandbox();

  it('names auth.key_required and auth.unknown_key', async () => {
    const inner = sandboxTransport(h.sandbox);
    const r = await runVerify({
      baseUrl: 'http://gateway.local',
      transport: (req) => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== 'x-api-key'),
        );
        const sent = Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'x-api-key')?.[1];
        return inner({ ...req, headers: { ...headers, 'x-api-key': sent === KEY_B ? KEY_B : KEY_A } });
      },
      apiKey: KEY_A,
      secondKey: KEY_B,
    });
    const failed = r.rules.filter((x) => x.result === 'failed').map((x) => x.id);
    expect(failed).toContain('auth.key_required');
    expect(failed).toContain('auth.unknown_key');
    expect(r.violations.find((v) => v.rule === 'auth.unknown_key')).toMatchObject({
      endpoint: 'balances.list',
      expected: 'expected 401',
      got: 'got 200',
    });
  });
});
