// Where one create's CPU time goes, stage by stage, in process (no HTTP): each stage of POST /v1/payment run on its
// own over the same bodies, timed with process.cpuUsage, in interleaved rounds (the median is printed). With
// `--http <µs>` (the CPU per create of the whole HTTP request, from `npm run bench`) the rest — node:http, h3,
// routing, the request log, the answer's write — is printed as the difference.
//   npm run build && node test/bench/stages.mjs [--size 1000] [--rounds 5] [--http 120]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSandbox } from '../../dist/emulator/index.js';
import { endpoints } from '../../dist/contract/index.js';
import { parseWith } from '../../dist/emulator/http/body.js';
import { planCreate } from '../../dist/domain/create.js';
import { serializeChanges } from '../../dist/store/journal.js';
import { toWireOperation } from '../../dist/emulator/wire.js';

const { values: opt } = parseArgs({
  options: {
    size: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    n: { type: 'string', default: '20000' },
    http: { type: 'string' },
  },
});
const N = Number(opt.n);
const KEY = 'pg_test_a_7Hq2Lm9XwR4tNc8V';
const dir = mkdtempSync(join(tmpdir(), 'paygate-stages-'));
const sb = await createSandbox({ store: join(dir, 'sandbox.json'), reset: true, fsync: false, log: () => {} });
const { service } = sb;
const params = (tag, i) => ({
  merchant_operation_id: `stage-${tag}-${i}`,
  client_id: `client-${i % 1000}`,
  method: 'WT_RUB_C2C',
  amount: `${100 + (i % 9000)}.00`,
  currency: 'RUB',
});
for (let i = 0; i < Number(opt.size); i += 2000) {
  await Promise.all(
    Array.from({ length: Math.min(2000, Number(opt.size) - i) }, (_, j) =>
      service.create('shop_a', 'payment', params('fill', i + j)),
    ),
  );
}

const bodies = Array.from({ length: N }, (_, i) => Buffer.from(JSON.stringify(params('x', i))));
const decoder = new TextDecoder('utf-8', { fatal: true });
const schema = endpoints['payment.create'].body;
const parsed = bodies.map((b) => JSON.parse(decoder.decode(b)));
const valid = parsed.map((d) => parseWith(schema, d, 'body'));
const plans = valid.map((p) => planCreate(service.ctx(), 'shop_a', 'payment', p));
const changeLists = plans.map((p) =>
  p.changes.map((c) => (c.kind === 'operation' ? { c: 'operations', v: c.op } : { c: `${c.kind}s`, v: c[c.kind] })),
);

/** CPU µs per item of `fn` over `count` items. */
function cpu(count, fn) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < count; i++) fn(i);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / count;
}

let round = 0;
const stages = {
  'read body: UTF-8 decode + JSON.parse': () => cpu(N, (i) => JSON.parse(decoder.decode(bodies[i]))),
  'validate: well-formed check + zod schema': () => cpu(N, (i) => parseWith(schema, parsed[i], 'body')),
  'auth: X-API-Key to shop': () => cpu(N, () => service.authenticate(KEY)),
  'domain: planCreate (idempotency, routing, pricing, requisites, event)': () =>
    cpu(N, (i) => planCreate(service.ctx(), 'shop_a', 'payment', valid[i])),
  'journal: serialise the changes (part of the store write)': () => cpu(N, (i) => serializeChanges(changeLists[i])),
  'answer: wire shape + JSON.stringify': () =>
    cpu(N, (i) => JSON.stringify(toWireOperation(plans[i].op, service.world))),
  'service.create, 20 at a time (domain + store apply + journal write)': async () => {
    const tag = `r${round++}`;
    const t0 = process.cpuUsage();
    for (let i = 0; i < N; i += 20) {
      const batch = [];
      for (let j = i; j < i + 20 && j < N; j++) batch.push(service.create('shop_a', 'payment', params(tag, j)));
      await Promise.all(batch);
    }
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / N;
  },
};

const samples = Object.fromEntries(Object.keys(stages).map((k) => [k, []]));
for (let r = 0; r < Number(opt.rounds); r++) for (const [k, fn] of Object.entries(stages)) samples[k].push(await fn());
await sb.close();
rmSync(dir, { recursive: true, force: true });

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
console.log(`CPU µs per create, median of ${opt.rounds} rounds of ${N}, ${opt.size} stored before the first round:`);
for (const [k, v] of Object.entries(m)) console.log(`  ${v.toFixed(1).padStart(6)}  ${k}`);
const keys = Object.keys(m);
const create = m[keys.at(-1)];
const domain = m[keys[3]];
const store = create - domain;
console.log(
  `  ${store.toFixed(1).padStart(6)}  store: apply in memory + journal write + promises (service.create − domain)`,
);
if (opt.http) {
  const inProcess = m[keys[0]] + m[keys[1]] + m[keys[2]] + create + m[keys[5]];
  console.log(
    `  ${(Number(opt.http) - inProcess).toFixed(1).padStart(6)}  HTTP: node:http, h3 routing, request log, writing the answer (${opt.http} − the stages above)`,
  );
}
