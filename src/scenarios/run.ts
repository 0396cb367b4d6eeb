// Running many scenarios: load and validate every file first (any invalid one stops the run before it starts),
// filter with --grep, run them at most `concurrency` at a time (each in its own sandbox), stop starting new ones
// after a failure with --bail, and sum up.
import { availableParallelism } from 'node:os';
import { randomInt } from 'node:crypto';
import { discoverScenarios } from './discover.js';
import { ScenarioFileError, ScenarioFilesError, ScenarioUsageError } from './errors.js';
import type { Scenario } from './format.js';
import { loadScenarioFile } from './load.js';
import type { RunSummary, ScenarioResult, StepResult } from './results.js';
import { runOneScenario, type ScenarioRunOptions } from './run-scenario.js';
import { probe } from './target.js';

export interface RunOptions extends Omit<ScenarioRunOptions, 'index' | 'onStep' | 'seed'> {
  /** Scenarios at once. Default: the number of cores in process, 1 against a running sandbox (one clock, one set of balances). */
  concurrency?: number | undefined;
  /** Only scenarios whose name or file matches this regular expression (case-insensitive). */
  grep?: string | undefined;
  /** Start no new scenario after one failed. Default false. */
  bail?: boolean | undefined;
  /** Seed of the unique values. Default: a random one (reported, so a run can be repeated). */
  seed?: number | undefined;
  onScenarioStart?: ((s: Scenario) => void) | undefined;
  onScenarioEnd?: ((r: ScenarioResult) => void) | undefined;
  onStep?: ((s: Scenario, step: StepResult) => void) | undefined;
  /** Files the search left out (not scenarios), carried into the summary. */
  skippedFiles?: string[] | undefined;
}

/** Load and validate files; every problem of every file is collected. */
export async function loadAll(files: string[]): Promise<Scenario[]> {
  const errors: ScenarioFileError[] = [];
  const out: Scenario[] = [];
  for (const f of files) {
    try {
      out.push(await loadScenarioFile(f));
    } catch (e) {
      if (e instanceof ScenarioFileError) errors.push(e);
      else throw e;
    }
  }
  if (errors.length > 0) throw new ScenarioFilesError(errors);
  return out;
}

export function filterScenarios(scenarios: Scenario[], grep: string | undefined): Scenario[] {
  if (!grep) return scenarios;
  let re: RegExp;
  try {
    re = new RegExp(grep, 'i');
  } catch (e) {
    throw new ScenarioUsageError(`--grep is not a regular expression: ${(e as Error).message}`);
  }
  return scenarios.filter((s) => re.test(s.name) || (s.file !== undefined && re.test(s.file)));
}

/** Run scenarios already loaded. */
export async function runScenarios(scenarios: Scenario[], opts: RunOptions = {}): Promise<RunSummary> {
  const started = performance.now();
  const seed = opts.seed ?? randomInt(1, 2 ** 31);
  if (opts.remote) await probe(opts.remote.baseUrl);
  const concurrency = Math.max(1, opts.concurrency ?? (opts.remote ? 1 : availableParallelism()));
  const results: ScenarioResult[] = new Array(scenarios.length);
  // In process, keep the receipt reader's worker for the whole run rather than one per sandbox.
  const release = opts.remote ? undefined : (await import('../emulator/receipts/pdf-reader.js')).retainPdfReader();
  let next = 0;
  let bailed = false;
  const worker = async () => {
    while (next < scenarios.length) {
      const i = next++;
      const s = scenarios[i]!;
      if (bailed) {
        results[i] = {
          name: s.name,
          file: s.file,
          status: 'skipped',
          durationMs: 0,
          steps: [],
          error: 'not run: --bail after a failure',
        };
        continue;
      }
      opts.onScenarioStart?.(s);
      const r = await runOneScenario(s, { ...opts, seed, index: i, onStep: (st) => opts.onStep?.(s, st) });
      results[i] = r;
      if (r.status === 'failed' && opts.bail) bailed = true;
      opts.onScenarioEnd?.(r);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, scenarios.length) }, worker));
  } finally {
    await release?.();
  }
  const count = (st: ScenarioResult['status']) => results.filter((r) => r.status === st).length;
  return {
    results,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    durationMs: performance.now() - started,
    seed,
    target: opts.remote?.baseUrl ?? 'in-process',
    skippedFiles: opts.skippedFiles ?? [],
  };
}

/** Discover, load, filter and run: what `paygate scenario run` does before reporting. */
export async function runPaths(paths: string[], opts: RunOptions = {}): Promise<RunSummary> {
  const found = discoverScenarios(paths);
  const scenarios = filterScenarios(await loadAll(found.files), opts.grep);
  if (scenarios.length === 0) throw new ScenarioUsageError(`no scenario matches --grep ${JSON.stringify(opts.grep)}`);
  return runScenarios(scenarios, { skippedFiles: found.skipped, ...opts });
}
