// npm run bench: how much sandbox controls delay gateway requests at 100,000 stored operations.
// A probe sends GET /v1/balances of shop B one at a time, first alone (baseline), then while four callers list
// shop A's operations with filters without pause and a pool layout of 10,000 payouts runs. The delay of a probe is
// its latency minus the baseline median; the ceiling is 50 ms. The same probes run first while the four callers list
// without a layout (the reference: what the listings alone cost), then with the layout, in the same sandbox, and the
// two are given side by side and as a ratio; the sandbox runs under test/bench/probe.cjs, which splits each phase's
// time into garbage collection (count, total, longest pause) and the event loop's longest turn.
// BENCH_NO_LAYOUT=1 leaves the layout out of the second phase too; BENCH_NODE_FLAGS gives the sandbox's node flags
// (e.g. --single-threaded-gc).
// First, the support listing itself (`paygate ops list`): GET /sandbox/operations with filters, one request
// at a time on one connection, 200 requests cycling through status, client_id, method + min_amount and since (each
// with varied values), p50 / p99 against the same 50 ms ceiling; then, apart, filters no index narrows (until, a rare
// max_amount) and the cross-shop listing with the admin token.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { probeChild } from './child.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY_A = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
const KEY_B = 'pg_test_b_3Fk8Zp1YdQ6sWe5J';
const KEY_POOL = 'pg_test_pool_9Ub4Rn2TgK7mXa1C';
const SIZE = Number(process.env.BENCH_CONTROL_SIZE ?? 100_000);
const PROBES = 400;
const CEILING_MS = 50;

const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-'));
const store = join(dir, 'sandbox.json');
const pre = spawnSync(process.execPath, [join(root, 'test/bench/prefill.mjs'), store, String(SIZE)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (pre.status !== 0) throw new Error('prefill failed');
// The admin token is given: a store that kept one from an earlier start prints only its last 4.
const ADMIN_TOKEN = 'pg_admin_bench_controls';
const probeFile = join(dir, 'probe.jsonl');
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const child = spawn(
  process.execPath,
  [
    ...nodeFlags,
    '--require',
    join(root, 'test/bench/probe.cjs'),
    join(root, 'bin/paygate.js'),
    'sandbox',
    'start',
    '--port',
    '0',
    '--store',
    store,
    '--json',
  ],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PAYGATE_ADMIN_TOKEN: ADMIN_TOKEN, PROBE_FILE: probeFile },
  },
);
const info = await new Promise((resolve, reject) => {
  createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});
const pool = new Pool(info.base_url, { connections: 8 });

async function call(method, path, key, body) {
  const res = await pool.request({
    method,
    path,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`${method} ${path} answered ${res.statusCode}`);
}

/** GET on one connection of its own; resolves to [latency ms, parsed body]. */
const single = new Pool(info.base_url, { connections: 1 });
async function timedGet(path, headers) {
  const t0 = performance.now();
  const res = await single.request({ method: 'GET', path, headers });
  const body = await res.body.json();
  const ms = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${JSON.stringify(body)}`);
  return [ms, body];
}

/** Latencies (sorted) of `n` listings, the i-th with the query `queryOf(i)`; `rows` counts the rows answered. */
async function listings(n, queryOf, headers = { 'x-api-key': KEY_A }) {
  const lat = [];
  let rows = 0;
  for (let i = 0; i < n; i++) {
    const [ms, body] = await timedGet(`/sandbox/operations?${queryOf(i)}`, headers);
    lat.push(ms);
    rows += body.operations.length;
  }
  return { lat: lat.sort((a, b) => a - b), rows };
}

async function probe(n) {
  const lat = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call('GET', '/v1/balances', KEY_B);
    lat.push(performance.now() - t0);
  }
  return lat.sort((a, b) => a - b);
}
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];

// The support listing alone. Prefilled payments are created in order, so the 50,000th newest tells a `since` that
// splits the store; clients are client-0 … client-996, amounts 100.00 … 5099.00.
const [, mid] = await timedGet(`/sandbox/operations?limit=1&offset=${Math.floor(SIZE / 2)}`, { 'x-api-key': KEY_A });
const midAt = mid.operations[0]?.created_at ?? new Date().toISOString();
const FILTERS = [
  () => 'status=pending&limit=50',
  (i) => `client_id=client-${(i * 37) % 997}&limit=50`,
  (i) => `method=WT_RUB_C2C&min_amount=${1000 + ((i * 97) % 4000)}.00&limit=50`,
  (i) => `since=${encodeURIComponent(new Date(Date.parse(midAt) + (i % 10)).toISOString())}&limit=50`,
];
const LIST_REQUESTS = 200;
await listings(40, (i) => FILTERS[i % FILTERS.length](i)); // warm-up
const filtered = await listings(LIST_REQUESTS, (i) => FILTERS[i % FILTERS.length](i));
const byKind = [];
for (const f of FILTERS) byKind.push(await listings(50, f));
const unindexed = {
  'until (half the store newer)': await listings(20, () => `until=${encodeURIComponent(midAt)}&limit=50`),
  'max_amount=100.00 (1 row in 5,000)': await listings(20, () => 'max_amount=100.00&limit=50'),
  'admin token, all shops, client_id': await listings(20, (i) => `client_id=client-${i}&limit=50`, {
    'x-admin-token': ADMIN_TOKEN,
  }),
};
await single.close();

await probe(50); // warm-up
const base = await probe(PROBES);

/** PROBES probes while four callers list without pause (and, with `layout`, a pool layout of 10,000 runs). */
async function underLoad(withLayout) {
  await probeChild(child, probeFile); // start the phase's GC and event-loop counts
  let running = true;
  const lists = (process.env.BENCH_LISTS ?? 'status=pending,type=payment,status=pending&type=payment&offset=50000,')
    .split(',')
    .map(async (filter) => {
      let n = 0;
      while (running) {
        await call('GET', `/sandbox/operations?limit=50&${filter}`, KEY_A);
        n++;
      }
      return n;
    });
  const t0 = performance.now();
  const layout = withLayout
    ? call('POST', '/sandbox/pool/layout', KEY_POOL, {
        method: 'WT_RUB_C2C',
        generate: { count: 10_000, min: '100.00', max: '1000.00', step: '10.00', seed: 7 },
      })
    : Promise.resolve();
  const lat = await probe(PROBES);
  await layout;
  const layoutMs = performance.now() - t0;
  running = false;
  const listed = (await Promise.all(lists)).reduce((a, b) => a + b, 0);
  const { gc, loop } = await probeChild(child, probeFile);
  return { lat, listed, gc, loop, layoutMs };
}
const reference = await underLoad(false);
const loadedRun = await underLoad(!process.env.BENCH_NO_LAYOUT);
const loaded = loadedRun.lat;
const listed = loadedRun.listed;
await pool.close();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dir, { recursive: true, force: true });

const LIST_CEILING_MS = 50;
const f50 = pct(filtered.lat, 0.5);
const f99 = pct(filtered.lat, 0.99);
console.log(
  `\nsupport listing at ${SIZE} stored operations: GET /sandbox/operations with filters, ${LIST_REQUESTS} requests one at a time (status, client_id, method+min_amount, since; varied values; ${filtered.rows} rows answered)`,
);
console.log(
  `  p50 ${f50.toFixed(2)} ms, p99 ${f99.toFixed(2)} ms, max ${filtered.lat.at(-1).toFixed(2)} ms = p99 ${(f99 / LIST_CEILING_MS).toFixed(3)} × the ${LIST_CEILING_MS} ms ceiling`,
);
['status', 'client_id', 'method+min_amount', 'since'].forEach((name, k) => {
  const l = byKind[k].lat;
  console.log(
    `    ${name.padEnd(18)} p50 ${pct(l, 0.5).toFixed(2)} ms, p99 ${pct(l, 0.99).toFixed(2)} ms (50 requests)`,
  );
});
for (const [name, r] of Object.entries(unindexed)) {
  console.log(`  ${name}: p50 ${pct(r.lat, 0.5).toFixed(2)} ms, max ${r.lat.at(-1).toFixed(2)} ms (20 requests)`);
}

const p50 = pct(base, 0.5);
const worst = loaded.at(-1) - p50;
const p99 = pct(loaded, 0.99) - p50;
console.log(
  `\ncontrols vs gateway at ${SIZE} stored operations: GET /v1/balances alone p50 ${p50.toFixed(2)} ms, p99 ${pct(base, 0.99).toFixed(2)} ms, max ${base.at(-1).toFixed(2)} ms`,
);
console.log(
  `  while 4 callers list operations (${listed} lists) and a pool layout of 10,000 runs: p50 ${pct(loaded, 0.5).toFixed(2)} ms, p99 ${pct(loaded, 0.99).toFixed(2)} ms, max ${loaded.at(-1).toFixed(2)} ms`,
);
const refWorst = reference.lat.at(-1) - p50;
const refP99 = pct(reference.lat, 0.99) - p50;
console.log(
  `  delay added to /v1: p99 ${p99.toFixed(2)} ms, worst ${worst.toFixed(2)} ms = ${(worst / CEILING_MS).toFixed(2)} × the ${CEILING_MS} ms ceiling`,
);
console.log(
  `  the same 4 callers listing (${reference.listed} lists) without a layout: p50 ${pct(reference.lat, 0.5).toFixed(2)} ms, delay p99 ${refP99.toFixed(2)} ms, worst ${refWorst.toFixed(2)} ms`,
);
console.log(
  `  with the layout ÷ without it: p99 delay ${(p99 / refP99).toFixed(2)}×, worst ${(worst / refWorst).toFixed(2)}×; the layout took ${(loadedRun.layoutMs / 1000).toFixed(1)} s`,
);
const gcLine = (r) =>
  `${r.gc.count} collections, ${r.gc.total_ms.toFixed(0)} ms in all, the longest ${r.gc.max_ms.toFixed(1)} ms (${Object.entries(
    r.gc.by_kind,
  )
    .map(([k, v]) => `${k} ${v.count}× ≤ ${v.max_ms.toFixed(1)} ms`)
    .join(
      ', ',
    )}); the event loop's longest turn ${r.loop.longest_turn_ms.toFixed(1)} ms (${r.loop.longest_turn_cpu_ms.toFixed(1)} ms of CPU in it; the most CPU in one turn ${r.loop.most_cpu_in_a_turn_ms.toFixed(1)} ms)`;
console.log(`  in the sandbox, without the layout: ${gcLine(reference)}`);
console.log(`  in the sandbox, with the layout:    ${gcLine(loadedRun)}`);
console.log(
  JSON.stringify({
    bench: 'controls',
    stored: SIZE,
    alone: { p50_ms: p50, p99_ms: pct(base, 0.99), max_ms: base.at(-1) },
    listing: { delay_p99_ms: refP99, delay_worst_ms: refWorst, gc: reference.gc, loop: reference.loop },
    listing_and_layout: {
      delay_p99_ms: p99,
      delay_worst_ms: worst,
      layout_ms: loadedRun.layoutMs,
      gc: loadedRun.gc,
      loop: loadedRun.loop,
    },
    ceiling_ms: CEILING_MS,
  }),
);
