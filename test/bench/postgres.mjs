// npm run bench, PostgreSQL part: create-payment throughput and latency over HTTP (20 connections) on the PostgreSQL
// store, beside a bare single-row INSERT (unique key, 20 connections, prepared) measured on the same throwaway
// cluster in the same run (PostgreSQL's default durability: fsync, synchronous_commit on), with the sandbox's default
// (durable commit: synchronous_commit on, one WAL flush per group of creates) and without it (--no-fsync:
// synchronous_commit off), each as a share of the bare INSERT, and the default without pipelined group writes
// (PAYGATE_PG_PIPELINE=0: one group in flight at a time, as before issue 29) for comparison; the file store's create
// rate in the same run for scale; then the failover time:
// SIGKILL the active sandbox, time until the standby's /readyz answers 204. Under each rate, where the CPU went per
// create (or per INSERT): the sandbox process, the PostgreSQL server (all its processes) and the load generator
// (cpu-split.mjs; the ratio of two rates moves with whatever else runs on the machine, these much less).
// Skips loudly without PostgreSQL.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { postgresMissing, startCluster } from '../postgres/cluster.mjs';
import { createPayment, load } from './load.mjs';
import { bareInsert } from './pg-bare.mjs';
import { cpuSplit, formatSplit } from './cpu-split.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONNECTIONS = 20;
const ROUNDS = Number(process.env.BENCH_FAILOVERS ?? 3);
/** Payments put into the default-mode database before its create load and the failovers (test/bench/prefill.mjs). */
const PREFILL = Number(process.env.BENCH_PG_PREFILL ?? 0);

const missing = postgresMissing();
if (missing) {
  console.log(`\n!!! PostgreSQL bench SKIPPED: ${missing}\n`);
  process.exit(0);
}

/** `paygate sandbox start` on the database; resolves { child, ready: Promise<info>, standby: Promise<url> }. */
function startSandbox(url, extra = [], env = {}) {
  const child = spawn(process.execPath, [bin, 'sandbox', 'start', '--store', url, '--port', '0', '--json', ...extra], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  let err = '';
  const standby = new Promise((resolve) =>
    child.stderr.on('data', (d) => {
      err += d;
      const m = /standing by on (http:\/\/[\d.]+:\d+)/.exec(err);
      if (m) resolve(m[1]);
    }),
  );
  const ready = new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${err}`)));
  });
  ready.catch(() => {});
  return { child, ready, standby };
}

function kill(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  return gone;
}

const createRequest = createPayment(`bench-pg-${process.pid}`);

const fmt = (r) =>
  `${r.rps.toFixed(0).padStart(7)} /s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.requests} in ${DURATION / 1000} s, ${r.non2xx} non-2xx, ${r.errors} errors)`;

const cluster = await startCluster({ fsync: true });
const live = [];

/** The create load on a started sandbox, with the CPU split of its measured window (`cpu`). */
async function measure(sandbox) {
  const meter = cpuSplit({ sandboxPid: sandbox.child.pid, postmasterPid: cluster.pid });
  const url = (await sandbox.ready).base_url;
  const r = await load({ url, connections: CONNECTIONS, durationMs: DURATION, request: createRequest, ...meter });
  return { ...r, cpu: meter.perRequest(r.requests) };
}
try {
  console.log(
    `\nPostgreSQL store (throwaway cluster, PostgreSQL defaults: fsync on, synchronous_commit on), ${CONNECTIONS} connections`,
  );
  const bareMeter = cpuSplit({ postmasterPid: cluster.pid });
  const bare = await bareInsert(await cluster.createDatabase('bare'), DURATION, CONNECTIONS, bareMeter.onMeasure);
  console.log(`  bare single-row INSERT        ${fmt(bare)}`);
  console.log(formatSplit(bareMeter.perRequest(bare.requests), 'INSERT'));

  // --no-fsync: synchronous_commit off for the writer (survives a crash of the sandbox and a failover, not one of
  // the database server).
  const fast = startSandbox(await cluster.createDatabase('fast'), ['--no-fsync']);
  live.push(fast);
  const rf = await measure(fast);
  console.log(
    `  create payment, --no-fsync    ${fmt(rf)}   (${((100 * rf.rps) / bare.rps).toFixed(0)} % of the bare INSERT; without durable commit)`,
  );
  console.log(formatSplit(rf.cpu));
  await kill(fast.child, 'SIGTERM');

  // The default commit without the pipeline (one group in flight at a time on the writer connection: before issue 29).
  const serial = startSandbox(await cluster.createDatabase('serial'), [], { PAYGATE_PG_PIPELINE: '0' });
  live.push(serial);
  const rs = await measure(serial);
  console.log(
    `  create payment, not pipelined ${fmt(rs)}   (${((100 * rs.rps) / bare.rps).toFixed(0)} % of the bare INSERT; durable commit, one group in flight)`,
  );
  console.log(formatSplit(rs.cpu));
  await kill(serial.child, 'SIGTERM');

  // The default: durable commit (synchronous_commit on: each group's acknowledgement waits for the WAL flush, as
  // the bare INSERT's each row does; survives a crash of the database server too).
  const db = await cluster.createDatabase('sandbox');
  if (PREFILL > 0) {
    const pre = spawnSync(
      process.execPath,
      [fileURLToPath(new URL('./prefill.mjs', import.meta.url)), db, String(PREFILL)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (pre.status !== 0) throw new Error('prefill failed');
  }
  const active = startSandbox(db);
  live.push(active);
  const r = await measure(active);
  const pct = (100 * r.rps) / bare.rps;
  console.log(`  create payment (default)      ${fmt(r)}   (durable commit, pipelined group writes)`);
  console.log(formatSplit(r.cpu));
  console.log(
    `  create / bare insert          ${pct.toFixed(0)} % with durable commit, ${((100 * rf.rps) / bare.rps).toFixed(0)} % without   (goal >= 50 %, p99 <= 25 ms: ${pct >= 50 && r.p99 <= 25 ? 'met' : 'NOT met'})`,
  );
  // The same load on the file store, same run: what the sandbox itself costs on this machine.
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-file-'));
  try {
    const file = startSandbox(join(dir, 'sandbox.json'));
    live.push(file);
    const f = await measure(file);
    console.log(
      `  create payment, file store    ${fmt(f)}   (PostgreSQL: ${((100 * r.rps) / f.rps).toFixed(0)} % of it)`,
    );
    console.log(formatSplit(f.cpu));
    await kill(file.child, 'SIGTERM');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Failover: a standby waits; SIGKILL the active one; time until the standby's /readyz answers 204.
  let current = active;
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    const next = startSandbox(db);
    live.push(next);
    const url = await next.standby;
    // A standby keeps the state warm: give it the time a real one has had (its first read of the snapshot).
    await new Promise((res) => setTimeout(res, PREFILL > 0 ? 5000 : 1500));
    const killedAt = performance.now();
    await kill(current.child, 'SIGKILL');
    for (;;) {
      const res = await fetch(`${url}/readyz`).catch(() => undefined);
      await res?.text();
      if (res?.status === 204) break;
      if (performance.now() - killedAt > 30_000) throw new Error('the standby did not take over within 30 s');
      await new Promise((res2) => setTimeout(res2, 10));
    }
    times.push(performance.now() - killedAt);
    await next.ready;
    current = next;
  }
  times.sort((a, b) => a - b);
  if (times.length > 0)
    console.log(
      `  failover (SIGKILL -> standby /readyz 204, ${ROUNDS} rounds, ${PREFILL + r.requests} operations stored)   median ${times[Math.floor(times.length / 2)].toFixed(0)} ms   max ${times.at(-1).toFixed(0)} ms   (goal < 5000 ms)`,
    );
} finally {
  for (const p of live) await kill(p.child, 'SIGTERM');
  await cluster.stop();
}
