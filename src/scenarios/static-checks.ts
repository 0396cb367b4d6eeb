// Checks a valid scenario's references before anything runs: every `${{ steps.x }}` names an earlier step,
// every `${{ vars.x }}` a variable, every `await` an earlier background step, step ids are unique, and every
// operation status named (wait_for, operation_status, operation.status) is one an operation can have.
import { OperationStatus } from '../contract/common.js';
import type { Scenario, ScenarioStep } from './format.js';
import { distance } from './vocabulary.js';
import { referencesIn, TemplateError, type Reference } from './template.js';

export interface StaticProblem {
  path: (string | number)[];
  message: string;
}

/** Every string of a value with its path. */
function* strings(value: unknown, path: (string | number)[]): Generator<[(string | number)[], string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* strings(v, [...path, i]);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) yield* strings(v, [...path, k]);
}

function refs(value: unknown, path: (string | number)[], out: StaticProblem[]): [(string | number)[], Reference][] {
  const found: [(string | number)[], Reference][] = [];
  for (const [p, text] of strings(value, path)) {
    try {
      for (const r of referencesIn(text)) found.push([p, r]);
    } catch (e) {
      if (e instanceof TemplateError) out.push({ path: p, message: e.message });
      else throw e;
    }
  }
  return found;
}

export function checkReferences(s: Scenario): StaticProblem[] {
  const out: StaticProblem[] = [];
  const vars = new Set<string>();
  for (const [name, value] of Object.entries(s.variables)) {
    for (const [p, r] of refs(value, ['variables', name], out)) {
      if (r.root === 'steps')
        out.push({ path: p, message: `\${{ ${r.source} }}: variables are evaluated before any step runs` });
      if (r.root === 'vars' && !vars.has(r.path[0]!))
        out.push({ path: p, message: `\${{ ${r.source} }}: no variable "${r.path[0]}" is defined above it` });
    }
    vars.add(name);
  }
  const seen = new Set<string>();
  const background = new Set<string>();
  for (const [i, step] of s.steps.entries()) {
    const { line: _line, kind: _kind, ...body } = step;
    for (const [p, r] of refs(body, ['steps', i], out)) {
      // A step's expectations are checked after its answer, so they may refer to the step itself.
      const own = p[2] === 'expect' && r.path[0] === step.id;
      if (r.root === 'steps' && !seen.has(r.path[0]!) && !own)
        out.push({ path: p, message: `\${{ ${r.source} }}: no earlier step has id "${r.path[0]}"` });
      if (r.root === 'vars' && !vars.has(r.path[0]!))
        out.push({ path: p, message: `\${{ ${r.source} }}: no variable "${r.path[0]}" (define it under variables:)` });
    }
    if (step.kind === 'await') {
      if (!background.has(step.await))
        out.push({
          path: ['steps', i, 'await'],
          message: `no earlier step "${step.await}" with background: true is waiting to be awaited`,
        });
      background.delete(step.await);
    }
    if (step.id !== undefined) {
      if (seen.has(step.id)) out.push({ path: ['steps', i, 'id'], message: `step id "${step.id}" is used twice` });
      seen.add(step.id);
      if (step.kind === 'call' && step.background) background.add(step.id);
    } else if (step.kind === 'call' && step.background) {
      out.push({ path: ['steps', i, 'background'], message: 'a background step needs an id (an await step names it)' });
    }
  }
  return out;
}

const STATUSES: readonly string[] = OperationStatus.options;

/** The problem with a status an operation never has, with the closest real one; undefined for a real one. */
export function statusProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.includes('${{') || STATUSES.includes(value)) return undefined;
  const near = STATUSES.filter(
    (s) =>
      distance(value, s) <= Math.max(2, Math.floor(value.length / 3)) || s.startsWith(value) || value.startsWith(s),
  );
  const hint = near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : '';
  return `unknown operation status ${JSON.stringify(value)}${hint}; an operation is ${STATUSES.join(', ')}`;
}

/** Every status a step names: what wait_for waits for, expect.operation_status and expect.operation.status. */
function statusesOf(step: ScenarioStep, i: number): [(string | number)[], unknown][] {
  const out: [(string | number)[], unknown][] = [];
  if (step.kind === 'wait_for') {
    const st = step.wait_for.status;
    if (Array.isArray(st)) st.forEach((v, j) => out.push([['steps', i, 'wait_for', 'status', j], v]));
    else out.push([['steps', i, 'wait_for', 'status'], st]);
  }
  if (step.expect?.operation_status !== undefined)
    out.push([['steps', i, 'expect', 'operation_status'], step.expect.operation_status]);
  const opStatus = step.expect?.operation?.status;
  if (typeof opStatus === 'string') out.push([['steps', i, 'expect', 'operation', 'status'], opStatus]);
  return out;
}

export function checkStatuses(s: Scenario): StaticProblem[] {
  const out: StaticProblem[] = [];
  for (const [i, step] of s.steps.entries()) {
    for (const [path, value] of statusesOf(step, i)) {
      const message = statusProblem(value);
      if (message) out.push({ path, message });
    }
  }
  return out;
}
