// What a run against a running sandbox (--base-url) cannot do without its admin token: reset it before each
// scenario, read or move its clock (wait_for), call the controls the token guards (clock, sandbox.reset, keys,
// faults, evidence, pool settings). The CLI warns at the start; the steps that need it fail at once, saying why.
import type { Scenario, ScenarioStep } from './format.js';
import { callableOf } from './vocabulary.js';

/** How to give the token, for messages. */
export const NO_ADMIN_TOKEN =
  'no admin token was given (pass --admin-token or set PAYGATE_ADMIN_TOKEN; from code, remote.adminToken)';

/** Whether a step sends the admin token itself (`headers: { x-admin-token: … }`). */
function ownToken(step: ScenarioStep): boolean {
  return step.kind === 'call' && Object.keys(step.headers ?? {}).some((h) => h.toLowerCase() === 'x-admin-token');
}

/** Whether the step calls a control that takes the admin token and, without one, would only be refused. */
export function needsAdminToken(step: ScenarioStep): boolean {
  if (step.kind === 'wait_for') return true;
  if (step.kind !== 'call' || ownToken(step)) return false;
  if (callableOf(step.call)?.auth !== 'admin') return false;
  // A step that expects the refusal (401, 403) is about the token and runs as written.
  const status = step.expect?.status;
  return status !== 401 && status !== 403;
}

/** The scenarios with a step that needs the admin token. */
export function scenariosNeedingAdmin(scenarios: Scenario[]): Scenario[] {
  return scenarios.filter((s) => s.steps.some(needsAdminToken));
}

/** The warning printed at the start of a --base-url run without the admin token; undefined when there is none to give. */
export function noAdminTokenWarning(scenarios: Scenario[], reset: boolean): string | undefined {
  const needing = scenariosNeedingAdmin(scenarios);
  if (needing.length === 0 && !reset) return undefined;
  const parts: string[] = [];
  if (reset)
    parts.push('the sandbox is not reset before each scenario (what earlier runs left stays, reserves included)');
  if (needing.length > 0) {
    const n = `${needing.length} of ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'}`;
    parts.push(
      `${n} move the sandbox clock (wait_for) or call controls that take the token: on a sandbox those steps fail at once`,
    );
  }
  return `warning: ${NO_ADMIN_TOKEN}: ${parts.join('; ')}`;
}
