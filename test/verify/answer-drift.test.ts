// `paygate verify` against a sandbox whose answers drift (drift faults, docs/faults.md): a field removed, renamed or
// changed, a status reported out of order, a status the contract does not declare — each named by its rule, exit 1
// for the CLI. One fresh sandbox per drift; each fault is scoped to shop_a, the shop verify acts as.
import { describe, expect, it } from 'vitest';
import type { FaultInput } from '../../src/contract/faults.js';
import { runVerify } from '../../src/verify/index.js';
import { KEY_A, KEY_B } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { sandboxTransport } from './transport.js';

const DRIFTS: { drift: string; fault: FaultInput; rule: string }[] = [
  {
    drift: 'settlement_amount removed from a create answer',
    fault: { endpoint: 'payment.create', drift: 'remove_field', field: 'settlement_amount' },
    rule: 'response.missing_field',
  },
  {
    drift: 'expected_amount renamed in state answers',
    fault: { endpoint: 'operation.state', drift: 'rename_field', field: 'expected_amount', to: 'amount_expected' },
    rule: 'response.unknown_field',
  },
  {
    drift: 'expected_amount of a create changed',
    fault: { endpoint: 'payment.create', drift: 'change_field', field: 'expected_amount', value: '99.00' },
    rule: 'money.expected_amount',
  },
  {
    drift: 'a cancel answering outcome cancelled with a completed payment',
    fault: { endpoint: 'operation.cancel', drift: 'change_field', field: 'operation.status', value: 'completed' },
    rule: 'cancel.outcome',
  },
  {
    drift: 'a cancel of a pending payment answering already_terminal',
    fault: { endpoint: 'operation.cancel', drift: 'change_field', field: 'outcome', value: 'already_terminal' },
    rule: 'cancel.outcome',
  },
  {
    drift: 'a cancelled payment read as pending again',
    fault: { endpoint: 'operation.state', drift: 'out_of_order', value: 'pending' },
    rule: 'state.illegal_move',
  },
  {
    drift: 'current_minus off the §2.5 formula',
    fault: { endpoint: 'balances.list', drift: 'change_field', field: 'balances.*.current_minus', value: '5.00' },
    rule: 'balance.formula',
  },
  {
    drift: 'balances answered with a status the contract does not declare',
    fault: { endpoint: 'balances.list', drift: 'extra_status', status: 299 },
    rule: 'response.undeclared_status',
  },
];

describe('paygate verify against answers that drift', () => {
  const h = useSandbox();

  it.each(DRIFTS)('$drift: $rule', async ({ fault, rule }) => {
    await h.admin.sandbox.faults.add({ ...fault, shop_id: 'shop_a' });
    const r = await runVerify({
      baseUrl: 'http://gateway.local',
      transport: sandboxTransport(h.sandbox),
      apiKey: KEY_A,
      secondKey: KEY_B,
    });
    expect(r.passed).toBe(false);
    const failed = r.rules.filter((x) => x.result === 'failed').map((x) => x.id);
    expect(failed, JSON.stringify(r.violations, null, 2)).toContain(rule);
    const v = r.violations.find((x) => x.rule === rule)!;
    expect(v.expected).toMatch(/^expected /i);
    expect(v.exchange).toBeGreaterThan(0);
  });
});
