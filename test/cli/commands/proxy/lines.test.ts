// `paygate proxy`'s printed forms: the human line of a violation (rule, section, endpoint, operation, expected / got)
// and its NDJSON object; which --upstream values are refused and why.
import { describe, expect, it } from 'vitest';
import { upstreamUrl, violationJson, violationLine } from '../../../../src/cli/commands/proxy/run.js';
import { UsageError } from '../../../../src/cli/errors.js';

const V = {
  rule: 'money.settlement',
  section: '§2.3',
  endpoint: 'payout.create',
  operationId: '1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c',
  expected: 'expected settlement_amount 1040.00 (amount + commission)',
  got: 'got 1000.00',
  exchange: 7,
};

describe('paygate proxy output', () => {
  it('a violation is one line naming the rule, section, endpoint, operation and expected / got', () => {
    expect(violationLine(V)).toBe(
      '✗ money.settlement §2.3 payout.create 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c (#7): expected settlement_amount 1040.00 (amount + commission); got 1000.00',
    );
    expect(
      violationLine({ ...V, operationId: undefined as unknown as string, merchantOperationId: 'order-9' }),
    ).toContain('payout.create order-9 (#7)');
    expect(violationJson(V)).toEqual({
      type: 'violation',
      rule: 'money.settlement',
      section: '§2.3',
      endpoint: 'payout.create',
      operation_id: V.operationId,
      merchant_operation_id: null,
      expected: V.expected,
      got: V.got,
      exchange: 7,
      at: null,
    });
  });

  it('--upstream must be an http(s) URL without query, fragment or credentials', () => {
    expect(upstreamUrl('https://gw.example.com/base').href).toBe('https://gw.example.com/base');
    for (const bad of [undefined, '', 'gw.example.com', 'ftp://gw', 'http://gw/?a=1', 'http://gw/#x', 'http://u:p@gw'])
      expect(() => upstreamUrl(bad)).toThrow(UsageError);
  });
});
