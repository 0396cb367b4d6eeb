// npm run bench: the dashboard (issue 28). A file store is filled with 100,000 operations (test/bench/scale-fill.mjs,
// BENCH_DASHBOARD_SIZE to change it) and `paygate sandbox start` opened on it as a child process; then:
//   1. the Operations page — 50 rows, newest first — asked for BENCH_DASHBOARD_REQUESTS times (default 60) over one
//      keep-alive connection, signed in as the admin: every shop, then with a filter (status=completed), a shop
//      (shop=shop_a) and an older page (a cursor); an operation's page too. The figure is the server's time, from
//      its Server-Timing header (the request reaching the dashboard to its HTML made), median and 95th percentile;
//      the time to the last byte on the loopback is printed beside it. Goal: ≤ 100 ms.
//   2. the cost of an idle sandbox: the child's CPU (utime + stime of /proc/<pid>/stat, all threads) per second of
//      wall time over BENCH_DASHBOARD_IDLE_MS (default 10 s), first with no dashboard open, then with the Operations
//      page's live feed open (its SSE stream, as a browser holds it), then with none again.
// Exits non-zero only on a broken run, never on missing the goal.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startChild, stop } from './child.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SIZE = Number(process.env.BENCH_DASHBOARD_SIZE ?? 100_000);
const REQUESTS = Number(process.env.BENCH_DASHBOARD_REQUESTS ?? 60);
const IDLE_MS = Number(process.env.BENCH_DASHBOARD_IDLE_MS ?? 10_000);
const ADMIN = `pg_admin_bench_${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'paygate-dashboard-'));
const store = join(dir, 'sandbox.json');

const cpuSeconds = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, clock ticks (100 Hz)
};
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const ms = (x) => `${x.toFixed(1)} ms`;
const sleep = (t) => new Promise((r) => setTimeout(r, t));

const fill = spawnSync(process.execPath, [join(root, 'test/bench/scale-fill.mjs'), store, String(SIZE)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (fill.status !== 0) throw new Error('scale-fill failed');

const { child, info } = await startChild(
  ['bin/paygate.js', 'sandbox', 'start', '--port', '0', '--store', store, '--json'],
  {
    PAYGATE_ADMIN_TOKEN: ADMIN,
  },
);
const pool = new Pool(info.base_url, { connections: 1 });
try {
  const signIn = await pool.request({
    method: 'POST',
    path: '/dashboard/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ credential: ADMIN }).toString(),
  });
  await signIn.body.dump();
  if (signIn.statusCode !== 303) throw new Error(`sign-in answered ${signIn.statusCode}`);
  const cookie = String(signIn.headers['set-cookie']).split(';')[0];

  async function get(path) {
    const t0 = performance.now();
    const r = await pool.request({ method: 'GET', path, headers: { cookie } });
    const text = await r.body.text();
    const t = performance.now() - t0;
    if (r.statusCode !== 200) throw new Error(`${path} answered ${r.statusCode}`);
    const server = Number(/dur=([\d.]+)/.exec(String(r.headers['server-timing']))?.[1]);
    return { t, server, text };
  }

  const first = await get('/dashboard/operations');
  const rows = (first.text.match(/<tr data-row=/g) ?? []).length;
  if (rows !== 50) throw new Error(`the page shows ${rows} rows, not 50`);
  const cursor = /starting_after=([\w-]+)/.exec(first.text)?.[1];
  const opId = /<tr data-row="([^"]+)"/.exec(first.text)[1];
  const pages = [
    ['every shop', '/dashboard/operations'],
    ['status=completed', '/dashboard/operations?status=completed'],
    ['shop=shop_a', '/dashboard/operations?shop=shop_a'],
    ['an older page', `/dashboard/operations?starting_after=${cursor}`],
    ['an operation', `/dashboard/operations/${opId}`],
  ];
  console.log(`dashboard at ${SIZE.toLocaleString('en')} stored operations (${REQUESTS} requests each, loopback):`);
  for (const [name, path] of pages) {
    for (let i = 0; i < 5; i++) await get(path); // warm-up
    const times = [];
    const server = [];
    for (let i = 0; i < REQUESTS; i++) {
      const r = await get(path);
      times.push(r.t);
      server.push(r.server);
    }
    const p95 = pct(server, 95);
    console.log(
      `  ${name.padEnd(18)} server median ${ms(pct(server, 50))}, p95 ${ms(p95)}  ${p95 <= 100 ? 'ok (≤ 100 ms)' : 'OVER 100 ms'}` +
        `   (loopback median ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))})`,
    );
  }

  async function idle(label) {
    await sleep(1000);
    const c0 = cpuSeconds(child.pid);
    const t0 = performance.now();
    await sleep(IDLE_MS);
    const cpu = cpuSeconds(child.pid) - c0;
    const perS = (cpu * 1000) / ((performance.now() - t0) / 1000);
    console.log(`  ${label.padEnd(34)} ${perS.toFixed(2)} ms CPU per second`);
    return perS;
  }
  console.log(`idle sandbox, CPU over ${IDLE_MS / 1000} s:`);
  await idle('no dashboard open');
  const feed = new Pool(info.base_url, { connections: 1 });
  const stream = await feed.request({
    method: 'GET',
    path: '/dashboard/events',
    headers: { cookie, accept: 'text/event-stream' },
  });
  if (stream.statusCode !== 200) throw new Error(`the live feed answered ${stream.statusCode}`);
  stream.body.on('data', () => {});
  await idle('the Operations page open (live)');
  stream.body.destroy();
  await feed.destroy();
  await idle('closed again');
} finally {
  await pool.close();
  await stop(child);
  rmSync(dir, { recursive: true, force: true });
}
