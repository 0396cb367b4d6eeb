// Drift faults (docs/faults.md "Drift"): a successful answer changed per endpoint and shop — a field removed, renamed or
// changed, a status out of order, a status the contract does not declare — through the controls, the typed client
// and the CLI's body; bad drift rules are 400 naming what is wrong; the writes behind a drifted answer stand.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faultBody } from '../../src/cli/commands/sandbox/faults/run.js';
import { timeline } from '../../src/cli/ops-show-view.js';
import type { FaultSetOptions } from '../../src/cli/commands/sandbox/faults/define.js';
import { paymentBody, payoutBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { DEFAULT_FIXTURES, parseWorld } from '../../src/world/load.js';

const ADMIN = 'pg_admin_faults_drift_0123456789';
const sandbox = useSandbox({ frozenClock: true, adminToken: ADMIN });
const post = (body: unknown) =>
  sandbox.call('POST', '/sandbox/faults', { key: null, headers: { 'x-admin-token': ADMIN }, body });

describe('drift faults', () => {
  it.each([
    [{ endpoint: 'payout.create', drift: 'remove_field' }, 'field: remove_field needs field'],
    [{ endpoint: 'payout.create', drift: 'remove_field', field: 'a..b' }, 'field: remove_field needs field'],
    [{ endpoint: 'payout.create', drift: 'rename_field', field: 'name' }, 'to: rename_field needs to'],
    [{ endpoint: 'payout.create', drift: 'change_field', field: 'name' }, 'value: change_field needs value'],
    [{ endpoint: 'payout.create', drift: 'remove_field', field: 'name', to: 'x' }, 'to: to goes with rename_field'],
    [{ endpoint: 'payout.create', drift: 'remove_field', field: 'name', value: 1 }, 'value: value goes with'],
    [{ endpoint: 'balances.list', drift: 'out_of_order' }, 'out_of_order needs an endpoint that answers an operation'],
    [
      { endpoint: 'operation.state', drift: 'out_of_order', value: 'paid' },
      'value: with out_of_order: a status, one of',
    ],
    [{ endpoint: 'payout.create', drift: 'extra_status' }, 'status: extra_status needs status'],
    [{ endpoint: 'payout.create', drift: 'extra_status', status: 412 }, 'payout.create declares 200, 400, 401'],
    [{ endpoint: 'health.livez', drift: 'remove_field', field: 'x' }, 'answers without a body: only extra_status'],
    [{ endpoint: 'payout.create', drift: 'sideways' }, 'drift: must be one of remove_field'],
    [{ endpoint: 'payout.create', drift: 'out_of_order', latency_ms: 5 }, 'give a drift alone'],
    [{ endpoint: 'payout.create', drift: 'out_of_order', code: 'x' }, 'code: code goes with a status fault'],
  ])('400 for %j', async (body, says) => {
    const r = await post(body);
    expect([r.status, r.body.code]).toEqual([400, 'validation_error']);
    expect(r.body.message).toContain(says);
    expect((await sandbox.admin.sandbox.faults.list()).faults).toEqual([]);
  });

  it('removes, renames and changes fields of one shop’s answers; the write behind the answer stands', async () => {
    const f = sandbox.admin.sandbox.faults;
    const removed = await f.add({
      endpoint: 'payout.create',
      drift: 'remove_field',
      field: 'settlement_amount',
      shop_id: 'shop_a',
    });
    expect(removed).toMatchObject({
      kind: 'drift',
      drift: 'remove_field',
      field: 'settlement_amount',
      shop_id: 'shop_a',
    });
    await f.add({ endpoint: 'payment.create', drift: 'rename_field', field: 'commission_amount', to: 'fee', count: 1 });
    await f.add({ endpoint: 'balances.list', drift: 'change_field', field: 'balances.*.reserved', value: '7.00' });
    const a = await sandbox.call('POST', '/v1/payout', { body: payoutBody() });
    expect(a.status).toBe(200);
    expect(a.body.settlement_amount).toBeUndefined();
    const b = await sandbox.call('POST', '/v1/payout', { key: sandbox.keyOf('shop_b'), body: payoutBody() });
    expect(b.body.settlement_amount).toBeDefined();
    const p = await sandbox.call('POST', '/v1/payment', { body: paymentBody() });
    expect([p.body.fee, p.body.commission_amount]).toEqual(['37.50', undefined]);
    expect((await sandbox.call('POST', '/v1/payment', { body: paymentBody() })).body.commission_amount).toBe('37.50');
    const bal = await sandbox.call('GET', '/v1/balances');
    expect(bal.body.balances.every((r: { reserved: string }) => r.reserved === '7.00')).toBe(true);
    // The payout was created all the same: its state read is not drifted.
    const state = await sandbox.call('POST', '/v1/get_operation_state', {
      body: { operation_id: a.body.operation_id },
    });
    expect(state.body.settlement_amount).toBeDefined();
    const list = (await f.list()).faults;
    expect(list.map((x) => [x.kind, x.fired])).toEqual([
      ['drift', 1],
      ['drift', 1],
      ['drift', 1],
    ]);
  });

  it('out_of_order shows a completed payment pending, once; history lists the drift on the operation', async () => {
    const p = await sandbox.call('POST', '/v1/payment', { body: paymentBody() });
    const id = p.body.operation_id as string;
    await sandbox.call('POST', `/sandbox/operations/${id}/pay`, { body: {} });
    const fault = await sandbox.admin.sandbox.faults.add({
      endpoint: 'operation.state',
      drift: 'out_of_order',
      count: 1,
    });
    const read = () => sandbox.call('POST', '/v1/get_operation_state', { body: { operation_id: id } });
    expect((await read()).body.status).toBe('pending');
    expect((await read()).body.status).toBe('completed');
    const details = await sandbox.call('GET', `/sandbox/operations/${id}`, {
      key: null,
      headers: { 'x-admin-token': ADMIN },
    });
    expect(details.body.faults).toMatchObject([{ fault_id: fault.id, kind: 'drift', drift: 'out_of_order' }]);
  });

  it('out_of_order does not fire on an answer already in the status it would show', async () => {
    await sandbox.admin.sandbox.faults.add({ endpoint: 'payment.create', drift: 'out_of_order', value: 'pending' });
    expect((await sandbox.call('POST', '/v1/payment', { body: paymentBody() })).body.status).toBe('pending');
    expect((await sandbox.admin.sandbox.faults.list()).faults[0]).toMatchObject({ matched: 0, fired: 0 });
  });

  it('extra_status answers a status the contract does not declare, with the body and the fault header', async () => {
    const fault = await sandbox.admin.sandbox.faults.add({
      endpoint: 'payment.create',
      drift: 'extra_status',
      status: 202,
    });
    await sandbox.admin.sandbox.faults.add({ endpoint: 'health.livez', drift: 'extra_status', status: 299 });
    const r = await sandbox.call('POST', '/v1/payment', { body: paymentBody() });
    expect([r.status, r.headers.get('x-paygate-fault'), r.body.status]).toEqual([202, fault.id, 'pending']);
    expect((await sandbox.call('GET', '/livez', { key: null })).status).toBe(299);
  });

  it('the timeline of paygate ops show names a drift, not a dropped response', async () => {
    const p = await sandbox.call('POST', '/v1/payment', { body: paymentBody() });
    await sandbox.admin.sandbox.faults.add({ endpoint: 'operation.state', drift: 'out_of_order', value: 'rejected' });
    await sandbox.call('POST', '/v1/get_operation_state', { body: { operation_id: p.body.operation_id } });
    const details = await sandbox.admin.sandbox.operations.details({ operation_id: p.body.operation_id });
    const text = timeline(details);
    expect(text).toMatch(/operation\.state: drift out_of_order \(flt_1\)/);
    expect(text).not.toContain('response dropped');
  });

  it("the fixtures' faults take a drift, checked with the JSON path at fault", () => {
    const raw = () => JSON.parse(readFileSync(DEFAULT_FIXTURES, 'utf8')) as Record<string, unknown>;
    const drift = { endpoint: 'operation.state', drift: 'out_of_order', shop_id: 'shop_a' };
    expect(() => parseWorld({ ...raw(), faults: [drift] }, 'f.json')).not.toThrow();
    expect(() =>
      parseWorld({ ...raw(), faults: [{ endpoint: 'balances.list', drift: 'extra_status', status: 500 }] }, 'f.json'),
    ).toThrow('$.faults[0].status: balances.list declares');
  });

  it('the CLI builds the same body from its flags (--value as JSON, else text)', () => {
    const base: FaultSetOptions = { endpoint: 'balances.list', dropResponse: false, replace: false, json: false };
    expect(
      faultBody({ ...base, drift: 'change_field', field: 'balances.0.current_minus', value: '"9.99"', shop: 'shop_a' }),
    ).toEqual({
      endpoint: 'balances.list',
      drift: 'change_field',
      field: 'balances.0.current_minus',
      value: '9.99',
      shop_id: 'shop_a',
    });
    expect(faultBody({ ...base, endpoint: 'operation.state', drift: 'out_of_order', value: 'pending' })).toMatchObject({
      value: 'pending',
    });
    expect(() => faultBody({ ...base, drift: 'rename_field', field: 'balances' })).toThrow(
      /--to: rename_field needs --to/,
    );
  });
});
