// npm run bench: how much sandbox controls delay gateway requests at 100,000 stored operations (issue 13, item 7).
// A probe sends GET /v1/balances of shop B one at a time, first alone (baseline), then while four callers list
// shop A's operations with filters without pause and a pool layout of 10,000 payouts runs. The delay of a probe is
// its latency minus the baseline median; the ceiling is 50 ms.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY_A = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
const KEY_B = 'pg_test_b_3Fk8Zp1YdQ6sWe5J';
const KEY_POOL = 'pg_test_pool_9Ub4Rn2TgK7mXa1C';
const SIZE = Number(process.env.BENCH_CONTROL_SIZE ?? 100_000);
const PROBES = 400;
const CEILING_MS = 50;

const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-'));
const store = join(dir, 'sandbox.json');
const pre = spawnSync(process.execPath, [join(root, 'test/bench/prefill.mjs'), store, String(SIZE)], { stdio: ['ignore', 'pipe', 'inherit'] });
if (pre.status !== 0) throw new Error('prefill failed');
const child = spawn(process.execPath, [join(root, 'bin/paygate.js'), 'sandbox', 'start', '--port', '0', '--store', store, '--json'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise((resolve, reject) => {
  createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});
const pool = new Pool(info.base_url, { connections: 8 });

async function call(method, path, key, body) {
  const res = await pool.request({ method, path, headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`${method} ${path} answered ${res.statusCode}`);
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

await probe(50); // warm-up
const base = await probe(PROBES);
let running = true;
const lists = (process.env.BENCH_LISTS ?? 'status=pending,type=payment,status=pending&type=payment&offset=50000,').split(',').map(async (filter) => {
  let n = 0;
  while (running) {
    await call('GET', `/sandbox/operations?limit=50&${filter}`, KEY_A);
    n++;
  }
  return n;
});
const layout = process.env.BENCH_NO_LAYOUT ? Promise.resolve() : call('POST', '/sandbox/pool/layout', KEY_POOL, { method: 'WT_RUB_C2C', generate: { count: 10_000, min: '100.00', max: '1000.00', step: '10.00', seed: 7 } });
const loaded = await probe(PROBES);
await layout;
running = false;
const listed = (await Promise.all(lists)).reduce((a, b) => a + b, 0);
await pool.close();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
rmSync(dir, { recursive: true, force: true });

const p50 = pct(base, 0.5);
const worst = loaded.at(-1) - p50;
const p99 = pct(loaded, 0.99) - p50;
console.log(`\ncontrols vs gateway at ${SIZE} stored operations: GET /v1/balances alone p50 ${p50.toFixed(2)} ms, p99 ${pct(base, 0.99).toFixed(2)} ms, max ${base.at(-1).toFixed(2)} ms`);
console.log(`  while 4 callers list operations (${listed} lists) and a pool layout of 10,000 runs: p50 ${pct(loaded, 0.5).toFixed(2)} ms, p99 ${pct(loaded, 0.99).toFixed(2)} ms, max ${loaded.at(-1).toFixed(2)} ms`);
console.log(`  delay added to /v1: p99 ${p99.toFixed(2)} ms, worst ${worst.toFixed(2)} ms = ${(worst / CEILING_MS).toFixed(2)} × the ${CEILING_MS} ms ceiling`);
