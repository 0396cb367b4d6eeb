// npm run bench: `npm start` as a new user meets it, in a copy of the checkout (its own dist/ and store; node_modules
// linked): the first start after deleting the build output, and a restart with nothing changed. Each is timed from
// spawning `npm start -- --port 0` until the sandbox answers GET /livez at the base URL its ready line names, then it
// is stopped (SIGINT to its process group) and waited for. Beside them, `paygate sandbox start` itself (what a
// restart should cost) and `node -e 0`, as ratios. Targets:
// first start ≤ 10 s, restart ≤ 2 s. BENCH_START_ROUNDS (default 3) interleaved rounds, medians; BENCH_SKIP_START=1
// skips it. Ends with a JSON line.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.env.BENCH_SKIP_START) {
  console.log('npm start benchmark skipped (BENCH_SKIP_START)');
  process.exit(0);
}
const root = fileURLToPath(new URL('../../', import.meta.url));
const rounds = Number(process.env.BENCH_START_ROUNDS ?? 3);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** A checkout without dist/: what `git clone` and `npm install` leave. */
function copyCheckout() {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-start-'));
  for (const entry of ['bin', 'scripts', 'src', 'fixtures', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(join(root, entry), join(dir, entry), { recursive: true, preserveTimestamps: true });
  }
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Milliseconds from spawning `npm start` until /livez answers; the sandbox is stopped before it resolves. */
function timeStart(dir, [command, ...args] = [npm, 'start', '--silent', '--']) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, [...args, '--port', '0'], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let elapsed;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', async (d) => {
      out += d;
      const base = /base URL\s+(\S+)/.exec(out)?.[1];
      if (base === undefined || elapsed !== undefined) return;
      elapsed = -1;
      try {
        const r = await fetch(new URL('/livez', base));
        if (!r.ok) throw new Error(`/livez answered ${r.status}`);
        elapsed = performance.now() - started;
      } catch (e) {
        reject(e);
      }
      process.kill(-child.pid, 'SIGINT');
    });
    // A start that never gets ready is a failure, not a hang.
    const limit = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      if (elapsed > 0) resolve(elapsed);
      else reject(new Error(`npm start exited (${code ?? signal}) before it was ready:\n${out}\n${err}`));
    });
  });
}

function timeNode() {
  const started = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return performance.now() - started;
}

const median = (t) => [...t].sort((a, b) => a - b)[Math.floor(t.length / 2)];
const dir = copyCheckout();
const first = [];
const restart = [];
const direct = [];
const node = [];
try {
  for (let i = 0; i < rounds; i++) {
    rmSync(join(dir, 'dist'), { recursive: true, force: true });
    first.push(await timeStart(dir));
    restart.push(await timeStart(dir));
    direct.push(await timeStart(dir, [process.execPath, 'bin/paygate.js', 'sandbox', 'start']));
    for (let j = 0; j < 5; j++) node.push(timeNode());
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const base = median(node);
const line = (name, t, target) =>
  `${name.padEnd(38)} median ${(median(t) / 1000).toFixed(2).padStart(5)} s = ${(median(t) / base).toFixed(1).padStart(5)} × node -e 0 (${t.map((x) => (x / 1000).toFixed(2)).join(', ')} s; target ${target})`;
console.log(`${'node -e 0'.padEnd(38)} median ${base.toFixed(1)} ms`);
console.log(line('npm start, first (no dist/)', first, '≤ 10 s'));
console.log(line('npm start, restart (nothing changed)', restart, '≤ 2 s'));
console.log(line('paygate sandbox start (no npm)', direct, '—'));
const ms = (t) => t.map(Math.round);
console.log(
  JSON.stringify({
    bench: 'start',
    node_ms: Math.round(base),
    first_ms: ms(first),
    restart_ms: ms(restart),
    sandbox_start_ms: ms(direct),
  }),
);
