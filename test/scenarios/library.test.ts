// The bundled library: scenarios/state-machine/ is generated from the state table and must be current, and every
// scenario under scenarios/ passes, each in its own in-process sandbox (this is `paygate scenario run scenarios/`).
import { mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderFailure } from '../../src/scenarios/reporters/diff.js';
import { runPaths } from '../../src/scenarios/run.js';
import { stateMachineScenarios } from './state-machine-library.js';

const DIR = new URL('../../scenarios/state-machine/', import.meta.url);

describe('scenario library', () => {
  it('scenarios/state-machine/ has one scenario per non-trivial cell of the state table', () => {
    const want = stateMachineScenarios();
    if (process.env.UPDATE_SCENARIOS) {
      rmSync(DIR, { recursive: true, force: true });
      mkdirSync(DIR, { recursive: true });
      for (const [name, text] of want) writeFileSync(new URL(name, DIR), text);
    }
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    expect(files).toEqual([...want.keys()].sort());
    for (const f of files) expect(readFileSync(new URL(f, DIR), 'utf8'), f).toBe(want.get(f));
  });

  it('every bundled scenario passes', { timeout: 120_000 }, async () => {
    const summary = await runPaths(['scenarios']);
    const failures = summary.results
      .filter((r) => r.status !== 'passed')
      .map((r) => `${r.name} (${r.file})\n${renderFailure(r) || r.error}`);
    expect(failures).toEqual([]);
    expect(summary.passed).toBeGreaterThan(stateMachineScenarios().size);
  });
});
