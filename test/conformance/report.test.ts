// The checker's reports: the JSON report (exchanges, a counter per rule, each violation with rule, section,
// operation_id, expected, got, at) and the JUnit file (one testcase per rule id, failed with its violations).
import { describe, expect, it } from 'vitest';
import { createConformanceChecker, reportJson, reportJunit, RULES } from '../../src/conformance/index.js';
import { completed, createBody, OP_ID, payment, sequence, stateOf } from './exchanges.js';

function checked() {
  const checker = createConformanceChecker();
  const ex = sequence();
  checker.check(ex('POST', '/v1/payment', createBody(), 200, payment()));
  checker.check(ex('POST', '/v1/get_operation_state', { operation_id: OP_ID }, 200, stateOf(completed())));
  checker.check(ex('POST', '/v1/get_operation_state', { operation_id: OP_ID }, 200, stateOf(payment())));
  checker.check(ex('POST', '/v1/payment', createBody(), 200, completed({ provider: '<a & "b">' })));
  return checker;
}

describe('reports', () => {
  it('reportJson: the exchanges, a counter per rule, and each violation', () => {
    const report = reportJson(checked(), { upstream: 'https://gw.example', baseUrl: 'http://127.0.0.1:4000' }) as {
      exchanges: number;
      upstream: string;
      base_url: string;
      rules: { id: string; violations: number }[];
      violations: Record<string, unknown>[];
    };
    expect([report.exchanges, report.upstream, report.base_url]).toEqual([
      4,
      'https://gw.example',
      'http://127.0.0.1:4000',
    ]);
    expect(report.rules.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    expect(report.rules.find((r) => r.id === 'state.illegal_move')?.violations).toBe(1);
    expect(report.violations[0]).toEqual({
      rule: 'state.illegal_move',
      section: '§3',
      endpoint: 'operation.state',
      operation_id: OP_ID,
      merchant_operation_id: null,
      expected: 'expected a status reachable from completed (state table, §3)',
      got: 'got pending',
      at: '2026-01-01T00:00:03.000Z',
      exchange: 3,
      related: [2],
    });
  });

  it('reportJunit: one testcase per rule id, the failed ones with their violations, text escaped', () => {
    const xml = reportJunit(checked(), 'paygate proxy <staging>');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml.match(/<testcase /g)).toHaveLength(RULES.length);
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml).toContain(`<testsuite name="paygate proxy &lt;staging&gt;" tests="${RULES.length}" failures="2"`);
    expect(xml).toContain('type="response.unknown_field"');
    expect(xml).toContain('&quot;&lt;a &amp; \\&quot;b\\&quot;&gt;&quot;');
    expect(xml).not.toMatch(/<a &/);
  });

  it('a checker with no violation reports every rule passed', () => {
    const xml = reportJunit(createConformanceChecker(), 'empty');
    expect(xml).toContain('failures="0"');
    expect(xml).not.toContain('<failure');
  });
});

describe('a checker past its maxViolations', () => {
  it('keeps the newest violations, counts every one (per rule too), and the reports say both', () => {
    const checker = createConformanceChecker({ maxViolations: 2 });
    const ex = sequence();
    checker.check(ex('POST', '/v1/payment', createBody(), 200, payment()));
    for (let i = 0; i < 5; i++) {
      checker.check(ex('POST', '/v1/get_operation_state', { operation_id: OP_ID }, 200, stateOf(completed())));
      checker.check(ex('POST', '/v1/get_operation_state', { operation_id: OP_ID }, 200, stateOf(payment())));
    }
    expect(checker.violationCount).toBe(5);
    expect(checker.violationsByRule.get('state.illegal_move')).toBe(5);
    expect(checker.violations.map((v) => v.exchange)).toEqual([9, 11]);
    expect(checker.newestViolations(5).map((v) => v.exchange)).toEqual([11, 9]);
    const report = reportJson(checker) as {
      rules: { id: string; violations: number }[];
      violations_total: number;
      violations: unknown[];
    };
    expect(report.rules.find((r) => r.id === 'state.illegal_move')?.violations).toBe(5);
    expect(report.violations_total).toBe(5);
    expect(report.violations).toHaveLength(2);
    expect(reportJunit(checker, 'suite')).toContain('message="5 violations: #9 operation.state');
  });
});
