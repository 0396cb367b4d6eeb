// A failed step as text: where it is (file:line), the request that was sent, every expectation that did not hold as
// a `-` expected / `+` actual pair under a legend saying so (expected green, actual red, as in vitest and jest; no
// colour unless the reporter was given it), and the answer that came back. Shared by the terminal and JUnit reporters.
import type { Mismatch } from '../expectations.js';
import type { ScenarioResult, StepResult } from '../results.js';

export interface Paint {
  red(s: string): string;
  green(s: string): string;
  dim(s: string): string;
}

export const PLAIN: Paint = { red: (s) => s, green: (s) => s, dim: (s) => s };

const show = (v: unknown): string =>
  typeof v === 'string' && v.startsWith('(') ? v : (JSON.stringify(v) ?? 'undefined');

/** JSON on one line, cut to `max` characters. */
export function brief(v: unknown, max = 400): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Which side is which, above the pairs; expected in green and actual in red, as vitest and jest colour them. */
export function diffLegend(p: Paint): string {
  return `${p.green('- expected')}  ${p.red('+ actual')}`;
}

function mismatchLines(m: Mismatch, p: Paint): string[] {
  const lines = [p.green(`- ${m.what}: ${show(m.expected)}`), p.red(`+ ${m.what}: ${show(m.actual)}`)];
  if (m.note) lines.push(p.dim(`  (${m.note})`));
  return lines;
}

/** "step 2 operations.pay (scenarios/payments/card-payment-paid.yaml:22)". */
export function stepTitle(step: StepResult, file: string | undefined): string {
  const where = file ? ` (${file}${step.line ? `:${step.line}` : ''})` : '';
  const id = step.id && step.id !== step.label ? ` [${step.id}]` : '';
  return `step ${step.index + 1} ${step.label}${id}${where}`;
}

/** The failure of a scenario, indented by `indent`; empty when it passed. */
export function renderFailure(r: ScenarioResult, p: Paint = PLAIN, indent = '  '): string {
  const step = r.steps.find((s) => s.status === 'failed');
  const lines: string[] = [];
  if (!step) {
    if (r.error && r.status === 'failed') lines.push(p.red(r.error));
    return lines.map((l) => indent + l).join('\n');
  }
  lines.push(stepTitle(step, r.file));
  if (step.request)
    lines.push(
      `  ${step.request.method} ${step.request.path}${step.request.body !== undefined ? ` ${brief(step.request.body, 300)}` : ''}`,
    );
  if (step.error) lines.push(p.red(`  ${step.error}`));
  if (step.mismatches.length > 0) lines.push(`  ${diffLegend(p)}`);
  for (const m of step.mismatches) lines.push(...mismatchLines(m, p).map((l) => `  ${l}`));
  if (step.response) lines.push(p.dim(`  answer ${step.response.status} ${brief(step.response.body)}`));
  return lines.map((l) => indent + l).join('\n');
}

/** Each step on one line, for JUnit's system-out. */
export function renderSteps(r: ScenarioResult): string {
  return r.steps
    .map((s) => {
      const req = s.request ? ` — ${s.request.method} ${s.request.path}` : '';
      const res = s.response ? ` → ${s.response.status}` : '';
      const hooks = s.webhooks?.length ? ` webhooks: ${s.webhooks.join(', ')}` : '';
      const note = s.note ? ` (${s.note})` : s.reason ? ` (${s.reason})` : '';
      return `${s.status.padEnd(7)} ${stepTitle(s, undefined)}${req}${res}${hooks}${note} ${Math.round(s.durationMs)} ms`;
    })
    .join('\n');
}
