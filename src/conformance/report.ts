// The checker's findings as files: a JSON report (`--report`) and a JUnit file (`--junit`), one testcase per rule id
// of the catalogue, failed with each of its violations, or passed.
import { RULES } from './catalogue.js';
import type { ConformanceChecker, ReportMeta, Violation } from './types.js';

/**
 * The JSON report: `{ exchanges, rules, violations_total, violations: [{ rule, section, operation_id, expected, got,
 * at }] }` and more — `rules` counts every violation, `violations` lists those the checker kept (the newest).
 */
export function reportJson(checker: ConformanceChecker, meta: ReportMeta = {}): object {
  const counts = checker.violationsByRule;
  return {
    ...(meta.upstream !== undefined ? { upstream: meta.upstream } : {}),
    ...(meta.baseUrl !== undefined ? { base_url: meta.baseUrl } : {}),
    exchanges: checker.exchanges,
    rules: RULES.map((r) => ({ id: r.id, kind: r.kind, section: r.section, violations: counts.get(r.id) ?? 0 })),
    violations_total: checker.violationCount,
    violations: checker.violations.map((v) => ({
      rule: v.rule,
      section: v.section,
      endpoint: v.endpoint,
      operation_id: v.operationId ?? null,
      merchant_operation_id: v.merchantOperationId ?? null,
      expected: v.expected,
      got: v.got,
      at: v.at ?? null,
      exchange: v.exchange,
      ...(v.related ? { related: v.related } : {}),
    })),
  };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// Characters XML 1.0 cannot carry, even escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const xml = (s: string) => s.replace(NOT_XML, '\ufffd').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

const line = (v: Violation) =>
  `#${v.exchange} ${v.endpoint}${v.operationId ? ` operation ${v.operationId}` : ''}: ${v.expected}; ${v.got}`;

/** JUnit XML: one testsuite, one testcase per rule id (classname its kind, name the id and section). */
export function reportJunit(checker: ConformanceChecker, suiteName: string): string {
  const byRule = new Map<string, Violation[]>();
  for (const v of checker.violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  const count = (id: string) => checker.violationsByRule.get(id) ?? 0;
  const failed = RULES.filter((r) => count(r.id) > 0).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${RULES.length}" failures="${failed}">`,
    `  <testsuite name="${xml(suiteName)}" tests="${RULES.length}" failures="${failed}" errors="0" skipped="0">`,
    `    <properties><property name="exchanges" value="${checker.exchanges}"/></properties>`,
  ];
  for (const r of RULES) {
    const found = byRule.get(r.id) ?? [];
    const n = count(r.id);
    const head = `    <testcase classname="${xml(r.kind)}" name="${xml(`${r.id} (${r.section}): ${r.title}`)}"`;
    if (n === 0) {
      out.push(`${head}/>`);
      continue;
    }
    const first = found[0] ? `: ${line(found[0])}` : ' (none kept)';
    const message = `${n} violation${n > 1 ? 's' : ''}${first}`;
    out.push(
      `${head}>`,
      `      <failure message="${xml(message)}" type="${xml(r.id)}">${xml(found.map(line).join('\n'))}</failure>`,
      '    </testcase>',
    );
  }
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}
