// What a reporter hears during a run. Several may listen to one run (--reporter terminal --reporter junit).
import type { Scenario } from '../format.js';
import type { RunSummary, ScenarioResult, StepResult } from '../results.js';

export interface RunStart {
  total: number;
  /** in-process, or the base URL. */
  target: string;
  seed: number;
  concurrency: number;
}

export interface Reporter {
  onRunStart?(info: RunStart): void;
  onScenarioStart?(s: Scenario): void;
  onStep?(s: Scenario, step: StepResult): void;
  onScenarioEnd?(r: ScenarioResult): void;
  /** Called once with the whole run; file reporters write here. */
  onRunEnd(summary: RunSummary): void | Promise<void>;
}

/** A writable text sink: process.stdout, a file, a test buffer. */
export interface Sink {
  write(text: string): unknown;
}
