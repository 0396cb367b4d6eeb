// Builds a file store of N operations fast, for test/bench/scale.mjs: a small sandbox makes a realistic mix once
// (pending, completed with postings, expired, cancelled), then each generated operation is a copy
// of one of those with its own id, merchant_operation_id and times, written straight to the snapshot (no journal).
// Usage: node test/bench/scale-fill.mjs <store> <count> [v1|v2]   (v1: the older one-document format)
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../../dist/emulator/index.js';

const [store, countText, format = 'v2'] = process.argv.slice(2);
const count = Number(countText);

async function template() {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-scale-tpl-'));
  const file = join(dir, 'tpl.json');
  const sb = await createSandbox({ store: file, reset: true, fsync: false, frozenClock: true, log: () => {} });
  const s = sb.service;
  const pay = (i) =>
    s.create('shop_a', 'payment', {
      merchant_operation_id: `tpl-${i}`,
      client_id: `client-${i}`,
      method: 'WT_RUB_C2C',
      amount: `${100 + i * 7}.00`,
      currency: 'RUB',
    });
  // 2 of 20 expire: created, then the clock passes their expiry.
  for (let i = 0; i < 2; i++) await pay(i);
  await sb.clock.advance(31 * 60_000);
  const ops = [];
  for (let i = 2; i < 20; i++) ops.push(await pay(i));
  // 8 completed (paid in full), 1 paid short, 1 cancelled, the rest pending.
  for (let i = 0; i < 8; i++) await s.pay('shop_a', { operation_id: ops[i].id });
  await s.pay('shop_a', { operation_id: ops[8].id }, '50.00').catch(() => {});
  await s.cancel('shop_a', { operation_id: ops[9].id }, 'test').catch(() => {});
  await sb.clock.advance(60_000);
  await sb.close();
  const text = readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const colls = {};
  const lines = text.split('\n');
  for (const line of lines.slice(1)) {
    if (!line.startsWith('"')) continue;
    // Version 3: an operation's line carries its load view before its text.
    const [c, id, ...rest] = line.split('\t');
    (colls[JSON.parse(c)] ??= []).push([JSON.parse(id), rest.join('\t')]);
  }
  const entity = (text) => JSON.parse(text.split('\t').at(-1));
  const ops2 = colls.operations.filter(([, j]) => entity(j).shop_id === 'shop_a');
  const groups = ops2.map(([id, json]) => {
    const related = (c) => (colls[c] ?? []).filter(([eid]) => eid.includes(id)).map(([eid, j]) => [c, eid, j]);
    return {
      id,
      moid: entity(json).merchant_operation_id,
      lines: [['operations', id, json], ...related('postings'), ...related('events')],
    };
  });
  const used = new Set(groups.flatMap((g) => g.lines.map(([c, id]) => `${c}\t${id}`)));
  // The template's clock position is left out: it stands 32 minutes ahead (the advances above), and a sandbox started
  // on the filled store would resume there, with every pending copy already past its expiry (40 % of the store
  // expiring during the measured create load). The filled store's sandbox starts at real time.
  const rest = Object.entries(colls).flatMap(([c, list]) =>
    list.filter(([id]) => !used.has(`${c}\t${id}`) && !(c === 'meta' && id === 'clock')).map(([id, j]) => [c, id, j]),
  );
  return { groups, rest };
}

const { groups, rest } = await template();
const statuses = {};
for (const g of groups) {
  const st = JSON.parse(g.lines[0][2].split('\t').at(-1)).status;
  statuses[st] = (statuses[st] ?? 0) + 1;
}
const TS = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
const hex = (n, w) => n.toString(16).padStart(w, '0');
const newId = (i) =>
  `${hex(Math.floor(i / 65536) & 0xffffffff, 8)}-${hex(i & 0xffff, 4)}-5000-8000-${hex((i * 2654435761) % 2 ** 48, 12)}`;
const base = Date.now() - count; // 1 ms apart, the newest now: pending ones expire 30 min after their creation, not during the bench

const out = createWriteStream(store);
const write = (s) => (out.write(s) ? undefined : new Promise((r) => out.once('drain', r)));
const byColl = new Map();
const entity = (c, id, json) => {
  if (format === 'v2') return `${JSON.stringify(c)}\t${JSON.stringify(id)}\t${json}\n`;
  let list = byColl.get(c);
  if (!list) byColl.set(c, (list = []));
  list.push(json.split('\t').at(-1));
};
let n = 0;
// "v2": the JSON Lines snapshot this paygate writes (version 3 since operations carry their load view).
if (format === 'v2') await write(`{"format":"paygate-store","version":3,"lastSeq":0}\n`);
// Collections in the order the state writes them: all operations, then postings, then events (grouped by collection).
for (const c of ['operations', 'postings', 'events']) {
  let buf = '';
  for (let i = 0; i < count; i++) {
    const g = groups[i % groups.length];
    const id = newId(i);
    const shift = base + i;
    const t0 = Date.parse(JSON.parse(g.lines[0][2].split('\t').at(-1)).created_at);
    for (const [lc, lid, json] of g.lines) {
      if (lc !== c) continue;
      const j = json
        .split(g.id)
        .join(id)
        .split(`"${g.moid}"`)
        .join(`"scale-${i}"`)
        .replace(TS, (m) => new Date(Date.parse(m) - t0 + shift).toISOString());
      const line = entity(c, lid.split(g.id).join(id), j);
      n++;
      if (line) buf += line;
    }
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  if (buf) await write(buf);
}
for (const [c, id, json] of rest) {
  const line = entity(c, id, json);
  n++;
  if (line) await write(line);
}
if (format === 'v2') {
  await write(`{"end":${n}}\n`);
} else {
  await write('{"format":"paygate-store","version":1,"lastSeq":0,"collections":{');
  let first = true;
  for (const [c, list] of byColl) {
    await write(`${first ? '' : ','}${JSON.stringify(c)}:[`);
    first = false;
    for (let i = 0; i < list.length; i += 1000) await write((i ? ',' : '') + list.slice(i, i + 1000).join(','));
    await write(']');
  }
  await write('}}');
}
await new Promise((r) => out.end(r));
process.stdout.write(JSON.stringify({ store, operations: count, entities: n, format, mix: statuses }) + '\n');
