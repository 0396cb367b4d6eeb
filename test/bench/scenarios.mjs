// npm run bench (last): the whole bundled scenario library, `paygate scenario run scenarios/` as a user runs it
// (a cold CLI process, each scenario in its own in-process sandbox, default concurrency = cores). Target: < 10 s on
// the 2-core machine. BENCH_SCENARIO_RUNS (default 3) runs; BENCH_SKIP_SCENARIOS=1 skips it. Ends with a JSON line.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.env.BENCH_SKIP_SCENARIOS) {
  console.log('scenario benchmark skipped (BENCH_SKIP_SCENARIOS)');
  process.exit(0);
}
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const runs = Number(process.env.BENCH_SCENARIO_RUNS ?? 3);
const figures = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [bin, 'scenario', 'run', 'scenarios/', '--reporter', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wall = performance.now() - started;
  const summary = JSON.parse(r.stdout.trim().split('\n').at(-1));
  if (r.status !== 0) {
    console.error(`scenario run failed (exit ${r.status}): ${summary.failed} failed`);
    process.exit(1);
  }
  figures.push({ scenarios: summary.passed, run_ms: Math.round(summary.durationMs), process_ms: Math.round(wall) });
  console.log(
    `scenario library: ${summary.passed} scenarios in ${(summary.durationMs / 1000).toFixed(2)} s (whole process ${(wall / 1000).toFixed(2)} s; target < 10 s)`,
  );
}
console.log(JSON.stringify({ bench: 'scenarios', runs: figures }));
