// Where a create's CPU goes over HTTP: a sandbox started with --cpu-prof under the create load of test/bench/load.mjs
// (20 connections), its profile cut to the middle of the measured window and every sample given to the stage of
// the innermost function of its stack that names one (the table below); printed as a share of the busy time and as
// µs of the run's CPU per create. Start-up, warm-up and the snapshot written at shutdown are left out.
//   npm run build && node test/bench/profile.mjs [--size 1000] [--ms 5000] [--root <another build>] [--keep <dir>]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createPayment, load } from './load.mjs';
import { startChild, stop } from './child.mjs';

const { values: opt } = parseArgs({
  options: {
    size: { type: 'string', default: '1000' },
    ms: { type: 'string', default: '5000' },
    root: { type: 'string' },
    keep: { type: 'string' },
  },
});
const root = resolve(opt.root ?? fileURLToPath(new URL('../..', import.meta.url)));

/** Function name → stage; a sample goes to the first of these found walking its stack from the leaf up. */
const STAGES = [
  ['serializeChanges', 'store: journal serialisation (the operation and its event)'],
  ['#writeBatch', 'store: journal group write (number the lines, join, write(2))'],
  ['planCreate', 'domain: planCreate (idempotency, routing, pricing, requisites, event)'],
  ['#cool', 'store: PackedMap turns an older entity into text'],
  ['put', 'store: operation index'],
  ['apply', 'store: apply in memory (maps, ledger, indexes, undo)'],
  ['settle', 'store: settle a group (shadows, effects, resolve)'],
  ['flush', 'store: hand a group to the journal (checks, queue)'],
  ['commit', 'store: commit (shadows, queue, promise)'],
  ['readJson', 'read body: read, decode, JSON.parse, validate'],
  ['toWireOperation', 'answer: wire shape'],
  ['jsonAnswer', 'answer: JSON.stringify + response object'],
  ['writev', 'send: the writev system call'],
  ['sendNodeResponse', 'send: node:http response (headers, stream)'],
  ['logRequest', 'request log + h3 middleware'],
  ['(garbage collector)', 'garbage collection'],
  ['parserOnHeadersComplete', 'node:http parsing, srvx/h3 request objects, routing, auth'],
];
const OTHER = 'the rest: event loop, timers, promise jobs, V8';

const work = mkdtempSync(join(tmpdir(), 'paygate-profile-'));
const profDir = opt.keep ? resolve(opt.keep) : join(work, 'prof');
const store = join(work, 'sandbox.json');
if (
  spawnSync(process.execPath, [join(root, 'test/bench/prefill.mjs'), store, opt.size], {
    stdio: ['ignore', 'pipe', 'inherit'],
  }).status !== 0
)
  throw new Error('prefill failed');
const sb = await startChild([
  '--cpu-prof',
  '--cpu-prof-interval',
  '250',
  '--cpu-prof-dir',
  profDir,
  join(root, 'bin/paygate.js'),
  'sandbox',
  'start',
  '--port',
  '0',
  '--store',
  store,
  '--json',
]);
const r = await load({
  url: sb.info.base_url,
  durationMs: Number(opt.ms),
  pid: sb.child.pid,
  request: createPayment('prof'),
});
await stop(sb.child);
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile in ${profDir}`);
const p = JSON.parse(readFileSync(join(profDir, file), 'utf8'));
if (!opt.keep) rmSync(work, { recursive: true, force: true });

const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let at = 0;
const times = p.timeDeltas.map((d) => (at += d));
// The middle of the run: past start-up and warm-up, before the load stops and the shutdown snapshot is written.
const span = times.at(-1) - times[0];
const [from, to] = [times[0] + span * 0.3, times[0] + span * 0.85];
const stageOf = new Map(STAGES);
const counts = new Map();
let busy = 0;
p.samples.forEach((s, i) => {
  if (times[i] < from || times[i] > to || byId.get(s).callFrame.functionName === '(idle)') return;
  busy++;
  let stage = OTHER;
  for (let x = s; x !== undefined; x = parent.get(x)) {
    const f = byId.get(x).callFrame;
    // `put`: the operation index's (in the sandbox's own code), not a Map-like put of a dependency.
    if (stageOf.has(f.functionName) && (f.functionName !== 'put' || f.url.includes('/dist/'))) {
      stage = stageOf.get(f.functionName);
      break;
    }
  }
  counts.set(stage, (counts.get(stage) ?? 0) + 1);
});
console.log(
  `${r.requests} creates at ${r.rps.toFixed(0)}/s, p99 ${r.p99.toFixed(2)} ms, server CPU ${r.cpuUsPerRequest?.toFixed(0)} µs per create; ${busy} busy samples of 250 µs`,
);
for (const [stage, n] of [...counts].sort((a, b) => b[1] - a[1])) {
  console.log(
    `${((100 * n) / busy).toFixed(1).padStart(5)} %  ${(((r.cpuUsPerRequest ?? NaN) * n) / busy).toFixed(1).padStart(6)} µs  ${stage}`,
  );
}
