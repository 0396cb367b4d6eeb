// Every failure case of src/contract/faults.ts through the CLI: each command's run function over an in-process sandbox
// with the fault set, and the exit code the CLI's one error handler gives what it threw (docs/exit-codes.md: an API
// error is 1, a connection that closed is 3). The binary itself, per status class: see cli.test.ts.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { availability, recommend } from '../../src/cli/commands/amounts/run.js';
import { balances } from '../../src/cli/commands/balances/run.js';
import { health } from '../../src/cli/commands/health/run.js';
import { cancelPayment, confirmPayment, createLink, createPayment } from '../../src/cli/commands/payment/run.js';
import { createPayout } from '../../src/cli/commands/payout/run.js';
import { state } from '../../src/cli/commands/state/run.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { describeError } from '../../src/cli/report-error.js';
import type { EndpointId } from '../../src/contract/endpoints.js';
import { endpoints } from '../../src/contract/endpoints.js';
import { FAULT_CASES } from '../../src/contract/faults.js';
import { useSandbox } from '../helpers/sandbox.js';
import { inProcessDeps, type InProcessDeps } from '../cli/run-deps.js';

const UUID = '00000000-0000-4000-8000-000000000000';
const RECEIPT = fileURLToPath(new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url));
const CREATE = { method: 'WT_RUB_C2C', amount: '1500.00', currency: 'RUB', clientId: 'cli-faults', json: false };
const RANGE = { method: 'WT_RUB_C2C', currency: 'RUB', minAmount: '100.00', maxAmount: '5000.00', json: false };

/** The command a merchant would type for each endpoint, as its run function. */
const COMMANDS: { readonly [K in EndpointId]: (deps: InProcessDeps) => Promise<void> } = {
  'payment.create': (d) => createPayment(CREATE, d),
  'payment.link': (d) => createLink({ ...CREATE, flexible: false }, d),
  'payment.flexible_link': (d) => createLink({ ...CREATE, flexible: true, recommendedAmount: '1500.00' }, d),
  'payout.create': (d) => createPayout({ ...CREATE, number: '2200700000000004' }, d),
  'payment.confirm': (d) => confirmPayment({ operationId: UUID, receipt: RECEIPT, json: false }, d),
  'operation.state': (d) => state({ operationId: UUID, json: false }, d),
  'operation.cancel': (d) => cancelPayment({ operationId: UUID, json: false }, d),
  'balances.list': (d) => balances({ json: false }, d),
  'payment.availability': (d) => availability(RANGE, d),
  'payment.recommendations': (d) => recommend({ ...RANGE, amount: '1500.00' }, d),
  'health.livez': (d) => health({ json: false }, d),
  'health.healthz': (d) => health({ json: false }, d),
  'health.readyz': (d) => health({ json: false }, d),
};

const CASES = (Object.entries(FAULT_CASES) as [EndpointId, (typeof FAULT_CASES)[EndpointId]][]).flatMap(
  ([endpoint, cases]) => cases.map((c) => ({ endpoint, name: endpoints[endpoint].id, ...c })),
);

const sandbox = useSandbox({ per: 'file', frozenClock: true, adminToken: 'pg_admin_faults_cli_0123456789' });
const deps = () => inProcessDeps(sandbox, { apiKey: sandbox.keyOf('shop_a') });

/** Run the command; the exit code and message the CLI would report (0 and '' when it succeeded). */
async function exitOf(run: () => Promise<void>): Promise<{ exitCode: number; message: string; hint: string }> {
  try {
    await run();
    return { exitCode: EXIT.OK, message: '', hint: '' };
  } catch (e) {
    const r = describeError(e);
    return { exitCode: r.exitCode, message: r.message, hint: r.hint ?? '' };
  }
}

describe('every (endpoint, status, code) through the CLI', () => {
  it.each(CASES)('$name $status $code: exit 1, the code and status in the message', async (c) => {
    await sandbox.admin.sandbox.faults.set([{ endpoint: c.name, status: c.status, code: c.code }]);
    const d = deps();
    const r = await exitOf(() => COMMANDS[c.endpoint](d));
    expect(r.exitCode).toBe(EXIT.API_ERROR);
    if (c.endpoint === 'health.livez' || c.endpoint === 'health.healthz' || c.endpoint === 'health.readyz') {
      const probe = c.endpoint.slice('health.'.length);
      expect(r.message).toContain(`unhealthy: ${probe}`);
      expect(d.output.stdout).toMatch(new RegExp(`^${probe} +unhealthy +503$`, 'm'));
    } else {
      expect(r.message).toContain(`${c.code}: ${c.message}`);
      // A cancel left undecided by a 5xx says so around the API error: `cancel outcome unknown … (503 <code>: …)`.
      expect(r.message).toContain(
        c.endpoint === 'operation.cancel' && c.status >= 500 ? `(${c.status} ${c.code}: ` : `HTTP ${c.status}`,
      );
    }
  });
});

describe('a dropped response through the CLI', () => {
  it('exit 3 (connection) when every attempt is dropped; the hint says how to find the operation', async () => {
    await sandbox.admin.sandbox.faults.set([{ endpoint: 'payment.create', drop_response_after_commit: true }]);
    const d = deps();
    const r = await exitOf(() => createPayment({ ...CREATE, merchantOperationId: 'cli-drop-1' }, d));
    expect(r.exitCode).toBe(EXIT.CONNECTION);
    expect(r.hint).toContain('paygate state --merchant-operation-id cli-drop-1');
    await sandbox.admin.sandbox.faults.clear();
    const again = deps();
    expect((await exitOf(() => state({ merchantOperationId: 'cli-drop-1', json: true }, again))).exitCode).toBe(
      EXIT.OK,
    );
    expect(JSON.parse(again.output.stdout)).toMatchObject({
      operation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'payment',
    });
  });

  it('a lost cancel answer is an unknown outcome, exit 3', async () => {
    const d = deps();
    await createPayment({ ...CREATE, merchantOperationId: 'cli-drop-2' }, d);
    await sandbox.admin.sandbox.faults.set([{ endpoint: 'operation.cancel', drop_response_after_commit: true }]);
    const r = await exitOf(() => cancelPayment({ merchantOperationId: 'cli-drop-2', json: false }, deps()));
    expect(r.exitCode).toBe(EXIT.CONNECTION);
    expect(r.message).toContain('cancel outcome unknown');
  });
});
