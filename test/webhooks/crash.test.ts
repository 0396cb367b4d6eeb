// The outbox survives SIGKILL: every event of an acknowledged change is delivered after the sandbox comes back.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it, vi } from 'vitest';
import { KEY_A } from '../helpers/harness.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { closedPort, startReceiver } from './receiver.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

const CHILD = new URL('./child-sandbox.mjs', import.meta.url).pathname;

// Every wait below is on an event (the child's first line, a request's arrival) and the retry is driven by the
// sandbox clock; what takes time is starting two Node processes, which on a loaded machine is seconds, as for the
// CLI's subprocess tests.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

async function start(
  store: string,
  webhookUrl: string,
): Promise<{ child: ChildProcess; baseUrl: string; secret: string }> {
  const child = spawn(process.execPath, [CHILD, store, webhookUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  const info = JSON.parse(line) as { base_url: string; webhook_secret: string };
  return { child, baseUrl: info.base_url, secret: info.webhook_secret };
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGKILL');
  return gone;
}

const defer = useCleanup();

it('deliveries pending when the sandbox is SIGKILLed are delivered after it restarts', async () => {
  const dir = tempDir(defer, 'paygate-wh-crash-');
  const store = join(dir, 'sandbox.json');
  const port = await closedPort();
  const hook = `http://127.0.0.1:${port}/hooks`;
  const first = await start(store, hook);
  defer(() => kill(first.child));
  const acknowledged: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${first.baseUrl}/v1/payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY_A },
      body: JSON.stringify({
        merchant_operation_id: `wh-crash-${i}`,
        client_id: 'c',
        method: 'WT_RUB_C2C',
        amount: '100.00',
        currency: 'RUB',
      }),
    });
    expect(res.status).toBe(200);
    acknowledged.push(((await res.json()) as { operation_id: string }).operation_id);
  }
  await kill(first.child);

  const rx = await startReceiver(undefined, port);
  defer(() => rx.close());
  const second = await start(store, hook);
  defer(() => kill(second.child));
  expect(second.secret).toBe(first.secret);
  // The next attempt is due 5 s of sandbox time after the first (failed or never made) one.
  const adv = await fetch(`${second.baseUrl}/sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': 'pg_admin_test_token' },
    body: JSON.stringify({ by: '5s' }),
  });
  expect(adv.status).toBe(200);
  const got = new Set<string>();
  while (got.size < acknowledged.length) {
    const r = await rx.next();
    // webhook-timestamp is wall time, whatever the (frozen, advanced) sandbox clock says: the default `now` verifies it.
    const ev = verifyWebhook(r.body, r.headers as Record<string, string>, second.secret);
    expect(ev.type).toBe('operation.pending');
    got.add(ev.data.operation.operation_id);
  }
  expect([...got].sort()).toEqual([...acknowledged].sort());
});
