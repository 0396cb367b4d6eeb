// Each kind of rule on a real in-process sandbox: the drift injector (or a request the gateway refuses) makes it fire
// on the exchanges the sandbox really answered, and the same calls without the drift stay quiet.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConformanceChecker, type ConformanceChecker } from '../../src/conformance/index.js';
import { harness, KEY_A, KEY_B, paymentBody, payoutBody, type Harness } from '../helpers/harness.js';
import { checkedFetch } from './capture.js';

const ADMIN = 'pg_admin_conformance_sandbox_0123456789';

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

describe('conformance rules against a drifting sandbox', () => {
  let h: Harness;
  let checker: ConformanceChecker;
  let send: (r: Request) => Promise<Response>;
  beforeEach(async () => {
    h = await harness('in-process', { adminToken: ADMIN, frozenClock: true });
    checker = createConformanceChecker();
    send = checkedFetch(checker, (r) => h.sandbox.fetch(r));
  });
  afterEach(() => h.close());

  /** A gateway call through the checker. */
  async function call(method: string, path: string, body?: unknown, key: string | null = KEY_A): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (key !== null) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await send(
      new Request(`http://paygate.local${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  /** A fault added through the controls (not through the checker). */
  async function fault(body: Record<string, unknown>): Promise<void> {
    const r = await h.call('POST', '/sandbox/faults', { key: null, headers: { 'x-admin-token': ADMIN }, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }

  const rules = () => [...new Set(checker.violations.map((v) => v.rule))].sort();

  async function paidPayment(): Promise<string> {
    const { body } = await call('POST', '/v1/payment', paymentBody());
    await h.call('POST', `/sandbox/operations/${body.operation_id}/pay`, { body: {} });
    return body.operation_id as string;
  }

  it('request: what the gateway refuses fires; a valid request is quiet', async () => {
    expect((await call('POST', '/v1/payment', paymentBody({ shop_id: 'shop_a' }))).status).toBe(400);
    expect((await call('POST', '/v1/payment', paymentBody({ amount: '1.005' }))).status).toBe(400);
    expect(rules()).toEqual(['request.amount', 'request.scope_field']);
    checker = createConformanceChecker();
    send = checkedFetch(checker, (r) => h.sandbox.fetch(r));
    expect((await call('POST', '/v1/payment', paymentBody())).status).toBe(200);
    expect(checker.violations).toEqual([]);
  });

  it('response: a field removed, renamed or added, a status the contract does not declare — for one shop only', async () => {
    await fault({ endpoint: 'payout.create', drift: 'remove_field', field: 'settlement_amount', shop_id: 'shop_a' });
    await fault({ endpoint: 'payment.create', drift: 'rename_field', field: 'commission_amount', to: 'fee', count: 1 });
    await fault({ endpoint: 'balances.list', drift: 'extra_status', status: 202, shop_id: 'shop_a' });
    expect((await call('POST', '/v1/payout', payoutBody())).body.settlement_amount).toBeUndefined();
    expect((await call('POST', '/v1/payment', paymentBody())).body.fee).toBeDefined();
    expect((await call('GET', '/v1/balances')).status).toBe(202);
    expect(rules()).toEqual(['response.missing_field', 'response.undeclared_status', 'response.unknown_field']);
    const before = checker.violations.length;
    // shop_b is not drifted, and the rename was for one request only.
    await call('POST', '/v1/payout', payoutBody({ method: 'WT_RUB_C2C' }), KEY_B);
    await call('GET', '/v1/balances', undefined, KEY_B);
    await call('POST', '/v1/payment', paymentBody());
    expect(checker.violations.slice(before)).toEqual([]);
  });

  it("auth: a 401 with the other case's message fires; the sandbox's own 401s are quiet", async () => {
    expect((await call('GET', '/v1/balances', undefined, null)).status).toBe(401);
    expect((await call('GET', '/v1/balances', undefined, 'pg_nope')).status).toBe(401);
    expect(checker.violations).toEqual([]);
    await fault({ endpoint: 'balances.list', status: 401, code: 'missing_api_key' });
    await call('GET', '/v1/balances');
    expect(rules()).toEqual(['auth.message']);
  });

  it('state: a completed payment reported pending fires; the true status is quiet', async () => {
    const id = await paidPayment();
    expect((await call('POST', '/v1/get_operation_state', { operation_id: id })).body.status).toBe('completed');
    expect(checker.violations).toEqual([]);
    await fault({ endpoint: 'operation.state', drift: 'out_of_order', count: 1 });
    expect((await call('POST', '/v1/get_operation_state', { operation_id: id })).body.status).toBe('pending');
    // A completed payment's recorded_* and receipts beside a pending status are drift of their own.
    expect(rules()).toEqual([
      'evidence.before_completed',
      'evidence.status',
      'presence.recorded',
      'state.illegal_move',
    ]);
  });

  it('presence: recorded_amount on a pending payment fires', async () => {
    await call('POST', '/v1/payment', paymentBody());
    expect(checker.violations).toEqual([]);
    await fault({ endpoint: 'payment.create', drift: 'change_field', field: 'recorded_amount', value: '1500.00' });
    await call('POST', '/v1/payment', paymentBody());
    expect(rules()).toEqual(['presence.recorded']);
  });

  it('money: a payout whose settlement is not amount + commission fires', async () => {
    await call('POST', '/v1/payout', payoutBody());
    expect(checker.violations).toEqual([]);
    await fault({ endpoint: 'payout.create', drift: 'change_field', field: 'settlement_amount', value: '1500.00' });
    await call('POST', '/v1/payout', payoutBody());
    expect(rules()).toEqual(['money.settlement']);
  });

  it('idempotency: a replay answered with another operation fires; a true replay is quiet', async () => {
    const body = paymentBody();
    const first = await call('POST', '/v1/payment', body);
    expect((await call('POST', '/v1/payment', body)).body.operation_id).toBe(first.body.operation_id);
    expect(checker.violations).toEqual([]);
    await fault({
      endpoint: 'payment.create',
      drift: 'change_field',
      field: 'operation_id',
      value: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    });
    await call('POST', '/v1/payment', body);
    expect(rules()).toEqual(['idempotency.replay']);
  });

  it('cancel: outcome cancelled with the payment shown pending fires; a true cancel is quiet', async () => {
    const a = (await call('POST', '/v1/payment', paymentBody())).body.operation_id as string;
    expect((await call('POST', '/v1/cancel_operation', { operation_id: a })).body.outcome).toBe('cancelled');
    expect(checker.violations).toEqual([]);
    const b = (await call('POST', '/v1/payment', paymentBody())).body.operation_id as string;
    await fault({ endpoint: 'operation.cancel', drift: 'out_of_order' });
    await call('POST', '/v1/cancel_operation', { operation_id: b });
    // The settled-to-nothing figures of a cancelled payment beside a pending status break the settlement formula too.
    expect(rules()).toEqual(['cancel.outcome', 'money.settlement']);
  });

  it('evidence: a mutable payment whose evidence is said complete fires', async () => {
    const id = (await call('POST', '/v1/payment', paymentBody())).body.operation_id as string;
    await call('POST', '/v1/get_operation_state', { operation_id: id });
    expect(checker.violations).toEqual([]);
    await fault({
      endpoint: 'operation.state',
      drift: 'change_field',
      field: 'receipt_evidence_status',
      value: 'complete',
    });
    await call('POST', '/v1/get_operation_state', { operation_id: id });
    expect(rules()).toEqual(['evidence.status']);
  });

  it('balance: a current_minus off the §2.5 formula fires', async () => {
    await call('GET', '/v1/balances');
    expect(checker.violations).toEqual([]);
    await fault({ endpoint: 'balances.list', drift: 'change_field', field: 'balances.*.current_minus', value: '9.99' });
    await call('GET', '/v1/balances');
    expect(rules()).toEqual(['balance.formula']);
  });

  it("isolation: shop B shown shop A's operation, after it was refused it, fires", async () => {
    const id = (await call('POST', '/v1/payment', paymentBody())).body.operation_id as string;
    expect((await call('POST', '/v1/get_operation_state', { operation_id: id }, KEY_B)).status).toBe(404);
    expect(checker.violations).toEqual([]);
    const own = (await call('POST', '/v1/payment', paymentBody(), KEY_B)).body.operation_id as string;
    await fault({
      endpoint: 'operation.state',
      drift: 'change_field',
      field: 'operation_id',
      value: id,
      shop_id: 'shop_b',
    });
    await call('POST', '/v1/get_operation_state', { operation_id: own }, KEY_B);
    expect(rules()).toContain('isolation.foreign_operation');
  });
});
