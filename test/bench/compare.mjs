// Two builds of the sandbox side by side: creates over HTTP (20 connections, test/bench/load.mjs) against each, in
// interleaved rounds (A, B, A, B …), each round a fresh copy of the same prefilled store; prints the server's CPU
// per create, creates/s and p99 of every round and their medians. On a shared machine single runs move by a factor
// of two, so compare the medians (and the per-round pairs) of CPU per create, not one run's requests per second.
//   git worktree add /tmp/paygate-base main && (cd /tmp/paygate-base && ln -s "$PWD/node_modules" . && npm run build)
//   npm run build && node test/bench/compare.mjs --base /tmp/paygate-base [--rounds 10] [--ms 3000] [--size 1000]
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPayment, load } from './load.mjs';
import { startChild, stop } from './child.mjs';

const here = fileURLToPath(new URL('../..', import.meta.url));
const { values: opt } = parseArgs({
  options: {
    base: { type: 'string' },
    head: { type: 'string', default: here },
    rounds: { type: 'string', default: '10' },
    ms: { type: 'string', default: '3000' },
    size: { type: 'string', default: '1000' },
  },
});
if (!opt.base) throw new Error('--base <directory of the other build> is required (see the comment at the top)');
const builds = { base: resolve(opt.base), head: resolve(opt.head) };

const work = mkdtempSync(join(tmpdir(), 'paygate-compare-'));
const seed = join(work, 'seed.json');
const pre = spawnSync(process.execPath, [join(builds.head, 'test/bench/prefill.mjs'), seed, opt.size], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (pre.status !== 0) throw new Error('prefill failed');

const results = { base: [], head: [] };
for (let round = 0; round < Number(opt.rounds); round++) {
  for (const [name, root] of Object.entries(builds)) {
    const dir = mkdtempSync(join(work, 'round-'));
    // The snapshot and whatever lies beside it (secrets, workspaces), under the name the sandbox is started with.
    for (const f of readdirSync(work))
      if (f.startsWith('seed.json'))
        cpSync(join(work, f), join(dir, f.replace('seed', 'sandbox')), { recursive: true });
    const sb = await startChild([
      join(root, 'bin/paygate.js'),
      'sandbox',
      'start',
      '--port',
      '0',
      '--store',
      join(dir, 'sandbox.json'),
      '--json',
    ]);
    const r = await load({
      url: sb.info.base_url,
      durationMs: Number(opt.ms),
      pid: sb.child.pid,
      request: createPayment(`cmp-${round}`),
    });
    await stop(sb.child);
    rmSync(dir, { recursive: true, force: true });
    results[name].push(r);
    console.log(
      `round ${round + 1} ${name}  CPU ${r.cpuUsPerRequest?.toFixed(0)} µs/create  ${r.rps.toFixed(0)}/s  p99 ${r.p99.toFixed(2)} ms  (${r.non2xx} non-2xx, ${r.errors} errors)`,
    );
  }
}
rmSync(work, { recursive: true, force: true });

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, rs] of Object.entries(results)) {
  const cpu = rs.map((r) => r.cpuUsPerRequest ?? NaN);
  console.log(
    `${name} (${builds[name]}): CPU median ${median(cpu).toFixed(0)} µs/create [${cpu.map((c) => c.toFixed(0)).join(', ')}], ${median(rs.map((r) => r.rps)).toFixed(0)}/s, p99 ${median(rs.map((r) => r.p99)).toFixed(2)} ms`,
  );
}
const ratios = results.head.map((r, i) => r.cpuUsPerRequest / results.base[i].cpuUsPerRequest);
console.log(`head ÷ base, CPU per create, median of the rounds' ratios: ${median(ratios).toFixed(3)}`);
