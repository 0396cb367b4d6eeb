// The delivery worker thread is a compiled module loaded by URL (dist/emulator/webhook-outbox/delivery-thread.js): it must
// start from the packed tarball as a user installs it (no standardwebhooks, no esbuild, no src/), deliver, and sign
// what the independent Standard Webhooks verifier accepts. Also from src/ under vitest (webhooks.test.ts, the
// esbuild path) and from the CLI bundle (test/bench/webhook-cpu.mjs, crash.test.ts through dist/).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { installConsumer, packOnce } from '../package/install.js';
import { startReceiver, type Receiver } from './receiver.js';

let dir: string;
let consumer: string;
let rx: Receiver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-hooks-pack-'));
  consumer = join(dir, 'consumer');
  installConsumer(consumer, (await packOnce(dir)).tarball, []);
  rx = await startReceiver();
}, 120_000);

afterAll(async () => {
  await rx?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('an installed sandbox delivers through its worker thread, signed as Standard Webhooks verifies', async () => {
  // One payment created in-process (no listen), delivered by the worker thread to the receiver.
  const script = `import { createSandbox } from 'paygate/emulator';
const sb = await createSandbox({ webhookUrl: ${JSON.stringify(`${rx.url}/hook`)}, log: (l) => process.stderr.write(l + '\\n') });
const shop = sb.demo.shops[0];
const r = await sb.fetch(new Request('http://sandbox.local/v1/payment', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': shop.api_key },
  body: JSON.stringify({ merchant_operation_id: 'installed-1', client_id: 'c1', method: 'WT_RUB_C2C', amount: '100.00', currency: 'RUB' }) }));
if (r.status !== 201 && r.status !== 200) throw new Error('create answered ' + r.status + ' ' + await r.text());
await sb.webhooks.idle();
process.stdout.write(JSON.stringify({ secret: sb.webhookSecret, deliveries: sb.webhooks.deliveries(shop.id).map((d) => d.status) }));
await sb.close();`;
  writeFileSync(join(consumer, 'deliver.mjs'), script);
  // Asynchronously: the receiver answers from this process.
  const { stdout } = await promisify(execFile)(process.execPath, ['deliver.mjs'], {
    cwd: consumer,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const out = JSON.parse(stdout) as { secret: string; deliveries: string[] };
  expect(out.deliveries).toEqual(['succeeded']);
  expect(rx.received).toHaveLength(1);
  const got = rx.received[0]!;
  vi.useFakeTimers({ toFake: ['Date'], now: Number(got.headers['webhook-timestamp']) * 1000 });
  try {
    const h = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect((new Webhook(out.secret).verify(got.body, h) as { type: string }).type).toBe('operation.pending');
  } finally {
    vi.useRealTimers();
  }
}, 120_000);
