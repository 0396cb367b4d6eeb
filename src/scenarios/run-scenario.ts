// Running one scenario: open its target (a fresh in-process sandbox, or the running one), carry out the steps in
// order, stop at the first step that fails (the rest are skipped), close the target.
import { RunContext } from './context.js';
import type { Scenario, ScenarioStep } from './format.js';
import type { ScenarioResult, StepResult } from './results.js';
import { baseResult, runAwait, runCall, runReceiver } from './steps.js';
import { inProcessTarget, remoteTarget, type RemoteOptions, type Target } from './target.js';
import { runWaitFor, type WaitOptions } from './wait-for.js';

export interface ScenarioRunOptions extends WaitOptions {
  /** Run against this sandbox instead of a fresh in-process one per scenario. */
  remote?: RemoteOptions | undefined;
  /** Seed of the unique values. Default: random. */
  seed?: number | undefined;
  /** Position of the scenario in the run (mixed into seeded unique values). */
  index?: number | undefined;
  /** Called after each step. */
  onStep?: ((step: StepResult) => void) | undefined;
}

async function runStep(
  ctx: RunContext,
  step: ScenarioStep,
  index: number,
  opts: ScenarioRunOptions,
): Promise<StepResult> {
  const started = performance.now();
  let result: StepResult;
  try {
    switch (step.kind) {
      case 'call':
        result = await runCall(ctx, step, index);
        break;
      case 'await':
        result = await runAwait(ctx, step, index);
        break;
      case 'wait_for':
        result = await runWaitFor(ctx, step, index, opts);
        break;
      case 'receiver':
        result = await runReceiver(ctx, step, index);
        break;
      case 'skip':
        result = { ...baseResult(step, index), status: 'skipped', reason: step.skip };
        break;
    }
  } catch (e) {
    result = { ...baseResult(step, index), status: 'failed', error: (e as Error).message };
  }
  result.durationMs = performance.now() - started;
  return result;
}

/** Why a scenario cannot run against a running sandbox, if it cannot. */
function remoteSkipReason(s: Scenario): string | undefined {
  if (s.fixtures !== 'default') return `it needs its own fixtures (${s.fixtures}); run it in process`;
  return undefined;
}

export async function runOneScenario(s: Scenario, opts: ScenarioRunOptions = {}): Promise<ScenarioResult> {
  const started = performance.now();
  const base = { name: s.name, file: s.file };
  const skip = opts.remote ? remoteSkipReason(s) : undefined;
  if (skip) return { ...base, status: 'skipped', durationMs: 0, steps: [], error: skip };
  let target: Target;
  try {
    target = opts.remote ? await remoteTarget(s, opts.remote) : await inProcessTarget(s);
  } catch (e) {
    return {
      ...base,
      status: 'failed',
      durationMs: performance.now() - started,
      steps: [],
      error: `could not set up the scenario: ${(e as Error).message}`,
    };
  }
  const steps: StepResult[] = [];
  try {
    const ctx = new RunContext(s, target, { seed: opts.seed, index: opts.index });
    for (const [i, step] of s.steps.entries()) {
      if (steps.some((r) => r.status === 'failed')) {
        steps.push({ ...baseResult(step, i), status: 'skipped', reason: 'an earlier step failed' });
        continue;
      }
      if (step.skip !== undefined) {
        const r: StepResult = { ...baseResult(step, i), status: 'skipped', reason: step.skip };
        steps.push(r);
        opts.onStep?.(r);
        continue;
      }
      const r = await runStep(ctx, step, i, opts);
      steps.push(r);
      opts.onStep?.(r);
    }
  } catch (e) {
    return { ...base, status: 'failed', durationMs: performance.now() - started, steps, error: (e as Error).message };
  } finally {
    await target.close().catch(() => undefined);
  }
  const failed = steps.some((r) => r.status === 'failed');
  return { ...base, status: failed ? 'failed' : 'passed', durationMs: performance.now() - started, steps };
}
