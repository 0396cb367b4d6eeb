// The reporters of `paygate scenario run`, and the exit code of a run.
import type { RunSummary } from '../results.js';
export { TerminalReporter, type TerminalOptions } from './terminal.js';
export { JsonReporter } from './json.js';
export { JunitReporter } from './junit.js';
export type { Reporter, RunStart, Sink } from './reporter.js';
export { renderFailure, renderSteps } from './diff.js';

/** Exit codes of `paygate scenario`: 0 all passed, 1 a scenario failed, 2 invalid file or misuse, 3 target unreachable. */
export const SCENARIO_EXIT = { ok: 0, failed: 1, invalid: 2, unreachable: 3 } as const;

export function exitCodeOf(sum: RunSummary): number {
  return sum.failed > 0 ? SCENARIO_EXIT.failed : SCENARIO_EXIT.ok;
}
export { runReported } from './run-reported.js';
