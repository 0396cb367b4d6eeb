// paygate proxy --record (issue 27 §2): what passed through becomes a scenario file that replays green against a
// fresh sandbox — payment paid, payout settled, a link paid, a cancel, a receipt, another shop's key, an idempotent
// replay and a conflict, the 401s, an exchange the sandbox cannot reproduce (marked skip, reported skipped). No key,
// card number, phone, name or client id of the traffic is in the file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createConformanceChecker } from '../../src/conformance/index.js';
import { createRecorder } from '../../src/proxy/record.js';
import { createProxy } from '../../src/proxy/server.js';
import { loadScenarioFile } from '../../src/scenarios/load.js';
import { runOneScenario } from '../../src/scenarios/run-scenario.js';
import { startSandbox, type TestSandbox } from '../../src/testing/index.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';

vi.setConfig({ testTimeout: 60_000 });
const defer = useCleanup();

type Body = Record<string, unknown> & { operation_id: string; status: string };

/** A client of the gateway through the proxy, with one shop's key. */
function gateway(base: string, key: string | undefined) {
  const headers = (extra: Record<string, string> = {}) => ({ ...(key ? { 'x-api-key': key } : {}), ...extra });
  return {
    async post(path: string, body: unknown): Promise<{ status: number; body: Body }> {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Body };
    },
    async get(path: string): Promise<{ status: number; body: unknown }> {
      const res = await fetch(`${base}${path}`, { headers: headers() });
      return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as unknown) };
    },
    async upload(operationId: string, file: Buffer): Promise<{ status: number; body: Body }> {
      const form = new FormData();
      form.set('operation_id', operationId);
      form.set('confirmation_type', 'receipt');
      form.set('receipt', new Blob([file], { type: 'application/pdf' }), 'Ivanov receipt.pdf');
      const res = await fetch(`${base}/v1/confirm_payment`, { method: 'POST', headers: headers(), body: form });
      return { status: res.status, body: (await res.json()) as Body };
    },
  };
}

const state = (g: ReturnType<typeof gateway>, id: string) => g.post('/v1/get_operation_state', { operation_id: id });

/** The traffic of a merchant's integration, through the proxy; the payer, provider and clock act on the sandbox. */
async function traffic(sb: TestSandbox, url: string): Promise<void> {
  const a = gateway(url, sb.keys.shop_a);
  const b = gateway(url, sb.keys.shop_b);
  const card = { method: 'WT_RUB_C2C', currency: 'RUB', number: '4276123456789012', name: 'MARIA SIDOROVA' };
  // A payment the payer pays.
  const paid = await a.post('/v1/payment', {
    merchant_operation_id: 'shop-order-1',
    client_id: 'maria.sidorova@example.com',
    amount: '1500.00',
    ...card,
  });
  expect(paid.body.status).toBe('pending');
  await sb.pay(paid.body.operation_id);
  expect((await state(a, paid.body.operation_id)).body.status).toBe('completed');
  // The same create again (idempotent), and another body under the same id (412).
  expect(
    (
      await a.post('/v1/payment', {
        merchant_operation_id: 'shop-order-1',
        client_id: 'maria.sidorova@example.com',
        amount: '1500.00',
        ...card,
      })
    ).body.operation_id,
  ).toBe(paid.body.operation_id);
  expect(
    (
      await a.post('/v1/payment', {
        merchant_operation_id: 'shop-order-1',
        client_id: 'maria.sidorova@example.com',
        amount: '1600.00',
        ...card,
      })
    ).status,
  ).toBe(412);
  // A payout the provider settles.
  const payout = await a.post('/v1/payout', {
    merchant_operation_id: 'shop-payout-1',
    client_id: 'petr',
    amount: '1000.00',
    method: 'WT_RUB_PHONE',
    currency: 'RUB',
    number: '+79161112233',
    bankname: 'sber',
    name: 'PETR PETROV',
  });
  expect(payout.body.status).toBe('pending');
  await sb.settle(payout.body.operation_id);
  expect((await state(a, payout.body.operation_id)).body.status).toBe('completed');
  // A hosted link, paid.
  const link = await a.post('/v1/payment/link', {
    merchant_operation_id: 'shop-link-1',
    client_id: 'ivan',
    amount: '2000.00',
    method: 'WT_RUB_C2C',
    currency: 'RUB',
  });
  expect(link.body.payment_url).toBeTruthy();
  await sb.pay(link.body.operation_id);
  expect((await a.post('/v1/get_operation_state', { merchant_operation_id: 'shop-link-1' })).body.status).toBe(
    'completed',
  );
  // A cancel.
  const cancel = await a.post('/v1/payment', {
    merchant_operation_id: 'shop-order-2',
    client_id: 'ivan',
    amount: '700.00',
    method: 'WT_RUB_C2C',
    currency: 'RUB',
  });
  expect(
    (await a.post('/v1/cancel_operation', { operation_id: cancel.body.operation_id, reason: 'customer changed mind' }))
      .status,
  ).toBe(200);
  expect((await state(a, cancel.body.operation_id)).body.status).toBe('cancelled');
  // A receipt.
  const receipt = await a.post('/v1/payment', {
    merchant_operation_id: 'shop-order-3',
    client_id: 'ivan+receipt',
    amount: '1500.00',
    method: 'WT_RUB_C2C',
    currency: 'RUB',
  });
  expect(receipt.body.status).toBe('awaiting_confirmation');
  const pdf = readFileSync(new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url));
  expect((await a.upload(receipt.body.operation_id, pdf)).body.status).toBe('completed');
  // Another shop's key, the health probes, the 401s, and a path no endpoint has.
  expect((await b.get('/v1/balances')).status).toBe(200);
  expect((await a.get('/livez')).status).toBeLessThan(300);
  expect((await gateway(url, 'pg_test_not_a_real_key_123').get('/v1/balances')).status).toBe(401);
  expect((await gateway(url, undefined).get('/v1/balances')).status).toBe(401);
  expect((await a.get('/v1/no_such_endpoint')).status).toBe(404);
}

describe('paygate proxy --record', () => {
  it('records a replayable scenario: it replays green against a fresh sandbox, with the skipped steps named', async () => {
    const dir = tempDir(defer);
    const upstream = await startSandbox();
    defer(() => upstream.close());
    const recorder = createRecorder({ upstream: new URL(upstream.baseUrl) });
    const proxy = createProxy({
      upstream: new URL(upstream.baseUrl),
      checker: createConformanceChecker(),
      captureLimit: 16 * 1024 * 1024,
      onExchange: (p) => recorder.add(p),
    });
    const { url } = await proxy.listen();
    defer(() => proxy.close());
    await traffic(upstream, url);
    const file = join(dir, 'flows.yaml');
    const written = await recorder.write(file);
    const text = readFileSync(file, 'utf8');
    // Nothing secret or personal.
    for (const secret of [
      ...Object.values(upstream.keys),
      'pg_test_not_a_real_key_123',
      '4276123456789012',
      '+79161112233',
      'MARIA',
      'PETR PETROV',
      'maria.sidorova',
      'shop-order-1',
      'Ivanov',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('→ shop_a: the first key seen');
    expect(text).toContain('→ shop_b: the second key seen');
    expect(text).toContain('call: operations.pay');
    expect(text).toContain('call: operations.settle');
    expect(text).toContain('client_id: client-3+receipt');
    expect(written.skipped).toBe(1);
    // Replayed against a fresh sandbox, as `paygate scenario run <file> --base-url … --admin-token …` does.
    const fresh = await startSandbox();
    defer(() => fresh.close());
    const scenario = await loadScenarioFile(file);
    const result = await runOneScenario(scenario, { remote: { baseUrl: fresh.baseUrl, adminToken: fresh.adminToken } });
    const failed = result.steps.filter((s) => s.status === 'failed');
    expect(failed.map((s) => `${s.label}: ${s.error ?? JSON.stringify(s.mismatches)}`)).toEqual([]);
    expect(result.status).toBe('passed');
    const skipped = result.steps.filter((s) => s.status === 'skipped');
    expect(skipped.map((s) => s.reason)).toEqual(['GET /v1/no_such_endpoint: no endpoint of the contract']);
    expect(result.steps.filter((s) => s.status === 'passed').length).toBe(result.steps.length - 1);
  });

  it('maps a key to the shop a paygate upstream names for it, not to the first shop by order', async () => {
    const dir = tempDir(defer);
    const upstream = await startSandbox();
    defer(() => upstream.close());
    let proxy: ReturnType<typeof createProxy> | undefined;
    const recorder = createRecorder({
      upstream: new URL(upstream.baseUrl),
      shopOf: (id, key) => proxy!.shopOf(id, key),
    });
    proxy = createProxy({ upstream: new URL(upstream.baseUrl), onExchange: (p) => recorder.add(p) });
    const { url } = await proxy.listen();
    defer(() => proxy!.close());
    const b = gateway(url, upstream.keys.shop_b);
    const op = await b.post('/v1/payment', {
      merchant_operation_id: 'b-1',
      client_id: 'x',
      amount: '500.00',
      method: 'WT_RUB_C2C',
      currency: 'RUB',
    });
    // The payer pays (shop B's operation: the control takes shop B's key).
    const paid = await fetch(`${upstream.baseUrl}/sandbox/operations/${op.body.operation_id}/pay`, {
      method: 'POST',
      headers: { 'x-api-key': upstream.keys.shop_b!, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(200);
    expect((await state(b, op.body.operation_id)).body.status).toBe('completed');
    const file = join(dir, 'b.yaml');
    await recorder.write(file);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('→ shop_b: the shop the upstream (a paygate) named');
    expect(text).toContain('shop: shop_b');
    const fresh = await startSandbox();
    defer(() => fresh.close());
    const result = await runOneScenario(await loadScenarioFile(file), {
      remote: { baseUrl: fresh.baseUrl, adminToken: fresh.adminToken },
    });
    expect(result.steps.map((st) => st.status)).toEqual(['passed', 'passed', 'passed']);
    expect(result.status).toBe('passed');
  });
});
