// A run with its reporters attached: they hear the start, every step, every scenario and the summary.
import { availableParallelism } from 'node:os';
import { randomInt } from 'node:crypto';
import type { Scenario } from '../format.js';
import type { RunSummary } from '../results.js';
import { runScenarios, type RunOptions } from '../run.js';
import type { Reporter } from './reporter.js';

export async function runReported(scenarios: Scenario[], opts: RunOptions, reporters: Reporter[]): Promise<RunSummary> {
  const seed = opts.seed ?? randomInt(1, 2 ** 31);
  const concurrency = Math.max(1, opts.concurrency ?? (opts.remote ? 1 : availableParallelism()));
  for (const r of reporters)
    r.onRunStart?.({ total: scenarios.length, target: opts.remote?.baseUrl ?? 'in-process', seed, concurrency });
  const summary = await runScenarios(scenarios, {
    ...opts,
    seed,
    concurrency,
    onScenarioStart: (s) => reporters.forEach((r) => r.onScenarioStart?.(s)),
    onStep: (s, st) => reporters.forEach((r) => r.onStep?.(s, st)),
    onScenarioEnd: (res) => reporters.forEach((r) => r.onScenarioEnd?.(res)),
  });
  for (const r of reporters) await r.onRunEnd(summary);
  return summary;
}
