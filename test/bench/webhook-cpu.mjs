// npm run bench (after run.mjs): what webhook delivery costs the sandbox in CPU. The sandbox runs as a child process
// (`paygate sandbox start`, file store with 1,000 stored operations); the bench offers creates at a FIXED rate
// (open loop: a timer issues each request at its scheduled time over keep-alive connections, whatever the answers
// do), so a run with a webhook endpoint does the same API work as one without. The figure is the child's CPU
// (utime + stime of /proc/<pid>/stat, which sums all its threads: the event loop, GC, the delivery worker) over the
// measured window, per create, with an endpoint divided by without. Rounds interleave the two kinds of run (the
// order alternates) and the median of the per-round ratios is the figure: on a shared 2-core machine single runs
// move by ±20 % from noise alone.
//
// The CPU window is the load window only (after a 1 s warm-up). Deliveries are then drained: the round waits until
// the receiver (its own process, test/bench/receiver.mjs) has seen one distinct webhook-id per successful create
// (each create makes exactly one event, operation.pending) — the drain's own time and CPU are printed apart, so a
// run that defers delivery past the window shows it there instead of looking cheap.
//
// Each round also splits the CPU per create by thread (/proc/<pid>/task/*/stat): `main` (the event loop), `worker`
// (the delivery worker thread, the one at nice 19) and `other` (V8's GC helper threads and libuv's pool).
//
// Env: BENCH_WEBHOOK_ROUNDS (default 3), BENCH_WEBHOOK_RATE (creates/s, default 1500), BENCH_DURATION_MS (default
// 5000), BENCH_WEBHOOK_NODE_ARGS (node flags for the sandbox child, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": every
// thread writes its profile on exit), BENCH_SKIP_WEBHOOKS=1 skips it. Exits non-zero only on a broken run (errors, non-2xx, undelivered events),
// never on missing the goal (≤ 1.25 ×).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startChild, stop } from './child.mjs';

if (process.env.BENCH_SKIP_WEBHOOKS) process.exit(0);

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/paygate.js');
const KEY = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 1500);
const WARMUP_MS = 1000;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 3);
const STORED = 1000;
const NODE_ARGS = (process.env.BENCH_WEBHOOK_NODE_ARGS ?? '').split(' ').filter(Boolean);
const DRAIN_LIMIT_MS = 60_000;
const TICK_HZ = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds the process has used so far, all threads (utime + stime, fields 14 and 15 of /proc/<pid>/stat). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICK_HZ;
}

/**
 * The same per thread group: `main` (the event loop: the thread whose id is the pid), `worker` (the delivery
 * worker: the one thread at nice 19, field 19) and `other` (V8's GC helpers, libuv's pool: the journal's writes).
 */
function threadSeconds(pid) {
  const out = { main: 0, worker: 0, other: 0 };
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const s = (Number(f[11]) + Number(f[12])) / TICK_HZ;
    out[Number(tid) === pid ? 'main' : Number(f[16]) === 19 ? 'worker' : 'other'] += s;
  }
  return out;
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates at RATE per second for WARMUP_MS + DURATION_MS, each sent at its scheduled time. Latency counts from the
 * scheduled time (a request held up by a stalled server is counted late, not skipped). Returns the window's CPU.
 */
async function drive(url, pid, tag) {
  const pool = new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 60_000 });
  const interval = 1000 / RATE;
  const total = Math.round(((WARMUP_MS + DURATION_MS) / 1000) * RATE);
  const first = Math.round((WARMUP_MS / 1000) * RATE);
  const lat = [];
  let ok = 0;
  let failed = 0;
  let pending = 0;
  let issued = 0;
  let allDone;
  const finished = new Promise((r) => (allDone = r));
  const send = (i, at) => {
    pending++;
    pool
      .request({
        method: 'POST',
        path: '/v1/payment',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: `{"merchant_operation_id":"wh-${tag}-${process.pid}-${i}","client_id":"client-${i % 1000}","method":"WT_RUB_C2C","amount":"${100 + (i % 9000)}.00","currency":"RUB"}`,
      })
      .then(
        async (res) => {
          await res.body.dump();
          if (res.statusCode >= 200 && res.statusCode < 300) ok++;
          else failed++;
        },
        () => failed++,
      )
      .finally(() => {
        if (i >= first) lat.push(performance.now() - at);
        if (--pending === 0 && issued === total) allDone();
      });
  };
  const t0 = performance.now();
  const cpu = {};
  setTimeout(() => {
    cpu.start = cpuSeconds(pid);
    cpu.threadsStart = threadSeconds(pid);
  }, WARMUP_MS);
  const windowEnd = new Promise((r) =>
    setTimeout(() => {
      cpu.threadsEnd = threadSeconds(pid);
      r((cpu.end = cpuSeconds(pid)));
    }, WARMUP_MS + DURATION_MS),
  );
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - t0) / interval) + 1);
      while (issued < due) send(issued, t0 + issued++ * interval);
      if (issued < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await windowEnd;
  if (pending > 0) await finished;
  await pool.close();
  lat.sort((a, b) => a - b);
  const measured = total - first;
  const perThread = Object.fromEntries(
    Object.keys(cpu.threadsEnd).map((k) => [k, ((cpu.threadsEnd[k] - cpu.threadsStart[k]) * 1e6) / measured]),
  );
  return {
    ok,
    failed,
    measured,
    perThread,
    usPerCreate: ((cpu.end - cpu.start) * 1e6) / measured,
    p50: lat[Math.floor(lat.length * 0.5)],
    p99: lat[Math.floor(lat.length * 0.99)],
    endedAt: performance.now(),
  };
}

async function run(kind, round, receiverUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-hooks-'));
  const store = join(dir, 'sandbox.json');
  try {
    const pre = spawnSync(process.execPath, [join(root, 'test/bench/prefill.mjs'), store, String(STORED)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (pre.status !== 0) throw new Error('prefill failed');
    const hook = receiverUrl ? ['--webhook-url', `${receiverUrl}/hook`] : [];
    const sb = await startChild([
      ...NODE_ARGS,
      bin,
      'sandbox',
      'start',
      '--port',
      '0',
      '--store',
      store,
      '--json',
      ...hook,
    ]);
    try {
      const count = async () => (receiverUrl ? await (await fetch(`${receiverUrl}/count`)).json() : undefined);
      const before = await count();
      const r = await drive(sb.info.base_url, sb.child.pid, `${kind}${round}`);
      if (!receiverUrl) return r;
      // The drain: from the end of the load until the receiver has seen every event once (distinct webhook-ids).
      const atLoadEnd = (await count()).distinct - before.distinct;
      const cpu0 = cpuSeconds(sb.child.pid);
      const t0 = performance.now();
      let c = await count();
      while (c.distinct - before.distinct < r.ok && performance.now() - t0 < DRAIN_LIMIT_MS) {
        await sleep(20);
        c = await count();
      }
      return {
        ...r,
        delivered: c.distinct - before.distinct,
        posts: c.count - before.count,
        atLoadEnd,
        drainMs: performance.now() - t0,
        drainCpuMs: (cpuSeconds(sb.child.pid) - cpu0) * 1000,
      };
    } finally {
      await stop(sb.child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `webhook delivery CPU: ${RATE} creates/s offered for ${DURATION_MS / 1000} s (after ${WARMUP_MS / 1000} s warm-up), ${STORED} stored, ${ROUNDS} rounds`,
);
const receiver = await startChild([join(root, 'test/bench/receiver.mjs')]);
const ratios = [];
let broken = false;
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? ['plain', 'hooked'] : ['hooked', 'plain'];
    const res = {};
    for (const kind of order)
      res[kind] = await run(kind, round, kind === 'hooked' ? receiver.info.base_url : undefined);
    const { plain, hooked } = res;
    const ratio = hooked.usPerCreate / plain.usPerCreate;
    ratios.push(ratio);
    for (const r of [plain, hooked])
      if (r.failed > 0 || r.ok !== r.measured + Math.round((WARMUP_MS / 1000) * RATE)) broken = true;
    if (hooked.delivered !== hooked.ok) broken = true;
    console.log(
      `round ${round}: without ${plain.usPerCreate.toFixed(0)} µs/create (p99 ${plain.p99.toFixed(2)} ms), with ${hooked.usPerCreate.toFixed(0)} µs/create (p99 ${hooked.p99.toFixed(2)} ms) = ${ratio.toFixed(2)} ×; ` +
        `${hooked.delivered}/${hooked.ok} events delivered (${hooked.posts} POSTs; ${hooked.atLoadEnd} by the end of the load, the rest in ${hooked.drainMs.toFixed(0)} ms using ${hooked.drainCpuMs.toFixed(0)} ms CPU)` +
        (plain.failed + hooked.failed > 0 ? `; ${plain.failed + hooked.failed} creates FAILED` : ''),
    );
    const threads = (r) =>
      Object.entries(r.perThread)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ');
    console.log(`  µs/create by thread: without ${threads(plain)}; with ${threads(hooked)}`);
  }
} finally {
  await stop(receiver.child);
}
console.log(
  `webhook CPU per create, with an endpoint / without: median ${median(ratios).toFixed(2)} × over ${ROUNDS} rounds (rounds ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} ×; goal ≤ 1.25 ×)`,
);
if (broken) {
  console.error('broken run: a create failed or an event was not delivered (see above)');
  process.exit(1);
}
