// npm run bench: what `paygate proxy` adds to an exchange (issue 27 §1: at most 1 ms p50). A sandbox runs as the
// upstream (`paygate sandbox start --in-memory`) and a proxy in front of it (`paygate proxy --upstream …`), each its
// own process as in use. The same mix — one payment create, then three state reads of it — is sent at a fixed rate,
// alternating blocks straight to the sandbox and through the proxy (so both see the same machine load), one request
// at a time on keep-alive connections. Prints p50 / p99 of each, their difference, and the proxy process's CPU time
// per request (from /proc, Linux). BENCH_PROXY_REQUESTS (default 2000 per side) and BENCH_PROXY_RATE (requests per
// second, default 200) change the run.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = `${root}bin/paygate.js`;
const KEY = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
const REQUESTS = Number(process.env.BENCH_PROXY_REQUESTS ?? 2000);
const RATE = Number(process.env.BENCH_PROXY_RATE ?? 200);
const BLOCK = 200;
const CEILING_MS = 1;

/** A child started with `args`, and its first stdout line parsed as JSON. */
async function start(args) {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) };
}

/** CPU time (user + system) of a process so far, in ms (Linux /proc; undefined elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const sandbox = await start(['sandbox', 'start', '--port', '0', '--in-memory', '--json']);
const proxy = await start(['proxy', '--upstream', sandbox.info.base_url, '--port', '0', '--json']);
const pools = {
  direct: new Pool(sandbox.info.base_url, { connections: 4 }),
  proxy: new Pool(proxy.info.base_url, { connections: 4 }),
};
const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
let orders = 0;
let current;

/** One request of the mix: every fourth a create, the others read the last one created. */
async function one(pool, i) {
  const create = i % 4 === 0 || !current;
  const body = create
    ? {
        merchant_operation_id: `bench-${process.pid}-${++orders}`,
        client_id: 'bench',
        method: 'WT_RUB_C2C',
        amount: '1500.00',
        currency: 'RUB',
      }
    : { operation_id: current };
  const started = performance.now();
  const res = await pool.request({
    method: 'POST',
    path: create ? '/v1/payment' : '/v1/get_operation_state',
    headers,
    body: JSON.stringify(body),
  });
  const answer = await res.body.json();
  const ms = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${JSON.stringify(answer)}`);
  if (create) current = answer.operation_id;
  return ms;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const latencies = { direct: [], proxy: [] };
let proxyCpu = 0;
// Warm-up: JIT and connections on both paths.
for (let i = 0; i < 200; i++) {
  await one(pools.direct, i);
  await one(pools.proxy, i);
}
const interval = 1000 / RATE;
for (let done = 0; done < REQUESTS; done += BLOCK) {
  for (const side of ['direct', 'proxy']) {
    current = undefined;
    const cpuBefore = side === 'proxy' ? cpuMs(proxy.child.pid) : undefined;
    const t0 = performance.now();
    for (let i = 0; i < BLOCK; i++) {
      latencies[side].push(await one(pools[side], i));
      const wait = t0 + (i + 1) * interval - performance.now();
      if (wait > 0) await sleep(wait);
    }
    if (cpuBefore !== undefined) proxyCpu += cpuMs(proxy.child.pid) - cpuBefore;
  }
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const f = (ms) => `${ms.toFixed(3)} ms`;
const d = { p50: pct(latencies.direct, 50), p99: pct(latencies.direct, 99) };
const p = { p50: pct(latencies.proxy, 50), p99: pct(latencies.proxy, 99) };
console.log(`proxy overhead: ${REQUESTS} requests each way at ${RATE}/s (1 create : 3 state reads), one at a time`);
console.log(`  direct to the sandbox   p50 ${f(d.p50)}  p99 ${f(d.p99)}`);
console.log(`  through paygate proxy   p50 ${f(p.p50)}  p99 ${f(p.p99)}`);
console.log(
  `  added by the proxy      p50 ${f(p.p50 - d.p50)}  p99 ${f(p.p99 - d.p99)}  (ceiling ${CEILING_MS} ms p50)`,
);
if (cpuMs(proxy.child.pid) !== undefined)
  console.log(`  proxy CPU per request   ${((proxyCpu / REQUESTS) * 1000).toFixed(0)} µs (user + system, /proc)`);
await pools.direct.close();
await pools.proxy.close();
for (const c of [proxy.child, sandbox.child]) {
  c.kill('SIGTERM');
  await new Promise((r) => c.once('exit', r));
}
if (p.p50 - d.p50 > CEILING_MS) {
  console.error(`the proxy adds ${f(p.p50 - d.p50)} at p50, over the ${CEILING_MS} ms ceiling`);
  process.exitCode = 1;
}
