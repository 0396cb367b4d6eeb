// npm run bench (after run.mjs): the pool's advisory reads with 10,000 payouts in the pool (issue #5) — availability
// (a wide and a narrow range) and recommendations, sequentially over one keep-alive connection to `paygate sandbox
// start` (file store, default fsync) in another process, beside GET /livez on the same connection (the ceiling: no
// work) in the same run, and the in-process compute time of one evaluation (service call, no HTTP). The spec allows
// one active read per replica (a concurrent read gets 503), hence sequential. The per-shop rate limit (5 rps) is
// switched off for the measurement. BENCH_POOL_REQUESTS (default 2000) sets the measured requests per kind;
// BENCH_SKIP_POOL=1 skips it all. Ends with one JSON line of every figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from 'undici';
import { startChild, stop } from './child.mjs';

if (process.env.BENCH_SKIP_POOL) {
  console.log('pool benchmark skipped (BENCH_SKIP_POOL)');
  process.exit(0);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/paygate.js');
const KEY = 'pg_test_pool_9Ub4Rn2TgK7mXa1C';
const ADMIN = 'pg_admin_bench_pool';
const REQUESTS = Number(process.env.BENCH_POOL_REQUESTS ?? 2000);
const WARMUP = Math.min(200, Math.max(20, Math.floor(REQUESTS / 10)));
const TARGET_P99_MS = 50;
const METHOD = 'WT_RUB_C2C';
const LAYOUT = { method: METHOD, generate: { count: 10_000, min: '100.00', max: '100000.00', step: '10.00', seed: 7 } };
// 10,000 payouts of up to 100,000.00 reserve about 505 million RUB with fees: the default fixtures' pool shop opens
// with 1,000,000,000.00 RUB for layouts of this size.

// The requests, deterministic per index. Recommendation amounts spread over 100.00–100,000.00 (a stride coprime
// to the span, with varying cents).
const qs = (o) => new URLSearchParams(o).toString();
const wide = { method: METHOD, currency: 'RUB', min_amount: '100.00', max_amount: '100000.00' };
const narrow = { method: METHOD, currency: 'RUB', min_amount: '25000.00', max_amount: '26000.00' };
const recAmount = (i) => `${100 + ((i * 7919) % 99_900)}.${String((i * 37) % 100).padStart(2, '0')}`;
const recBody = (i) => ({
  method: METHOD,
  currency: 'RUB',
  amount: recAmount(i),
  min_amount: '100.00',
  max_amount: '100000.00',
  limit: 10,
});
const headers = { 'x-api-key': KEY };
const kinds = {
  livez: () => ({ method: 'GET', path: '/livez' }),
  availability_wide: () => ({ method: 'GET', path: `/v1/payment/availability?${qs(wide)}`, headers }),
  availability_narrow: () => ({ method: 'GET', path: `/v1/payment/availability?${qs(narrow)}`, headers }),
  recommendations: (i) => ({
    method: 'POST',
    path: '/v1/payment/recommendations',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(recBody(i)),
  }),
};

async function call(client, req) {
  const res = await client.request(req);
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${req.method} ${req.path} → ${res.statusCode} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

function stats(lat, elapsedMs) {
  const s = lat.slice().sort((a, b) => a - b);
  const pct = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
  return { requests: s.length, rps: s.length / (elapsedMs / 1000), p50: pct(50), p99: pct(99), max: s.at(-1) ?? NaN };
}

/** N sequential requests on one connection after a warm-up; the last response is returned for a sanity look. */
async function measure(client, make) {
  for (let i = 0; i < WARMUP; i++) await call(client, make(REQUESTS + i));
  const lat = [];
  let last;
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const req = make(i);
    const t = process.hrtime.bigint();
    last = await call(client, req);
    lat.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return { ...stats(lat, performance.now() - t0), last };
}

const results = { requests: REQUESTS, warmup: WARMUP, target_p99_ms: TARGET_P99_MS, rate_limit: false };

// 1. Over HTTP, against `paygate sandbox start` in its own process.
const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-pool-'));
const store = join(dir, 'sandbox.json');
const sb = await startChild([bin, 'sandbox', 'start', '--port', '0', '--store', store, '--json'], {
  PAYGATE_ADMIN_TOKEN: ADMIN,
});
const client = new Client(sb.info.base_url, { pipelining: 1, keepAliveTimeout: 60_000 });
try {
  const t0 = performance.now();
  const layout = await call(client, {
    method: 'POST',
    path: '/sandbox/pool/layout',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(LAYOUT),
  });
  results.layout = { ms: performance.now() - t0, created: layout.created, rejected: layout.rejected };
  if (layout.created !== LAYOUT.generate.count)
    throw new Error(
      `layout created ${layout.created} payouts, ${layout.rejected} rejected; expected ${LAYOUT.generate.count}`,
    );
  const pool = await call(client, {
    method: 'GET',
    path: `/sandbox/pool?method=${METHOD}&limit=0`,
    headers: { 'x-admin-token': ADMIN },
  });
  results.layout.slots = pool.pools.reduce((n, p) => n + p.slots, 0);
  await call(client, {
    method: 'POST',
    path: '/sandbox/pool/settings',
    headers: { 'x-admin-token': ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ rate_limit: false }),
  });
  console.log(
    `pool layout: ${results.layout.created} payouts created (${results.layout.rejected} rejected, ${results.layout.slots} slots) in ${results.layout.ms.toFixed(0)} ms over HTTP`,
  );
  console.log(
    `per-shop read rate limit (5 rps) switched off for the measurement; ${REQUESTS} sequential requests per row after ${WARMUP} warm-up\n`,
  );

  results.http = {};
  for (const [name, make] of Object.entries(kinds)) {
    const { last, ...r } = await measure(client, make);
    if (name !== 'livez') {
      r.intervals = last.intervals.length;
      r.truncated = last.truncated;
      if (last.recommendations) r.recommendations = last.recommendations.length;
    }
    results.http[name] = r;
  }
} finally {
  await client.close();
  await stop(sb.child);
  rmSync(dir, { recursive: true, force: true });
}

// 2. In process: the same layout in a sandbox of this process, then the service's evaluation alone (no HTTP, no
// read gate), to separate compute from the HTTP path.
{
  const { createSandbox } = await import('../../dist/emulator/index.js');
  const dir2 = mkdtempSync(join(tmpdir(), 'paygate-bench-pool-'));
  const local = await createSandbox({ store: join(dir2, 'sandbox.json'), adminToken: ADMIN, log: () => {} });
  try {
    const res = await local.fetch(
      new Request('http://paygate.local/sandbox/pool/layout', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(LAYOUT),
      }),
    );
    if (res.status !== 200) throw new Error(`in-process layout → ${res.status} ${await res.text()}`);
    const shopId = local.demo.shops.find((s) => s.api_key === KEY).id;
    const evals = { availability_wide: () => wide, availability_narrow: () => narrow, recommendations: recBody };
    results.compute = {};
    for (const [name, q] of Object.entries(evals)) {
      for (let i = 0; i < WARMUP; i++) local.service.amounts(shopId, q(REQUESTS + i));
      const lat = [];
      const t0 = performance.now();
      for (let i = 0; i < REQUESTS; i++) {
        const query = q(i);
        const t = process.hrtime.bigint();
        local.service.amounts(shopId, query);
        lat.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      const { rps, ...r } = stats(lat, performance.now() - t0);
      results.compute[name] = { ...r, per_second: rps };
    }
  } finally {
    await local.close();
    rmSync(dir2, { recursive: true, force: true });
  }
}

// Report.
const f = (x) => x.toFixed(2).padStart(7);
const label = {
  livez: 'GET /livez (ceiling)',
  availability_wide: 'availability, wide',
  availability_narrow: 'availability, narrow',
  recommendations: 'recommendations',
};
console.log(
  `${'HTTP, sequential'.padEnd(24)}  ${'req/s'.padStart(7)}  ${'p50 ms'.padStart(7)}  ${'p99 ms'.padStart(7)}  ${'max ms'.padStart(7)}  ${'compute p50/p99 ms'.padStart(18)}  notes`,
);
let met = true;
for (const [name, r] of Object.entries(results.http)) {
  const c = results.compute?.[name];
  const notes = [];
  if (r.intervals !== undefined) notes.push(`${r.intervals} intervals${r.truncated ? ', truncated' : ''}`);
  if (r.recommendations !== undefined) notes.push(`${r.recommendations} recs`);
  if (name !== 'livez') {
    const ok = r.p99 < TARGET_P99_MS;
    met &&= ok;
    notes.push(`p99 < ${TARGET_P99_MS} ms: ${ok ? 'yes' : 'NO'}`);
  }
  const comp = c ? `${c.p50.toFixed(2)} / ${c.p99.toFixed(2)}` : '—';
  console.log(
    `${label[name].padEnd(24)}  ${r.rps.toFixed(0).padStart(7)}  ${f(r.p50)}  ${f(r.p99)}  ${f(r.max)}  ${comp.padStart(18)}  ${notes.join('; ')}`,
  );
}
results.target_met = met;
console.log(
  `\ntarget (issue #5): availability and recommendations p99 < ${TARGET_P99_MS} ms with 10,000 payouts in the pool — ${met ? 'met' : 'NOT met'}`,
);
console.log(JSON.stringify({ bench: 'pool', ...results }));
