// What the duplicate-key check of JSON bodies costs per request (src/emulator/http/json-keys.ts), on the create body
// of the load benchmark (load.mjs) and on larger ones: JSON.parse alone for scale, the cheap test every body gets
// (mayRepeatKeys: count ':' in the text and keys in the parse), and the full scan (repeatedKeyAt) that runs only when
// the cheap test cannot rule a repeat out (a ':' inside a string value, say). In process, CPU ns per body.
//   npm run build && node test/bench/json-keys.mjs [--ms 1000]
import { parseArgs } from 'node:util';
import { mayRepeatKeys, repeatedKeyAt } from '../../dist/emulator/http/json-keys.js';

const { values: opt } = parseArgs({ options: { ms: { type: 'string', default: '1000' } } });
const ms = Number(opt.ms);

const create = (i) =>
  JSON.stringify({
    merchant_operation_id: `bench-${i}`,
    client_id: `client-${i % 1000}`,
    method: 'WT_RUB_C2C',
    amount: `${100 + (i % 9000)}.00`,
    currency: 'RUB',
  });
const bodies = {
  'create (load.mjs)': Array.from({ length: 1024 }, (_, i) => create(i)),
  'create, ":" in a value': Array.from({ length: 1024 }, (_, i) => create(i).replace('bench-', 'bench:')),
  'pool layout, 200 amounts': Array.from({ length: 64 }, (_, i) =>
    JSON.stringify({ method: 'WT_RUB_C2C', amounts: Array.from({ length: 200 }, (_, j) => `${1000 + i + j}.00`) }),
  ),
  'faults.set, 50 faults': Array.from({ length: 64 }, (_, i) =>
    JSON.stringify({
      faults: Array.from({ length: 50 }, (_, j) => ({
        endpoint: 'payment.create',
        status: 503,
        count: i + j + 1,
        shop_id: 'shop_a',
      })),
    }),
  ),
};

/** CPU time (user + system, so a busy machine's waits are not counted) per call of `fn`, in ns. */
function time(fn, list) {
  let n = 0;
  let sink = 0;
  const end = performance.now() + ms;
  const start = process.cpuUsage();
  while (performance.now() < end) {
    for (let k = 0; k < 256; k++) sink += fn(list[(n + k) % list.length]) ? 1 : 0;
    n += 256;
  }
  const used = process.cpuUsage(start);
  return { ns: ((used.user + used.system) * 1e3) / n, sink };
}

const rows = [];
for (const [name, list] of Object.entries(bodies)) {
  const parsed = new Map(list.map((t) => [t, JSON.parse(t)]));
  // Warm up each function on this shape first.
  for (const f of [(t) => JSON.parse(t), (t) => mayRepeatKeys(t, parsed.get(t)), (t) => repeatedKeyAt(t)])
    time(f, list.slice(0, 64));
  const parse = time((t) => JSON.parse(t), list).ns;
  const cheap = time((t) => mayRepeatKeys(t, parsed.get(t)), list).ns;
  const scan = time((t) => repeatedKeyAt(t) !== undefined, list).ns;
  const scanned = list.filter((t) => mayRepeatKeys(t, parsed.get(t))).length / list.length;
  const perRequest = cheap + scanned * scan;
  rows.push({
    body: name,
    bytes: list[0].length,
    'JSON.parse ns': parse.toFixed(0),
    'cheap test ns': cheap.toFixed(0),
    'scan ns': scan.toFixed(0),
    scanned: `${(scanned * 100).toFixed(0)}%`,
    'check ns/request': perRequest.toFixed(0),
  });
}
console.table(rows);
