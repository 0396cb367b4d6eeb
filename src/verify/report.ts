// The outcome of `paygate verify` as the user reads it: one JSON document (--json), a JUnit file (--junit: one
// testcase per rule of the catalogue, failed with each violation, skipped with the reason, or passed), and the
// terminal text (a line per rule, the violations under the failed ones, what was skipped and created).
import type { Builder } from 'junit-report-builder';
import type { Violation } from '../conformance/types.js';
import type { VerifyResult } from './index.js';

function violationJson(v: Violation) {
  return {
    rule: v.rule,
    section: v.section,
    endpoint: v.endpoint,
    operation_id: v.operationId ?? null,
    merchant_operation_id: v.merchantOperationId ?? null,
    expected: v.expected,
    got: v.got,
    exchange: v.exchange,
    ...(v.related ? { related: v.related } : {}),
  };
}

function counts(r: VerifyResult) {
  const of = (result: string) => r.rules.filter((x) => x.result === result).length;
  return { rules: r.rules.length, passed: of('passed'), failed: of('failed'), skipped: of('skipped') };
}

/** The --json document. */
export function verifyJson(r: VerifyResult) {
  return {
    base_url: r.baseUrl,
    passed: r.passed,
    exchanges: r.exchanges,
    summary: counts(r),
    rules: r.rules.map((x) => ({
      id: x.id,
      kind: x.kind,
      section: x.section,
      title: x.title,
      result: x.result,
      violations: x.violations.map(violationJson),
    })),
    violations: r.violations.map(violationJson),
    skipped: r.skipped,
    created: r.created.map((c) => ({
      operation_id: c.operationId,
      merchant_operation_id: c.merchantOperationId,
      endpoint: c.endpoint,
      amount: c.amount,
      status: c.status,
      cancel_outcome: c.cancelled ?? null,
    })),
    caps: {
      max_creates: r.caps.maxCreates,
      max_amount: r.caps.maxAmount,
      creates: r.caps.creates,
      amount: r.caps.amount,
    },
  };
}

const line = (v: Violation): string =>
  `${v.endpoint} (exchange ${v.exchange}${v.operationId ? `, operation ${v.operationId}` : ''}): ${v.expected}; ${v.got}`;

/** The terminal report; `mark` colours the ✓ / ✗ / - of a rule. */
export function verifyText(r: VerifyResult, mark: (result: string, text: string) => string = (_r, t) => t): string {
  const out: string[] = [];
  const idWidth = Math.max(...r.rules.map((x) => x.id.length));
  const sectionWidth = Math.max(...r.rules.map((x) => x.section.length));
  for (const x of r.rules) {
    const sign = x.result === 'passed' ? '✓' : x.result === 'failed' ? '✗' : '-';
    out.push(`${mark(x.result, sign)} ${x.id.padEnd(idWidth)}  ${x.section.padEnd(sectionWidth)}  ${x.title}`);
    for (const v of x.violations) out.push(`    ${line(v)}`);
  }
  if (r.skipped.length > 0) out.push('', 'skipped:', ...r.skipped.map((s) => `  ${s.check}: ${s.reason}`));
  const cancelled = r.created.filter((c) => c.cancelled !== undefined).length;
  out.push(
    '',
    `created ${r.created.length} operation${r.created.length === 1 ? '' : 's'} (cancelled ${cancelled}); ` +
      `charged ${r.caps.creates} of ${r.caps.maxCreates} creates, ${r.caps.amount} of ${r.caps.maxAmount}`,
  );
  const c = counts(r);
  out.push(
    `${r.baseUrl}: ${c.passed} rules passed, ${c.failed} failed, ${c.skipped} skipped (${r.exchanges} exchanges)`,
  );
  return out.join('\n');
}

/** The CommonJS module's `module.exports` is the builder; TypeScript types it as the ES default export. */
async function loadBuilder(): Promise<Builder> {
  const mod = (await import('junit-report-builder')) as unknown as { default: Builder | { default: Builder } };
  return 'newBuilder' in mod.default ? mod.default : mod.default.default;
}

/** Writes the JUnit file (its directory created): one testsuite, one testcase per rule. */
export async function writeVerifyJunit(r: VerifyResult, file: string): Promise<void> {
  const builder = (await loadBuilder()).newBuilder();
  const suite = builder.testSuite().name(`paygate verify ${r.baseUrl}`).timestamp(new Date());
  for (const x of r.rules) {
    const tc = suite.testCase().className(`conformance.${x.kind}`).name(`${x.id} (${x.section}) ${x.title}`);
    if (x.result === 'failed')
      tc.failure(`${x.violations.length} violation(s): ${line(x.violations[0]!)}`, 'violation').stacktrace(
        x.violations.map(line).join('\n'),
      );
    if (x.result === 'skipped') {
      const mine = r.skipped.filter((s) => s.rules.includes(x.id));
      const why = mine.map((s) => `${s.check}: ${s.reason}`).join('\n');
      tc.skipped().standardOutput(why || 'not checked by this run');
    }
  }
  builder.writeTo(file);
}
