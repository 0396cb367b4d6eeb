// What verify's own expectations found: each one is checked under a rule id of the conformance catalogue and either
// holds or adds a Violation (unless the conformance checker already reported the same rule on the same exchange, so a
// drift is named once). Checks that could not run (a cap reached, a method the gateway does not offer) are skipped
// with their reason, never counted as passed.
import type { Violation } from '../conformance/types.js';
import type { Answer } from './wire.js';

export interface Skip {
  /** What would have been checked. */
  check: string;
  reason: string;
  /** The rules it would have checked: skipped themselves when nothing else checked them. */
  rules: string[];
}

/** The facts of a violation besides its rule, section and exchange. */
export interface Expected {
  endpoint: string;
  expected: string;
  got: string;
  operationId?: string | undefined;
  merchantOperationId?: string | undefined;
  related?: number[];
  /** Checker rules that, reported on the same exchange, already name this drift (it is then not reported again). */
  covered?: string[];
}

export class Findings {
  readonly violations: Violation[] = [];
  readonly skipped: Skip[] = [];
  /** How often each rule was checked by verify itself (the checker's rules are checked on every exchange). */
  readonly checked = new Map<string, number>();

  constructor(private readonly sectionOf: (rule: string) => string) {}

  /** One expectation of `rule` about answer `a`: true when it holds, else a violation is recorded. */
  expect(rule: string, ok: boolean, a: Answer, facts: Expected): boolean {
    this.checked.set(rule, (this.checked.get(rule) ?? 0) + 1);
    if (ok) return true;
    if (a.violations.some((v) => v.rule === rule || facts.covered?.includes(v.rule))) return false;
    const v: Violation = {
      rule,
      section: this.sectionOf(rule),
      endpoint: facts.endpoint,
      expected: facts.expected,
      got: facts.got,
      exchange: a.exchange.seq,
    };
    if (facts.operationId !== undefined) v.operationId = facts.operationId;
    if (facts.merchantOperationId !== undefined) v.merchantOperationId = facts.merchantOperationId;
    if (facts.related?.length) v.related = facts.related;
    this.violations.push(v);
    return false;
  }

  skip(check: string, reason: string, rules: string[]): void {
    this.skipped.push({ check, reason, rules });
  }
}

/** "401 invalid_api_key: invalid api key", "200", "200 (not JSON)": an answer in a "got …". */
export function describe(a: Answer): string {
  const body = a.body as { code?: unknown; message?: unknown } | undefined;
  if (body && typeof body === 'object' && (typeof body.code === 'string' || typeof body.message === 'string'))
    return `${a.status} ${[body.code, body.message].filter((s) => typeof s === 'string').join(': ')}`;
  if (a.body === undefined && a.exchange.response.bodyText !== undefined)
    return `${a.status} (a body that is not JSON)`;
  return String(a.status);
}
