// npm run bench, cluster part (issue 29; BENCH_SKIP_CLUSTER=1 skips it): `paygate sandbox start --cluster` on one
// throwaway PostgreSQL (PostgreSQL's defaults: fsync on; the sandbox's durable commit). In one run:
// - the bare single-row INSERT (CONNECTIONS connections), the ceiling the creates are compared with;
// - creates across 32 workspaces on 1 process (CONNECTIONS connections), then on a cluster of 2 (each process sent
//   the creates of the 16 workspaces it owns, CONNECTIONS / 2 connections each): creates/s beside each other and
//   beside the bare INSERT;
// - forwarding: p50 of a read sent to the process that owns its workspace, and to the other one (forwarded);
// - takeover: SIGKILL one process of the two; per workspace it owned, the time until a create through the other
//   one succeeds (median, max);
// - memory: the RSS of each process of a cluster of 2 holding 2 x HOLD workspaces (each with a create), per
//   workspace, and how many a cluster of 2 holds within MEMORY_MIB per process at that rate.
// Fails clearly when this build has no `--cluster`; skips loudly without PostgreSQL.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { postgresMissing, startCluster } from '../postgres/cluster.mjs';
import { KEY_A, createPayment, load } from './load.mjs';
import { bareInsert } from './pg-bare.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/paygate.js', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONNECTIONS = 32;
const WORKSPACES = 32;
const HOLD = Number(process.env.BENCH_CLUSTER_HOLD ?? 48);
const MEMORY_MIB = 512;
const ADMIN = 'pg_admin_bench_cluster';

if (process.env.BENCH_SKIP_CLUSTER === '1') {
  console.log('\n(cluster bench skipped: BENCH_SKIP_CLUSTER=1)');
  process.exit(0);
}
const missing = postgresMissing();
if (missing) {
  console.log(`\n!!! cluster bench SKIPPED: ${missing}\n`);
  process.exit(0);
}
const help = spawnSync(process.execPath, [bin, 'sandbox', 'start', '--help'], { cwd: root, encoding: 'utf8' });
if (!/--cluster\b/.test(help.stdout ?? '')) {
  console.error(
    '\n!!! cluster bench FAILED: this build of `paygate sandbox start` has no --cluster flag (issue 29); run `npm run build` on a tree with cluster mode, or BENCH_SKIP_CLUSTER=1\n',
  );
  process.exit(1);
}

const rssMib = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const wsPath = (ws, path) => (ws === 'default' ? path : `/w/${ws}${path}`);

/** A `--cluster` process on `url`: { child, base (its listen URL), node }. */
async function startNode(url) {
  const child = spawn(
    process.execPath,
    [bin, 'sandbox', 'start', '--cluster', '--store', url, '--port', '0', '--json'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', PAYGATE_ADMIN_TOKEN: ADMIN },
    },
  );
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`cluster process exited with ${code}: ${err}`)));
  });
  const info = JSON.parse(line);
  return { child, base: info.listen_url ?? info.base_url, node: info.node };
}

function kill(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  return gone;
}

/** One create in `ws` through `base`: its HTTP status. */
async function createOnce(base, ws, mop) {
  const req = createPayment(mop)(0);
  const res = await fetch(`${base}${wsPath(ws, req.path)}`, { method: 'POST', headers: req.headers, body: req.body });
  await res.arrayBuffer();
  return res.status;
}

/** The i-th create spread over `spaces` (round robin). */
const spread = (spaces, prefix) => {
  const make = createPayment(prefix);
  return (i) => {
    const req = make(i);
    return { ...req, path: wsPath(spaces[i % spaces.length], req.path) };
  };
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (r) =>
  `${r.rps.toFixed(0).padStart(7)} /s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.requests} in ${DURATION / 1000} s, ${r.non2xx} non-2xx, ${r.errors} errors)`;

const cluster = await startCluster({ fsync: true });
const live = [];
try {
  console.log(
    `\nCluster (--cluster, throwaway PostgreSQL with its defaults, durable commit): creates across ${WORKSPACES} workspaces`,
  );
  const bare = await bareInsert(await cluster.createDatabase('bare'), DURATION, CONNECTIONS);
  console.log(`  bare single-row INSERT          ${fmt(bare)}   (${CONNECTIONS} connections)`);
  const pct = (r) => `${((100 * r.rps) / bare.rps).toFixed(0)} % of the bare INSERT`;

  // One process.
  const db1 = await cluster.createDatabase('one');
  const solo = await startNode(db1);
  live.push(solo);
  const spaces1 = Array.from({ length: WORKSPACES }, (_, i) => `one${i}`);
  for (const ws of spaces1) await createOnce(solo.base, ws, `warm-${ws}`);
  const r1 = await load({
    url: solo.base,
    connections: CONNECTIONS,
    durationMs: DURATION,
    request: spread(spaces1, 'b1'),
  });
  console.log(`  1 process                       ${fmt(r1)}   (${pct(r1)})`);
  await kill(solo.child);

  // A cluster of two: each workspace first reached through one of them (it owns it), then each sent its own.
  const db2 = await cluster.createDatabase('two');
  const a = await startNode(db2);
  const b = await startNode(db2);
  live.push(a, b);
  const ofA = Array.from({ length: WORKSPACES / 2 }, (_, i) => `a${i}`);
  const ofB = Array.from({ length: WORKSPACES / 2 }, (_, i) => `b${i}`);
  for (const ws of ofA) await createOnce(a.base, ws, `warm-${ws}`);
  for (const ws of ofB) await createOnce(b.base, ws, `warm-${ws}`);
  const [ra, rb] = await Promise.all([
    load({ url: a.base, connections: CONNECTIONS / 2, durationMs: DURATION, request: spread(ofA, 'b2a') }),
    load({ url: b.base, connections: CONNECTIONS / 2, durationMs: DURATION, request: spread(ofB, 'b2b') }),
  ]);
  const r2 = {
    rps: ra.rps + rb.rps,
    requests: ra.requests + rb.requests,
    p50: Math.max(ra.p50, rb.p50),
    p99: Math.max(ra.p99, rb.p99),
    non2xx: ra.non2xx + rb.non2xx,
    errors: ra.errors + rb.errors,
  };
  console.log(
    `  cluster of 2                    ${fmt(r2)}   (${pct(r2)}; ${((100 * r2.rps) / r1.rps).toFixed(0)} % of 1 process; p50/p99: the worse of the two)`,
  );

  // Forwarding: a read of a workspace a owns, sent to a and to b (which forwards it), one at a time, interleaved.
  const read = async (base) => {
    const t0 = performance.now();
    const res = await fetch(`${base}${wsPath(ofA[0], '/v1/balances')}`, { headers: { 'x-api-key': KEY_A } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`balances answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 50; i++) await Promise.all([read(a.base), read(b.base)]);
  const direct = [];
  const forwarded = [];
  for (let i = 0; i < 300; i++) {
    direct.push(await read(a.base));
    forwarded.push(await read(b.base));
  }
  const [pd, pf] = [median(direct), median(forwarded)];
  console.log(
    `  forwarding (GET /v1/balances, 300 each)   p50 at the owner ${pd.toFixed(2)} ms, through the other ${pf.toFixed(2)} ms: +${(pf - pd).toFixed(2)} ms   (goal <= 1 ms)`,
  );

  // Takeover: SIGKILL b; per workspace it owned, the time until a create through a succeeds.
  const killedAt = performance.now();
  await kill(b.child, 'SIGKILL');
  const times = await Promise.all(
    ofB.map(async (ws) => {
      for (let i = 0; ; i++) {
        if ((await createOnce(a.base, ws, `after-${ws}-${i}`).catch(() => 0)) === 200)
          return performance.now() - killedAt;
        if (performance.now() - killedAt > 30_000) throw new Error(`${ws} was not taken over within 30 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  console.log(
    `  takeover after SIGKILL (${ofB.length} workspaces)   median ${median(times).toFixed(0)} ms   max ${Math.max(...times).toFixed(0)} ms   (goal: median <= 2000 ms)`,
  );
  await kill(a.child);

  // Memory: a cluster of 2, each holding HOLD workspaces with a create in each.
  const db3 = await cluster.createDatabase('mem');
  const m = [await startNode(db3), await startNode(db3)];
  live.push(...m);
  await createOnce(m[0].base, 'default', 'warm-0');
  await createOnce(m[1].base, 'm1-warm', 'warm-1');
  const base = m.map((p) => rssMib(p.child.pid));
  for (let i = 0; i < HOLD; i++) await Promise.all(m.map((p, k) => createOnce(p.base, `m${k}-${i}`, `hold-${i}`)));
  const after = m.map((p) => rssMib(p.child.pid));
  const per = Math.max(...after.map((x, k) => (x - base[k]) / HOLD));
  const fits = 2 * Math.floor((MEMORY_MIB - Math.max(...base)) / Math.max(per, 0.01));
  console.log(
    `  memory, cluster of 2 holding ${HOLD} workspaces each   RSS ${after.map((x) => x.toFixed(0)).join(' / ')} MiB (from ${base.map((x) => x.toFixed(0)).join(' / ')}): ${(per * 1024).toFixed(0)} KiB per workspace, so ~${fits} workspaces held at ${MEMORY_MIB} MiB per process (more with --idle-unload: idle ones leave memory)`,
  );
} finally {
  for (const p of live) await kill(p.child, 'SIGKILL');
  await cluster.stop();
}
