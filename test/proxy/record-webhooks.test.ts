// paygate proxy --record with --forward-webhooks-to: each verified webhook the proxy forwarded is expected
// (`expect.webhooks`) on the recorded step that makes its operation enter the status it announces — the create, the
// sandbox control inserted for the payer's payment, the cancel — and the file replays green against a fresh sandbox.
// A forged delivery, an operation no recorded step touched and a move nothing read afterwards are left out, counted
// in the header comment (and, unit by unit, a redelivery counted once, a step whose list is unknown left out).
// Without forwarding, no webhooks expectation is written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { createConformanceChecker } from '../../src/conformance/index.js';
import { createRecorder } from '../../src/proxy/record.js';
import { attributeWebhooks, LEFT_OUT } from '../../src/proxy/record-webhooks.js';
import { createProxy } from '../../src/proxy/server.js';
import { loadScenarioFile } from '../../src/scenarios/load.js';
import { runOneScenario } from '../../src/scenarios/run-scenario.js';
import { startSandbox, type TestSandbox } from '../../src/testing/index.js';
import { signature } from '../../src/webhooks/index.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';
import { startReceiver } from '../webhooks/receiver.js';

vi.setConfig({ testTimeout: 60_000 });
const defer = useCleanup();

type Body = Record<string, unknown> & { operation_id: string; status: string };

/** A sandbox upstream delivering its webhooks to the proxy, which forwards them to a local receiver. */
async function rig(forward: boolean) {
  let hookUrl = '';
  const sb = await startSandbox({
    forwardWebhooksTo: async (req: Request) => {
      if (!hookUrl) return new Response(null, { status: 204 });
      return fetch(hookUrl, { method: 'POST', headers: req.headers, body: Buffer.from(await req.arrayBuffer()) });
    },
  });
  defer(() => sb.close());
  const hooks = await startReceiver(() => ({ status: 204 }));
  defer(() => hooks.close());
  const recorder = createRecorder({ upstream: new URL(sb.baseUrl), webhooks: forward });
  const proxy = createProxy({
    upstream: new URL(sb.baseUrl),
    checker: createConformanceChecker(),
    ...(forward ? { webhooks: { forwardTo: new URL(hooks.url), secret: sb.webhookSecret } } : {}),
    onExchange: (p) => recorder.add(p),
    onWebhook: (d) => recorder.addWebhook(d),
  });
  const { url } = await proxy.listen({ port: 0 });
  defer(() => proxy.close());
  if (forward) hookUrl = `${url}/proxy/webhooks`;
  return { sb, url, hooks, recorder };
}

async function post(url: string, sb: TestSandbox, path: string, body: unknown): Promise<Body> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': sb.keys.shop_a!, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Body;
}

const payment = (moid: string) => ({
  merchant_operation_id: moid,
  client_id: 'ivan',
  amount: '900.00',
  method: 'WT_RUB_C2C',
  currency: 'RUB',
});

/** Paid and read, created and cancelled, paid and never read again; one payment made beside the proxy; a forgery. */
async function traffic(r: Awaited<ReturnType<typeof rig>>): Promise<void> {
  const { sb, url } = r;
  const paid = await post(url, sb, '/v1/payment', payment('order-paid'));
  await sb.pay(paid.operation_id);
  await sb.sandbox.webhooks.idle();
  expect((await post(url, sb, '/v1/get_operation_state', { operation_id: paid.operation_id })).status).toBe(
    'completed',
  );
  const cancelled = await post(url, sb, '/v1/payment', payment('order-cancelled'));
  const answer = await post(url, sb, '/v1/cancel_operation', { operation_id: cancelled.operation_id, reason: 'x' });
  expect((answer.operation as Body).status).toBe('cancelled');
  const unread = await post(url, sb, '/v1/payment', payment('order-unread'));
  await sb.pay(unread.operation_id);
  await post(sb.baseUrl, sb, '/v1/payment', payment('beside-the-proxy'));
  await sb.sandbox.webhooks.idle();
  const forged = JSON.stringify({
    id: 'evt_forged',
    type: 'operation.completed',
    created_at: new Date().toISOString(),
    data: { operation: { ...cancelled, status: 'completed' } },
  });
  const ts = Math.floor(Date.now() / 1000);
  const hook = await fetch(`${url}/proxy/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': 'evt_forged',
      'webhook-timestamp': String(ts),
      'webhook-signature': signature(
        'whsec_' + Buffer.from('not the secret').toString('base64'),
        'evt_forged',
        ts,
        forged,
      ),
    },
    body: forged,
  });
  expect(hook.status).toBe(400);
}

interface StepOut {
  name?: string;
  call?: string;
  expect?: { webhooks?: string[] };
}

describe('paygate proxy --record with --forward-webhooks-to', () => {
  it('expects each verified webhook on the step that causes it, and replays green against a fresh sandbox', async () => {
    const dir = tempDir(defer);
    const r = await rig(true);
    await traffic(r);
    expect(r.hooks.received.length).toBeGreaterThanOrEqual(6);
    const file = join(dir, 'hooks.yaml');
    await r.recorder.write(file);
    const text = readFileSync(file, 'utf8');
    const steps = (parse(text) as { steps: StepOut[] }).steps;
    const hooked = steps.map((s) => [s.call ?? 'wait_for', s.expect?.webhooks]);
    expect(hooked).toEqual([
      ['payment.create', ['operation.pending']],
      ['operations.pay', ['operation.completed']],
      ['operation.state', undefined],
      ['payment.create', ['operation.pending']],
      ['operation.cancel', ['operation.cancelled']],
      ['payment.create', ['operation.pending']],
    ]);
    expect(text).toContain('# Webhooks: 7 distinct events verified and forwarded; 5 are expected');
    expect(text).toContain('#   1: their signature failed verification');
    expect(text).toContain('#   1: their operation was not touched by a recorded step');
    expect(text).toContain('#   1: no recorded step makes the move they announce');
    // Replayed by the scenario runner in a fresh in-process sandbox, its receiver behind the webhook dispatcher (a
    // test sandbox started by startSandbox() hands deliveries to its own helper, not to an endpoint a run registers).
    const result = await runOneScenario(await loadScenarioFile(file));
    const failed = result.steps.filter((s) => s.status === 'failed');
    expect(failed.map((s) => `${s.label}: ${s.error ?? JSON.stringify(s.mismatches)}`)).toEqual([]);
    expect(result.steps.map((s) => s.webhooks)).toEqual(hooked.map(([, w]) => w ?? []));
    expect(result.status).toBe('passed');
  });

  it('writes no webhooks expectation without forwarding', async () => {
    const dir = tempDir(defer);
    const r = await rig(false);
    const paid = await post(r.url, r.sb, '/v1/payment', payment('order-paid'));
    await r.sb.pay(paid.operation_id);
    await post(r.url, r.sb, '/v1/get_operation_state', { operation_id: paid.operation_id });
    const file = join(dir, 'plain.yaml');
    await r.recorder.write(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('webhooks');
    expect(text).not.toContain('Webhooks');
  });
});

describe('attributeWebhooks: what is left out', () => {
  const delivery = (seq: number, id: string, op: string, status: string, at = '2026-01-01T00:00:00.000Z') => ({
    seq,
    startedAt: at,
    durationMs: 1,
    headers: {},
    signature: 'valid' as const,
    status: 204,
    body: { id, type: `operation.${status}`, created_at: at, data: { operation: { operation_id: op, status } } },
  });

  it('counts a redelivered event once, and leaves the whole step out when an earlier event of it cannot be placed', () => {
    const create: Record<string, unknown> = { call: 'payment.create', expect: { status: 200 } };
    const other: Record<string, unknown> = { call: 'payment.create', expect: { status: 200 } };
    const moves = [
      { operation: 'op-1', status: 'rejected', step: create },
      { operation: 'op-2', status: 'pending', step: other },
    ];
    const a = attributeWebhooks(
      [
        // op-1 passed through pending within the create, which answered rejected: its replay sends both.
        delivery(2, 'e1', 'op-1', 'pending'),
        delivery(3, 'e2', 'op-1', 'rejected'),
        delivery(5, 'e3', 'op-2', 'pending'),
        delivery(6, 'e3', 'op-2', 'pending'),
      ],
      moves,
      new Set(['op-1', 'op-2']),
    );
    expect(create.expect).toEqual({ status: 200 });
    expect(other.expect).toEqual({ status: 200, webhooks: ['operation.pending'] });
    expect(a.events).toBe(3);
    expect(a.attributed).toBe(1);
    expect([...a.leftOut]).toEqual([
      [LEFT_OUT.unreproduced, 1],
      [LEFT_OUT.incomplete, 1],
    ]);
  });
});
