// npm run bench: create-payment throughput and latency over HTTP (20 connections) with 1,000 and 100,000
// operations already in the file store, beside a bare h3 route and Stoplight Prism's stateless mock of the same
// route (test/bench/prism.mjs), measured the same way in the same run; the server's CPU time per request beside.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { KEY_A, createPayment, load } from './load.mjs';
import { ensurePrism, startPrism } from './prism.mjs';
import { SANDBOX_NODE_FLAGS, probeChild, startChild, stop } from './child.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/paygate.js');
const KEY = KEY_A;
const DURATION = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONNECTIONS = 20;
const sizes = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);

// The sandbox under load runs with the node flags `npm start` gives it (SANDBOX_NODE_FLAGS, child.mjs);
// BENCH_NODE_FLAGS replaces them (e.g. BENCH_NODE_FLAGS= for none, or --single-threaded-gc); BENCH_CPU_PROF=<dir>: a CPU
// profile of it (--cpu-prof) written there. The sandbox runs under test/bench/probe.cjs: each create run is followed
// by where its time went in the sandbox over the measured window (garbage collections by kind, the event loop's
// longest turn and the turns over 5 ms, and the store's group writes: transactions per group, write + fdatasync),
// and by which requests a collection delayed (the tail: how much of it is garbage collection).
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? SANDBOX_NODE_FLAGS.join(' ')).split(' ').filter(Boolean);

const createRequest = (tag) => createPayment(`bench-${tag}-${process.pid}`);

const cpuText = (r) =>
  r.cpuUsPerRequest === undefined ? '' : `   CPU ${r.cpuUsPerRequest.toFixed(0).padStart(4)} µs/req`;
const fmt = (r) =>
  `${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms${cpuText(r)}   (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`;

const ms = (x) => `${x.toFixed(1)} ms`;
/** One line from the probe's counts: garbage collection, event-loop turns, memory at the end, group writes. */
function probeLine({ gc, loop, groups, memory }) {
  const kinds = Object.entries(gc.by_kind)
    .map(([k, v]) => `${k} ${v.count}× ${ms(v.total_ms)}, p50 ${ms(v.p50_ms)} ≤ ${ms(v.max_ms)}`)
    .join(', ');
  const turns = `longest turn ${ms(loop.longest_turn_ms)} (CPU ${ms(loop.longest_turn_cpu_ms)}), ${loop.turns_over_5ms} turns > 5 ms`;
  const spread = (k) =>
    `p50 ${ms(groups[`${k}_p50_ms`])} p99 ${ms(groups[`${k}_p99_ms`])} max ${ms(groups[`${k}_max_ms`])}`;
  const g = groups
    ? `\n  ${groups.count} group writes: ${groups.transactions_p50}/${groups.transactions_p99}/${groups.transactions_max} transactions (p50/p99/max); waited ${spread('waited')}; on the event loop ${spread('encode')}; written ${spread('written')}` +
      (groups.sync_p50_ms === undefined
        ? ''
        : groups.fsync
          ? ` (write ${spread('write')}, fdatasync ${spread('sync')})`
          : ` (a synchronous write, no fdatasync: ${spread('write')})`)
    : '';
  const young = memory.spaces.new_space?.committed_mb;
  const mem = `RSS ${memory.rss_mb.toFixed(0)} MB (young generation ${young?.toFixed(0)} MB)`;
  return `GC ${gc.count}× ${ms(gc.total_ms)} (${kinds}); ${turns}; ${mem}${g}`;
}

/**
 * Which requests a garbage collection delayed: each request ([start, latency], ms since the epoch) that overlapped a
 * pause of the sandbox ([start, ms, kind] from the probe; the two clocks are the same wall clock). The share of
 * requests under a scavenge and under another collection, the share of the slowest 1 % under any, and the p99 of the
 * requests under none.
 */
function tailLine(samples, pauses) {
  const hit = (s, kinds) => pauses.some(([a, d, k]) => kinds(k) && a < s[0] + s[1] && a + d > s[0]);
  const minor = (k) => k === 'minor';
  const other = (k) => k !== 'minor';
  const pct = (n) => `${((n / samples.length) * 100).toFixed(1)} %`;
  const byLat = samples.slice().sort((a, b) => a[1] - b[1]);
  const slowest = byLat.slice(Math.floor(0.99 * byLat.length));
  const clear = byLat.filter((s) => !hit(s, () => true));
  const p99Clear = clear[Math.min(clear.length - 1, Math.floor(0.99 * clear.length))]?.[1] ?? NaN;
  const slowHit = slowest.filter((s) => hit(s, () => true)).length;
  return (
    `the tail: ${pct(samples.filter((s) => hit(s, minor)).length)} of the requests overlapped a scavenge, ` +
    `${pct(samples.filter((s) => hit(s, other)).length)} another collection; of the slowest 1 %, ` +
    `${((slowHit / Math.max(1, slowest.length)) * 100).toFixed(0)} % overlapped one; p99 of the requests that overlapped none ${ms(p99Clear)}`
  );
}

/**
 * The load generator's collections (`own`, in this process) against the requests: the share that overlapped one, and
 * the p99 of the requests that overlapped no collection in either process.
 */
function clientLine(samples, pauses, own) {
  const hit = (s, list) => list.some(([a, d]) => a < s[0] + s[1] && a + d > s[0]);
  const clear = samples.filter((s) => !hit(s, pauses) && !hit(s, own)).map((s) => s[1]);
  clear.sort((a, b) => a - b);
  const share = samples.filter((s) => hit(s, own)).length / samples.length;
  return (
    `the load generator: ${own.length} collections, ${(share * 100).toFixed(1)} % of the requests overlapped one; ` +
    `p99 of the requests that overlapped none in either process ${ms(clear[Math.floor(0.99 * clear.length)] ?? NaN)}`
  );
}

/**
 * What the event loop's turns over 5 ms held ([start, length, CPU] from the probe): how many overlapped a collection,
 * and the rest (no collection in them: the sandbox's own work, or waiting for a core when its CPU is far below).
 */
function turnsLine(turns = [], pauses) {
  const inside = (t) =>
    pauses.reduce((a, [s, d]) => a + Math.max(0, Math.min(s + d, t[0] + t[1]) - Math.max(s, t[0])), 0);
  const plain = turns.filter((t) => inside(t) < 1);
  const list = (ts) => ts.map((t) => `${t[1].toFixed(1)}/${t[2].toFixed(1)}`).join(' ');
  return (
    `turns > 5 ms: ${turns.length - plain.length} held a collection (${list(turns.filter((t) => inside(t) >= 1))}); ` +
    `${plain.length} held none (${list(plain)}) [ms of the turn / CPU ms]`
  );
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The median wall time of each command (a node argv) over `runs` runs, interleaved so machine load hits all alike. */
function timeCommands(cases, env, runs = 15) {
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, args, { cwd: root, env, stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}`);
      times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, t]) => [k, median(t)]));
}

// Start-up, in one run: `--help`, and API commands end to end (start, one request to a sandbox, print, exit),
// each against `node -e 0`. BENCH_SKIP_STARTUP=1 skips them.
if (!process.env.BENCH_SKIP_STARTUP) {
  const sb = await startChild([bin, 'sandbox', 'start', '--port', '0', '--in-memory', '--json']);
  const created = await fetch(`${sb.info.base_url}/v1/payment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify({
      merchant_operation_id: `bench-start-${process.pid}`,
      client_id: 'c1',
      method: 'WT_RUB_C2C',
      amount: '100.00',
      currency: 'RUB',
    }),
  }).then((r) => r.json());
  const configDir = mkdtempSync(join(tmpdir(), 'paygate-bench-config-'));
  const env = {
    ...process.env,
    PAYGATE_CONFIG: join(configDir, 'config.json'),
    PAYGATE_BASE_URL: sb.info.base_url,
    PAYGATE_API_KEY: KEY,
    NO_COLOR: '1',
  };
  const t = timeCommands(
    {
      node: ['-e', '0'],
      help: [bin, '--help'],
      balances: [bin, 'balances', '--json'],
      state: [bin, 'state', created.operation_id],
    },
    env,
  );
  await stop(sb.child);
  rmSync(configDir, { recursive: true, force: true });
  const ratio = (ms) => `${ms.toFixed(1)} ms = ${(ms / t.node).toFixed(2)} ×`;
  console.log(`start-up (median of 15): node -e 0 ${t.node.toFixed(1)} ms`);
  console.log(`  paygate --help                ${ratio(t.help)} (target ≤ 1.5 ×)`);
  console.log(`  paygate balances --json       ${ratio(t.balances)} (target ≤ 2 ×, against a running sandbox)`);
  console.log(`  paygate state <operation_id>  ${ratio(t.state)} (target ≤ 2 ×)\n`);
}
if (process.env.BENCH_STARTUP_ONLY) process.exit(0);

const results = {};
const ceiling = await startChild([join(root, 'test/bench/ceiling-server.mjs')]);
results.ceiling = await load({
  url: ceiling.info.base_url,
  connections: CONNECTIONS,
  durationMs: DURATION,
  request: createRequest('ceiling'),
  pid: ceiling.child.pid,
});
await stop(ceiling.child);
console.log(`bare h3 route (ceiling)        ${fmt(results.ceiling)}`);

// Prism's mock of POST /v1/payment from paygate's own OpenAPI document: same load generator, body and connections.
if (!process.env.BENCH_SKIP_PRISM) {
  const prism = ensurePrism();
  if (prism.cli) {
    const p = await startPrism(prism.cli, join(root, 'docs/openapi.json'));
    results.prism = await load({
      url: p.baseUrl,
      connections: CONNECTIONS,
      durationMs: DURATION,
      request: createRequest('prism'),
      pid: p.child.pid,
    });
    await stop(p.child);
    console.log(`Prism mock (stateless)         ${fmt(results.prism)}`);
  } else {
    console.log(`Prism mock: skipped (${prism.why})`);
  }
}

for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-'));
  const store = join(dir, 'sandbox.json');
  const t0 = performance.now();
  const pre = spawnSync(process.execPath, [join(root, 'test/bench/prefill.mjs'), store, String(size)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (pre.status !== 0) throw new Error('prefill failed');
  const prefillMs = performance.now() - t0;
  const t1 = performance.now();
  const probeFile = join(dir, 'probe.jsonl');
  const sb = await startChild(
    [
      ...nodeFlags,
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      '--require',
      join(root, 'test/bench/probe.cjs'),
      ...(process.env.BENCH_SERVE
        ? [process.env.BENCH_SERVE, store]
        : [bin, 'sandbox', 'start', '--port', '0', '--store', store, '--json']),
    ],
    { PROBE_FILE: probeFile, PROBE_PAUSES: '1' },
  );
  const startMs = performance.now() - t1;
  // The probe's counts over the measured window: signalled as it opens and as it closes.
  let opened;
  let closed;
  // The load generator's own collections (this process): they delay the answers it times as much as the sandbox's.
  const ownPauses = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) ownPauses.push([performance.timeOrigin + e.startTime, e.duration, 'client']);
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const r = await load({
    url: sb.info.base_url,
    connections: CONNECTIONS,
    durationMs: DURATION,
    request: createRequest(`s${size}`),
    pid: sb.child.pid,
    record: true,
    onMeasure: (on) => {
      if (on) opened = probeChild(sb.child, probeFile);
      else closed = opened.then(() => probeChild(sb.child, probeFile));
    },
  });
  const probe = await closed;
  gcObserver.disconnect();
  await stop(sb.child);
  rmSync(dir, { recursive: true, force: true });
  const { samples, ...figures } = r;
  const { pauses, ...gc } = probe.gc;
  results[size] = { ...figures, prefillMs, startMs, gc, loop: probe.loop, groups: probe.groups };
  const vsPrism = results.prism ? `   ${(r.rps / results.prism.rps).toFixed(2)} × Prism` : '';
  console.log(
    `create payment, ${String(size).padStart(6)} stored ${fmt(r)}${vsPrism}   [start ${startMs.toFixed(0)} ms]`,
  );
  console.log(`  in the sandbox: ${probeLine(probe)}`);
  console.log(`  ${tailLine(samples, pauses)}`);
  console.log(`  ${turnsLine(probe.loop.long_turns, pauses)}`);
  console.log(`  ${clientLine(samples, pauses, ownPauses)}`);
  if (process.env.BENCH_PROBE_OUT)
    writeFileSync(process.env.BENCH_PROBE_OUT, JSON.stringify({ ...probe, samples, own: ownPauses }));
}

// Webhooks: test/bench/webhook-cpu.mjs (next in `npm run bench`) measures what delivery costs the sandbox, in CPU per
// create at a fixed offered rate.

const small = results[sizes[0]];
const large = results[sizes[sizes.length - 1]];
if (small) {
  console.log(`\ncreate vs ceiling at ${sizes[0]}: ${((small.rps / results.ceiling.rps) * 100).toFixed(1)} %`);
  if (results.prism)
    console.log(`create vs Prism at ${sizes[0]}: ${(small.rps / results.prism.rps).toFixed(2)} ×   (target ≥ 4.5 ×)`);
  if (large && sizes.length > 1)
    console.log(
      `throughput at ${sizes.at(-1)} vs ${sizes[0]}: ${((large.rps / small.rps) * 100).toFixed(1)} %   (target ≥ 90 %)`,
    );
  console.log(`targets: ≥ 8000 req/s and p99 ≤ 5 ms at ${sizes[0]}; p99 ≤ 8 ms at ${sizes.at(-1)}`);
}
