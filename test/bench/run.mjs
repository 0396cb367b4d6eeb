// npm run bench: create-payment throughput and latency over HTTP (20 connections) with 1,000 and 100,000
// operations already in the file store, beside a bare h3 route and Stoplight Prism's stateless mock of the same
// route (test/bench/prism.mjs), measured the same way in the same run; the server's CPU time per request beside.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load } from './load.mjs';
import { ensurePrism, startPrism } from './prism.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/paygate.js');
const KEY = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
const DURATION = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONNECTIONS = 20;
const sizes = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number);

function startChild(args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (line) => resolve({ child, info: JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`child exited with ${code} before it was ready`)));
  });
}

async function stop(child) {
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await done;
}

function createRequest(tag) {
  return (i) => ({
    method: 'POST',
    path: '/v1/payment',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify({
      merchant_operation_id: `bench-${tag}-${process.pid}-${i}`,
      client_id: `client-${i % 1000}`,
      method: 'WT_RUB_C2C',
      amount: `${100 + (i % 9000)}.00`,
      currency: 'RUB',
    }),
  });
}

const cpuText = (r) => (r.cpuUsPerRequest === undefined ? '' : `   CPU ${r.cpuUsPerRequest.toFixed(0).padStart(4)} µs/req`);
const fmt = (r) =>
  `${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms${cpuText(r)}   (${r.requests} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`;

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
    body: JSON.stringify({ merchant_operation_id: `bench-start-${process.pid}`, client_id: 'c1', method: 'WT_RUB_C2C', amount: '100.00', currency: 'RUB' }),
  }).then((r) => r.json());
  const configDir = mkdtempSync(join(tmpdir(), 'paygate-bench-config-'));
  const env = { ...process.env, PAYGATE_CONFIG: join(configDir, 'config.json'), PAYGATE_BASE_URL: sb.info.base_url, PAYGATE_API_KEY: KEY, NO_COLOR: '1' };
  const t = timeCommands(
    { node: ['-e', '0'], help: [bin, '--help'], balances: [bin, 'balances', '--json'], state: [bin, 'state', created.operation_id] },
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
results.ceiling = await load({ url: ceiling.info.base_url, connections: CONNECTIONS, durationMs: DURATION, request: createRequest('ceiling'), pid: ceiling.child.pid });
await stop(ceiling.child);
console.log(`bare h3 route (ceiling)        ${fmt(results.ceiling)}`);

// Prism's mock of POST /v1/payment from paygate's own OpenAPI document: same load generator, body and connections.
if (!process.env.BENCH_SKIP_PRISM) {
  const prism = ensurePrism();
  if (prism.cli) {
    const p = await startPrism(prism.cli, join(root, 'docs/openapi.json'));
    results.prism = await load({ url: p.baseUrl, connections: CONNECTIONS, durationMs: DURATION, request: createRequest('prism'), pid: p.child.pid });
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
  const pre = spawnSync(process.execPath, [join(root, 'test/bench/prefill.mjs'), store, String(size)], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (pre.status !== 0) throw new Error('prefill failed');
  const prefillMs = performance.now() - t0;
  const t1 = performance.now();
  const sb = await startChild(process.env.BENCH_SERVE ? [process.env.BENCH_SERVE, store] : [bin, 'sandbox', 'start', '--port', '0', '--store', store, '--json']);
  const startMs = performance.now() - t1;
  const r = await load({ url: sb.info.base_url, connections: CONNECTIONS, durationMs: DURATION, request: createRequest(`s${size}`), pid: sb.child.pid });
  await stop(sb.child);
  rmSync(dir, { recursive: true, force: true });
  results[size] = { ...r, prefillMs, startMs };
  const vsPrism = results.prism ? `   ${(r.rps / results.prism.rps).toFixed(2)} × Prism` : '';
  console.log(`create payment, ${String(size).padStart(6)} stored ${fmt(r)}${vsPrism}   [start ${startMs.toFixed(0)} ms]`);
}

// Webhooks: the same create load with a webhook endpoint registered for every shop (a local receiver in its own
// process), then how fast the events reach it. On this 2-core machine one pair of runs moves by ±20 % from noise
// alone, so the comparison is made in BENCH_WEBHOOK_ROUNDS rounds (default 3), each a run without an endpoint
// directly followed by one with it, and the median of the per-round ratios is the figure.
async function createRun(tag, webhookUrl) {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-'));
  const store = join(dir, 'sandbox.json');
  const pre = spawnSync(process.execPath, [join(root, 'test/bench/prefill.mjs'), store, String(sizes[0])], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (pre.status !== 0) throw new Error('prefill failed');
  const sb = await startChild([bin, 'sandbox', 'start', '--port', '0', '--store', store, '--json', ...(webhookUrl ? ['--webhook-url', webhookUrl] : [])]);
  const t0 = Date.now();
  const r = await load({ url: sb.info.base_url, connections: CONNECTIONS, durationMs: DURATION, request: createRequest(tag) });
  return { r, t0, done: async () => { await stop(sb.child); rmSync(dir, { recursive: true, force: true }); } };
}
if (!process.env.BENCH_SKIP_WEBHOOKS) {
  const rounds = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 3);
  const ratios = [];
  const rates = [];
  let last;
  for (let round = 1; round <= rounds; round++) {
    const plain = await createRun(`plain${round}`);
    await plain.done();
    const receiver = await startChild([join(root, 'test/bench/receiver.mjs')]);
    const count = async () => (await (await fetch(`${receiver.info.base_url}/count`)).json());
    const before = (await count()).count;
    const hooked = await createRun(`hook${round}`, `${receiver.info.base_url}/hook`);
    const r = hooked.r;
    const sent = r.requests + Math.round(r.rps); // measured requests plus about one second of warm-up
    let c = await count();
    const duringLoad = c.count - before;
    for (let i = 0; i < 300 && c.count - before < sent; i++) {
      await new Promise((res) => setTimeout(res, 100));
      c = await count();
    }
    const delivered = c.count - before;
    const seconds = (c.last - hooked.t0) / 1000;
    await hooked.done();
    await stop(receiver.child);
    const ratio = r.rps / plain.r.rps;
    ratios.push(ratio);
    rates.push(delivered / seconds);
    last = { ...r, delivered, duringLoad, eventsPerSecond: delivered / seconds };
    console.log(`round ${round}: create ${plain.r.rps.toFixed(0)} req/s without an endpoint, ${r.rps.toFixed(0)} req/s with one (p99 ${r.p99.toFixed(2)} ms) = ${(ratio * 100).toFixed(1)} %; ${delivered} events delivered in ${seconds.toFixed(1)} s = ${(delivered / seconds).toFixed(0)} events/s (${duringLoad} while the load ran)`);
  }
  results.webhooks = { ...last, ratios, medianRatio: median(ratios), medianEventsPerSecond: median(rates) };
  console.log(`create throughput with a webhook endpoint: median ${(median(ratios) * 100).toFixed(1)} % of the figure without one over ${rounds} rounds (target ≥ 80 %); webhook events delivered: median ${median(rates).toFixed(0)} events/s`);
}

const small = results[sizes[0]];
const large = results[sizes[sizes.length - 1]];
if (small) {
  console.log(`\ncreate vs ceiling at ${sizes[0]}: ${((small.rps / results.ceiling.rps) * 100).toFixed(1)} %`);
  if (results.prism) console.log(`create vs Prism at ${sizes[0]}: ${(small.rps / results.prism.rps).toFixed(2)} ×   (target ≥ 4.5 ×)`);
  if (large && sizes.length > 1) console.log(`throughput at ${sizes.at(-1)} vs ${sizes[0]}: ${((large.rps / small.rps) * 100).toFixed(1)} %   (target ≥ 90 %)`);
  console.log(`targets: ≥ 8000 req/s and p99 ≤ 5 ms at ${sizes[0]}; p99 ≤ 8 ms at ${sizes.at(-1)}`);
}
