// `--reporter json`: JSON Lines, machine-readable and streamable: one object per step as it finishes
// (`"type":"step"`), one per scenario (`"type":"scenario"`, with all its steps), and a closing `"type":"summary"`.
import type { Scenario } from '../format.js';
import type { RunSummary, ScenarioResult, StepResult } from '../results.js';
import type { Reporter, Sink } from './reporter.js';

const ms = (n: number) => Math.round(n * 10) / 10;

function step(s: StepResult): Record<string, unknown> {
  return { ...s, durationMs: ms(s.durationMs) };
}

export class JsonReporter implements Reporter {
  constructor(private readonly sink: Sink) {}

  onStep(s: Scenario, st: StepResult): void {
    this.sink.write(`${JSON.stringify({ type: 'step', scenario: s.name, file: s.file ?? null, ...step(st) })}\n`);
  }

  onScenarioEnd(r: ScenarioResult): void {
    this.sink.write(
      `${JSON.stringify({ type: 'scenario', ...r, durationMs: ms(r.durationMs), steps: r.steps.map(step) })}\n`,
    );
  }

  onRunEnd(sum: RunSummary): void {
    const { results: _r, ...rest } = sum;
    this.sink.write(`${JSON.stringify({ type: 'summary', ...rest, durationMs: ms(sum.durationMs) })}\n`);
  }
}
