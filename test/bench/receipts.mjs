// npm run bench: what maximal receipt uploads cost everyone else. A sandbox started as a user starts it (built dist,
// `paygate sandbox start`, a file store); six ~10 MiB PDFs are uploaded at once — three through shop A's hosted
// pages, three through shop B's confirm_payment — while a third shop reads GET /v1/balances in a sequential loop:
// the worst and p99 delay of those reads, beside the same loop with nothing uploaded. Two kinds of maximal receipt:
// text PDFs whose check runs to its 5 s budget, and PDFs read in full and stored. Then the case: six slow
// uploads to shop A's pages while shop B confirms a small receipt. BENCH_SKIP_RECEIPTS=1 skips it;
// BENCH_RECEIPT_BASELINE_MS (default 3000) is the length of the idle loop. Ends with a JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildPdf } from '../receipts/make-samples.mjs';
import { stop } from './child.mjs';

if (process.env.BENCH_SKIP_RECEIPTS) {
  console.log('receipt benchmark skipped (BENCH_SKIP_RECEIPTS)');
  process.exit(0);
}
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/paygate.js');
const KEY = { a: 'pg_test_a_7Hq2Lm9XwR4tNc8V', b: 'pg_test_b_3Fk8Zp1YdQ6sWe5J', pool: 'pg_test_pool_9Ub4Rn2TgK7mXa1C' };
const MiB = 1024 * 1024;
const BASELINE_MS = Number(process.env.BENCH_RECEIPT_BASELINE_MS ?? 3000);

const TARGET = 10 * MiB - 16 * 1024;

/** A text-only PDF of 20 pages just under 10 MiB: the largest receipt accepted, and one whose parse runs past 5 s. */
function slowReceipt(target = TARGET) {
  const make = (perPage) =>
    buildPdf({
      pages: Array.from({ length: 20 }, (_, p) =>
        Array.from(
          { length: perPage },
          (_, i) => `Payment 1500.00 RUB, line ${p}-${i} ................................`,
        ),
      ),
      info: { Producer: 'Sandbox Bank statements' },
    });
  let perPage = 4000;
  let pdf = make(perPage);
  for (let i = 0; i < 4 && (pdf.byteLength > target || pdf.byteLength < target - 64 * 1024); i++) {
    perPage = Math.floor((perPage * target) / pdf.byteLength) - 2;
    pdf = make(perPage);
  }
  return Buffer.from(pdf);
}

/** A PDF just under 10 MiB that is read: 20 pages of text (about 90,000 characters, every line with amounts) and padding. */
function readReceipt(target = TARGET) {
  const line = (p, i) =>
    `Transfer ${p}-${i}: 1500.00 RUB to card 2200 **** 0004, fee 0.00 RUB, ref ${'0123456789'.repeat(6)}`;
  const pages = Array.from({ length: 20 }, (_, p) => Array.from({ length: 48 }, (_, i) => line(p, i)));
  const info = { Producer: 'Sandbox Bank statements' };
  const bare = buildPdf({ pages, info }).byteLength;
  return Buffer.from(buildPdf({ pages, info, padding: target - bare - 64 }));
}

function multipart(fields, file) {
  const boundary = `bench-${Math.random().toString(16).slice(2)}`;
  let head = '';
  for (const [k, v] of Object.entries(fields))
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="receipt"; filename="receipt.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

function startSandbox(store) {
  const args = process.env.BENCH_SERVE
    ? [process.env.BENCH_SERVE, store]
    : [bin, 'sandbox', 'start', '--port', '0', '--store', store, '--json'];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ child, info: JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code} before it was ready`)));
  });
}

let seq = 0;
async function createPayment(base, key, link) {
  const res = await fetch(`${base}/v1/payment${link ? '/link' : ''}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({
      merchant_operation_id: `bench-rcpt-${process.pid}-${++seq}`,
      client_id: 'payer+receipt',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    }),
  });
  const op = await res.json();
  if (op.status !== 'awaiting_confirmation')
    throw new Error(`expected a payment awaiting confirmation, got ${JSON.stringify(op)}`);
  return op;
}

/** Upload through shop A's hosted page (payment_url) or shop B's confirm_payment; resolves with status and time. */
async function upload(base, op, file, key) {
  const t0 = performance.now();
  const { body, type } = key
    ? multipart({ operation_id: op.operation_id, confirmation_type: 'receipt' }, file)
    : multipart({}, file);
  const url = key ? `${base}/v1/confirm_payment` : `${op.payment_url}/receipt`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': type, ...(key ? { 'x-api-key': key } : {}) },
    body,
    redirect: 'manual',
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

/** GET /v1/balances of the pool shop, one after another, until `done()`; each read's latency in ms. */
async function readLoop(base, done) {
  const lat = [];
  while (!done()) {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/balances`, { headers: { 'x-api-key': KEY.pool } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`balances answered ${res.status}`);
    lat.push(performance.now() - t0);
  }
  return lat;
}

const pct = (xs, p) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const figures = (lat) => ({ n: lat.length, worst: Math.max(...lat), p99: pct(lat, 99), p50: pct(lat, 50) });
const ms = (x) => `${x.toFixed(1)} ms`;

const slow = slowReceipt();
const read = readReceipt();
const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-receipts-'));
const sb = await startSandbox(join(dir, 'sandbox.json'));
const base = sb.info.base_url;

/** Six uploads of `file` at once — three to shop A's hosted pages, three to shop B's confirm_payment — while the pool shop reads. */
async function sixAtOnce(file) {
  const ops = [];
  for (let i = 0; i < 3; i++)
    ops.push(
      { op: await createPayment(base, KEY.a, true) },
      { op: await createPayment(base, KEY.b, false), key: KEY.b },
    );
  let left = ops.length;
  const t0 = performance.now();
  const uploads = Promise.all(ops.map(({ op, key }) => upload(base, op, file, key).finally(() => left--)));
  const lat = figures(await readLoop(base, () => left === 0));
  return { lat, ms: performance.now() - t0, statuses: (await uploads).map((r) => r.status) };
}

const out = {};
try {
  // Warm-up: the parser's first load, connections.
  const warm = await createPayment(base, KEY.b, false);
  await upload(base, warm, readFileSync(join(root, 'fixtures/receipts/ok-1500.pdf')), KEY.b);
  await readLoop(
    base,
    (
      (n) => () =>
        n-- <= 0
    )(200),
  );

  const t0 = performance.now();
  const idle = figures(await readLoop(base, () => performance.now() - t0 > BASELINE_MS));
  console.log(
    `GET /v1/balances of a third shop, sequential, nothing uploaded: worst ${ms(idle.worst)}, p99 ${ms(idle.p99)}, p50 ${ms(idle.p50)} (${idle.n} reads)`,
  );
  out.idle = idle;
  for (const [name, file, what] of [
    ['slow', slow, 'text PDFs whose check runs to its 5 s budget'],
    ['read', read, 'PDFs read in full (20 pages, ~90,000 characters of text) and stored'],
  ]) {
    const r = await sixAtOnce(file);
    out[name] = { ...r.lat, uploads_ms: Math.round(r.ms) };
    console.log(
      `six ${(file.byteLength / MiB).toFixed(2)} MiB ${what}: 3 via shop A's hosted page + 3 via shop B's confirm_payment, answered in ${(r.ms / 1000).toFixed(1)} s (statuses ${r.statuses.join(' ')})`,
    );
    console.log(
      `  the worst /v1 delay while six maximal receipts are being checked: ${ms(r.lat.worst)} (p99 ${ms(r.lat.p99)}, p50 ${ms(r.lat.p50)}, ${r.lat.n} reads) — ${(r.lat.worst / idle.worst).toFixed(1)} × the worst and ${(r.lat.p99 / idle.p99).toFixed(1)} × the p99 with nothing uploaded`,
    );
  }

  // The case: one payer sends six maximal receipts to one shop's hosted pages; another shop confirms a small receipt.
  const flood = [];
  for (let i = 0; i < 6; i++) flood.push(await createPayment(base, KEY.a, true));
  const file = slow;
  const small = readFileSync(join(root, 'fixtures/receipts/ok-1500.pdf'));
  const alone = await upload(base, await createPayment(base, KEY.b, false), small, KEY.b);
  const floodUploads = flood.map((op) => upload(base, op, file));
  // Shop B's upload starts right after shop A's six (as in the issue).
  const during = await upload(base, await createPayment(base, KEY.b, false), small, KEY.b);
  const floodResults = await Promise.all(floodUploads);
  const refused = floodResults.filter((r) => r.status === 429).length;
  console.log(
    `shop B's confirm_payment of a small receipt while shop A's pages take six maximal uploads: ${ms(during.ms)} (alone: ${ms(alone.ms)}); shop A: ${floodResults.length - refused} checked, ${refused} refused at once with 429`,
  );

  console.log(
    JSON.stringify({
      bench: 'receipts',
      ...out,
      small_confirm_ms: { alone: Math.round(alone.ms), during_flood: Math.round(during.ms) },
      flood: { checked: floodResults.length - refused, refused },
    }),
  );
} finally {
  await stop(sb.child);
  rmSync(dir, { recursive: true, force: true });
}
