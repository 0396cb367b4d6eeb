// Every expectation kind, each shown holding and each shown failing with what was expected and what came back.
import { describe, expect, it } from 'vitest';
import { CREATE, mismatchesOf, runYaml } from './helpers.js';

const scenario = (steps: string) => `name: t\nsteps:${steps}\n`;

describe('expectations', () => {
  it("status and code: the default is the endpoint's success status; an error needs saying so", async () => {
    const ok = await runYaml(
      scenario(`${CREATE('dup')}
  - call: payment.create
    with: { merchant_operation_id: dup, client_id: bob, method: WT_RUB_C2C, amount: "1.00", currency: RUB }
    expect: { status: 412, code: idempotency_conflict }`),
    );
    expect(ok.status).toBe('passed');

    const bad = await runYaml(
      scenario(`${CREATE('dup')}
  - call: payment.create
    with: { merchant_operation_id: dup, client_id: bob, method: WT_RUB_C2C, amount: "1.00", currency: RUB }`),
    );
    expect(bad.status).toBe('failed');
    expect(mismatchesOf(bad)).toEqual(['status: 200 / 412']);

    const wrongCode = await runYaml(
      scenario(`
  - call: balances.list
    key: null
    expect: { code: invalid_api_key }`),
    );
    expect(mismatchesOf(wrongCode)).toEqual(['code: "invalid_api_key" / "missing_api_key"']);
  });

  it('body fields: values, matches, absent, present, equals, length', async () => {
    const ok = await runYaml(
      scenario(`${CREATE()}
    expect:
      body:
        status: pending
        operation_id: { matches: "^[0-9a-f-]{36}$" }
        payment_url: { absent: true }
        number: { present: true }
        expected_amount: { equals: "1500.00" }
        method: { length: 10 }`),
    );
    expect(ok.steps[0]).toMatchObject({ status: 'passed', mismatches: [] });

    const bad = await runYaml(
      scenario(`${CREATE()}
    expect:
      body:
        status: completed
        operation_id: { matches: "^x" }
        number: { absent: true }
        payment_url: { present: true }
        expected_amount: { equals: 1500 }
        currency: { length: 2 }`),
    );
    expect(mismatchesOf(bad)).toEqual([
      'body.status: "completed" / "pending"',
      expect.stringMatching(/^body.operation_id: "matches \/\^x\/" \/ "[0-9a-f-]{36}"$/),
      expect.stringMatching(/^body.number: "\(absent\)" \/ "\d+"$/),
      'body.payment_url: "(present)" / "(absent)"',
      'body.expected_amount: 1500 / "1500.00"',
      'body.currency: "length 2" / "RUB"',
    ]);
  });

  it('operation_status and operation read the operation after the step', async () => {
    const r = await runYaml(
      scenario(`${CREATE()}
  - call: operations.pay
    with: { id: "\${{ steps.create.operation_id }}", amount: "1400.00" }
    expect:
      operation_status: completed
      operation: { actual_amount: "1400.00", receipt_evidence_status: partial, receipts: { length: 1 } }
  - call: operation.cancel
    with: { operation_id: "\${{ steps.create.operation_id }}" }
    expect:
      body: { outcome: already_terminal }
      operation_status: cancelled`),
    );
    expect(r.steps[1]!.status).toBe('passed');
    expect(mismatchesOf(r)).toEqual(['operation.status: "cancelled" / "completed"']);
  });

  it('balances after and balance_delta, exact decimals', async () => {
    const r = await runYaml(
      scenario(`
  - id: payout
    call: payout.create
    with: { merchant_operation_id: p1, client_id: bob, method: WT_RUB_C2C, amount: "1000.00", currency: RUB, number: "2200700000000004" }
    expect:
      balances: { RUB: { balance: "998960.00", reserved: "1040" } }
      balance_delta: { RUB: { balance: "\${{ -steps.payout.settlement_amount }}", reserved: "1040.00", current_minus: "0" }, USDT: { balance: "0" } }
  - call: operations.settle
    with: { id: "\${{ steps.payout.operation_id }}", outcome: failed }
    expect:
      balance_delta: { RUB: { balance: "1040.00", reserved: "-1040.00" } }
  - call: balances.list
    expect:
      balance_delta: { RUB: { balance: "0.01" } }`),
    );
    expect(r.steps.slice(0, 2).map((s) => s.status)).toEqual(['passed', 'passed']);
    expect(r.steps[2]!.mismatches).toEqual([
      { what: 'balance_delta.RUB.balance', expected: '+0.01', actual: '0.00', note: 'balance 1000000.00 → 1000000.00' },
    ]);
  });

  it('webhooks: the types the step caused, in order, each verified', async () => {
    const r = await runYaml(
      scenario(`${CREATE('w1', '+receipt')}
    expect: { webhooks: [operation.awaiting_confirmation] }
  - call: payment.confirm
    with: { operation_id: "\${{ steps.create.operation_id }}", receipt: ../fixtures/receipts/fake-photoshop.pdf }
    expect: { body: { status: manual_check, manual_check_reason: potential_fake }, webhooks: [operation.manual_check] }
  - call: operations.review
    with: { id: "\${{ steps.create.operation_id }}", decision: approve }
    expect: { webhooks: [operation.pending] }`),
    );
    expect(r.steps.map((s) => s.webhooks)).toEqual([
      ['operation.awaiting_confirmation'],
      ['operation.manual_check'],
      ['operation.completed'],
    ]);
    expect(mismatchesOf(r)).toEqual(['webhooks: ["operation.pending"] / ["operation.completed"]']);
  });

  it('a successful answer that does not match the contract fails the step', async () => {
    const { checkContract } = await import('../../src/scenarios/checks.js');
    const { callableOf } = await import('../../src/scenarios/vocabulary.js');
    const c = callableOf('balances.list')!;
    expect(checkContract(c, { status: 200, body: { balances: [{ currency: 'RUB' }] }, headers: {} })[0]).toMatchObject({
      what: 'contract',
    });
    expect(checkContract(c, { status: 200, body: { balances: [] }, headers: {} })).toEqual([]);
    expect(checkContract(c, { status: 401, body: 'nope', headers: {} })).toEqual([]);
  });

  it('a step that cannot be carried out fails with the reason; later steps are skipped', async () => {
    const r = await runYaml(
      scenario(`
  - call: payment.confirm
    with: { operation_id: x, receipt: ../fixtures/receipts/missing.pdf }
  - call: balances.list`),
    );
    expect(r.steps[0]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('cannot read ../fixtures/receipts/missing.pdf'),
    });
    expect(r.steps[1]!.status).toBe('skipped');
  });
});
