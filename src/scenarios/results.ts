// What a run produces, for the reporters and for code: one result per scenario, one per step, each failure with
// what was expected and what came back.
import type { Mismatch } from './expectations.js';
import type { SentRequest } from './http.js';

export type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  /** 0-based position in the scenario. */
  index: number;
  id?: string | undefined;
  /** What the step does, e.g. `payment.create` or its `name:`. */
  label: string;
  /** Line of the step in its file. */
  line?: number | undefined;
  status: StepStatus;
  durationMs: number;
  request?: SentRequest | undefined;
  response?: { status: number; body: unknown } | undefined;
  /** The expectations that did not hold. */
  mismatches: Mismatch[];
  /** Why the step could not be carried out at all (bad input, connection lost, timeout). */
  error?: string | undefined;
  /** Types of the webhook events the step caused, when the receiver was on. */
  webhooks?: string[] | undefined;
  /** Why the step was skipped: its `skip:` reason, or that an earlier step failed. */
  reason?: string | undefined;
  /** A remark for reports: how far wait_for moved the clock, a step started in the background. */
  note?: string | undefined;
}

export type ScenarioStatus = 'passed' | 'failed' | 'skipped';

export interface ScenarioResult {
  name: string;
  file?: string | undefined;
  status: ScenarioStatus;
  durationMs: number;
  steps: StepResult[];
  /** Why the scenario did not run (skipped) or broke before its steps (failed). */
  error?: string | undefined;
}

export interface RunSummary {
  results: ScenarioResult[];
  passed: number;
  failed: number;
  skipped: number;
  durationMs: number;
  /** The seed of the unique values; pass it to --seed to repeat the run. */
  seed: number;
  /** in-process, or the base URL. */
  target: string;
  /** Files found in the directories searched that are not scenarios by their content (no top-level `steps:`). */
  skippedFiles: string[];
}

/** The first failed step of a scenario, if any. */
export function failedStep(r: ScenarioResult): StepResult | undefined {
  return r.steps.find((s) => s.status === 'failed');
}
