// paygate proxy against a sandbox that drifts on purpose (the fault injector's drift faults, issue 27 §4): each drift
// is reported live by its rule, with the exchange it was seen on; the same traffic with no fault reports nothing.
import { describe, expect, it } from 'vitest';
import { createConformanceChecker } from '../../src/conformance/index.js';
import type { Violation } from '../../src/conformance/types.js';
import { createProxy } from '../../src/proxy/server.js';
import { startSandbox, type TestSandbox } from '../../src/testing/index.js';
import { useCleanup } from '../helpers/cleanup.js';

const defer = useCleanup();

async function setup(): Promise<{ sb: TestSandbox; url: string; live: Violation[] }> {
  const sb = await startSandbox();
  defer(() => sb.close());
  const live: Violation[] = [];
  const proxy = createProxy({
    upstream: new URL(sb.baseUrl),
    checker: createConformanceChecker(),
    onViolation: (v) => live.push(v),
  });
  const { url } = await proxy.listen();
  defer(() => proxy.close());
  return { sb, url, live };
}

async function fault(sb: TestSandbox, rule: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sb.baseUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'x-admin-token': sb.adminToken, 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(res.status).toBe(201);
}

/** A payment created, paid, read twice (`between` the reads); the balances read. */
async function traffic(sb: TestSandbox, url: string, between: () => Promise<void> = async () => {}): Promise<void> {
  const headers = { 'x-api-key': sb.keys.shop_a!, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) =>
    (await (await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
      operation_id: string;
    };
  const op = await post('/v1/payment', {
    merchant_operation_id: `d-${Math.random()}`,
    client_id: 'dora',
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
  });
  await sb.pay(op.operation_id);
  await post('/v1/get_operation_state', { operation_id: op.operation_id });
  await between();
  await post('/v1/get_operation_state', { operation_id: op.operation_id });
  await fetch(`${url}/v1/balances`, { headers });
}

describe('paygate proxy against a drifting sandbox', () => {
  it('stays quiet when the sandbox does not drift', async () => {
    const { sb, url, live } = await setup();
    await traffic(sb, url);
    expect(live).toEqual([]);
  });

  it('names each drift by its rule as it is seen: a field removed, a status out of order, an undeclared status', async () => {
    const { sb, url, live } = await setup();
    await fault(sb, { endpoint: 'payment.create', drift: 'remove_field', field: 'expected_amount' });
    await fault(sb, { endpoint: 'balances.list', drift: 'extra_status', status: 418 });
    // The payment is read completed, then (drifting) pending again.
    await traffic(sb, url, () => fault(sb, { endpoint: 'operation.state', drift: 'out_of_order' }));
    const rules = live.map((v) => `${v.rule} ${v.endpoint} #${v.exchange}`);
    expect(rules).toContain('response.missing_field payment.create #1');
    expect(rules).toContain('state.illegal_move operation.state #3');
    expect(rules).toContain('response.undeclared_status balances.list #4');
    expect(live.filter((v) => v.exchange === 2)).toEqual([]);
    for (const v of live) {
      expect(v.expected).toMatch(/^expected /);
      expect(v.got).toMatch(/^got /);
    }
  });
});
