// npm run bench, container part: the sandbox's create rate (POST /v1/payment, 20 connections, the load of
// load.mjs) in the Docker image (--network host, its store in a volume) beside the same build run outside it (store
// in a temp file), interleaved rounds, best of each. Goal: ≥ 90 %. Builds the image on the local base that
// scripts/container-base.sh makes and caches once per machine, and removes what it made (not the base).
// BENCH_SKIP_CONTAINER=1 skips it; it skips loudly where no docker daemon answers.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createPayment, load } from './load.mjs';

if (process.env.BENCH_SKIP_CONTAINER) {
  console.log('container benchmark skipped (BENCH_SKIP_CONTAINER)');
  process.exit(0);
}
if (spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status !== 0) {
  console.log('\n!!! container bench SKIPPED: no docker daemon answers (`docker info` failed)\n');
  process.exit(0);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_CONTAINER_ROUNDS ?? 2);
const PORT = 4000 + (process.pid % 1000) * 5;
const id = `${process.pid}`;
const image = `paygate-bench:${id}`;
const volume = `paygate-bench-${id}`;
const docker = (...args) => execFileSync('docker', args, { encoding: 'utf8', maxBuffer: 64 << 20 }).trim();

const firstLine = (stream) => new Promise((resolve) => createInterface({ input: stream }).once('line', resolve));

async function outside(round) {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-ct-'));
  const child = spawn(
    process.execPath,
    [bin, 'sandbox', 'start', '--port', String(PORT), '--json', '--store', join(dir, 'sandbox.json')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const { base_url } = JSON.parse(await firstLine(child.stdout));
    return await load({
      url: base_url,
      durationMs: DURATION,
      request: createPayment(`out-${id}-${round}`),
      pid: child.pid,
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function inside(round) {
  const name = `paygate-bench-${id}-${round}`;
  docker(
    'run',
    '-d',
    '--name',
    name,
    '--network',
    'host',
    '-e',
    `PAYGATE_PORT=${PORT}`,
    '-v',
    `${volume}:/data`,
    image,
    'sandbox',
    'start',
    '--json',
    '--reset',
  );
  try {
    const logs = spawn('docker', ['logs', '-f', name], { stdio: ['ignore', 'pipe', 'inherit'] });
    const { base_url } = JSON.parse(await firstLine(logs.stdout));
    logs.kill();
    const pid = Number(docker('inspect', '-f', '{{.State.Pid}}', name));
    return await load({
      url: base_url.replace('0.0.0.0', '127.0.0.1'),
      durationMs: DURATION,
      request: createPayment(`in-${id}-${round}`),
      pid,
    });
  } finally {
    spawnSync('docker', ['rm', '-f', name], { stdio: 'ignore' });
  }
}

const base = execFileSync('bash', [join(root, 'scripts/container-base.sh')], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
})
  .trim()
  .split('\n')
  .pop();
const dangling = () => new Set(docker('images', '-q', '--no-trunc', '-f', 'dangling=true').split('\n').filter(Boolean));
const before = dangling();
const t0 = Date.now();
try {
  execFileSync('docker', ['build', '-q', '-t', image, '--build-arg', `BASE=${base}`, root], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const built = ((Date.now() - t0) / 1000).toFixed(0);
  const left = [...dangling()].filter((i) => !before.has(i));
  if (left.length) spawnSync('docker', ['rmi', '-f', ...left], { stdio: 'ignore' });
  const size = (name) => Number(docker('image', 'inspect', '-f', '{{.Size}}', name));
  const over = (size(image) - size(base)) / 1e6;
  docker('volume', 'create', volume);
  const out = [];
  const inn = [];
  for (let round = 0; round < ROUNDS; round++) {
    out.push(await outside(round));
    inn.push(await inside(round));
  }
  const best = (rs) => rs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const o = best(out);
  const i = best(inn);
  const line = (what, r) =>
    `  ${what.padEnd(10)} ${r.rps.toFixed(0).padStart(6)} creates/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  errors ${r.errors + r.non2xx}`;
  console.log(
    `\ncontainer (image built in ${built} s on ${base}; ${over.toFixed(0)} MB over the base; ${ROUNDS} interleaved rounds of ${DURATION / 1000} s, best):`,
  );
  console.log(line('outside', o));
  console.log(line('container', i));
  console.log(`  container / outside: ${((i.rps / o.rps) * 100).toFixed(0)} % (goal ≥ 90 %)`);
} finally {
  spawnSync('docker', ['volume', 'rm', '-f', volume], { stdio: 'ignore' });
  spawnSync('docker', ['rmi', '-f', image], { stdio: 'ignore' });
}
