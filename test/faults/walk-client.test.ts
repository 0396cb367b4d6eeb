// Every failure case the spec names for every gateway endpoint (src/contract/faults.ts FAULT_CASES) can be produced on
// purpose: a fault of that endpoint, status and code makes the typed client see exactly that status and body, with the
// fault's id in X-Paygate-Fault. Also: the table covers every status each endpoint's row lists in spec terms, and every
// code it answers is mapped to the same status by the emulator's one error table.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Paygate } from '../../src/client/index.js';
import { endpoints, type EndpointId } from '../../src/contract/endpoints.js';
import { FAULT_CASES, faultStatuses } from '../../src/contract/faults.js';
import { STATUS_OF } from '../../src/emulator/http/errors.js';
import { useSandbox } from '../helpers/sandbox.js';
import { CALLS, outcomeOf } from './calls.js';

const sandbox = useSandbox({ per: 'file', frozenClock: true, adminToken: 'pg_admin_faults_walk_0123456789' });
let client: Paygate;
beforeAll(() => {
  client = sandbox.make({ apiKey: sandbox.keyOf('shop_a'), maxRetries: 0 });
});

const CASES = (Object.entries(FAULT_CASES) as [EndpointId, (typeof FAULT_CASES)[EndpointId]][]).flatMap(
  ([endpoint, cases]) => cases.map((c) => ({ endpoint, name: endpoints[endpoint].id, ...c })),
);

describe('the table of failure cases', () => {
  it('each code names one case of its endpoint', () => {
    for (const [id, cases] of Object.entries(FAULT_CASES))
      expect([id, new Set(cases.map((c) => c.code)).size]).toEqual([id, cases.length]);
  });

  it('every code is mapped to the same status by STATUS_OF', () => {
    for (const c of CASES)
      expect([c.name, c.code, STATUS_OF[c.code as keyof typeof STATUS_OF]]).toEqual([c.name, c.code, c.status]);
  });

  it("names, for each endpoint, the statuses of spec §7 that apply to it (the endpoint row's, less the sandbox's own 409/413/415)", () => {
    const SANDBOX_ONLY = [409, 413, 415];
    for (const [id, row] of Object.entries(endpoints) as [EndpointId, (typeof endpoints)[EndpointId]][]) {
      expect([id, faultStatuses(id)]).toEqual([id, row.errors.filter((s) => !SANDBOX_ONLY.includes(s))]);
    }
  });

  it('covers the statuses that were once unreachable', () => {
    const has = (endpoint: EndpointId, status: number, code: string) =>
      CASES.some((c) => c.endpoint === endpoint && c.status === status && c.code === code);
    expect(has('payment.flexible_link', 412, 'shop_not_ready')).toBe(true);
    expect(has('payment.availability', 412, 'shop_unavailable')).toBe(true);
    expect(has('payment.recommendations', 412, 'shop_unavailable')).toBe(true);
    expect(has('payment.availability', 404, 'scope_not_accessible')).toBe(true);
    expect(has('payment.link', 503, 'dependency_unavailable')).toBe(true);
    expect(has('payment.flexible_link', 503, 'dependency_busy')).toBe(true);
    expect(has('payment.availability', 503, 'stale_preset_version')).toBe(true);
    expect(has('payment.recommendations', 503, 'incompatible_version')).toBe(true);
    expect(has('operation.cancel', 503, 'cancel_not_durable')).toBe(true);
    expect(has('balances.list', 500, 'accounting_inconsistent')).toBe(true);
    expect(has('balances.list', 503, 'accounting_unavailable')).toBe(true);
  });
});

describe('every (endpoint, status, code) through the typed client', () => {
  it.each(CASES)('$name answers $status $code', async (c) => {
    const { faults } = await sandbox.admin.sandbox.faults.set([{ endpoint: c.name, status: c.status, code: c.code }]);
    const out = await outcomeOf(CALLS[c.endpoint](client));
    expect(out.status).toBe(c.status);
    expect(out.code).toBe(c.code);
    expect(out.fault).toBe(faults[0]!.id);
    expect(out.body).toEqual({ code: c.code, message: c.message });
  });

  it('a status without a code answers the first case the spec lists for it', async () => {
    await sandbox.admin.sandbox.faults.set([{ endpoint: 'payment.availability', status: 503 }]);
    const out = await outcomeOf(CALLS['payment.availability'](client));
    expect([out.status, out.code]).toEqual([503, 'read_capacity_exhausted']);
    expect((out.error as { retryAfter?: number }).retryAfter).toBe(1);
  });

  it('the operationId names the endpoint too, and the list shows the dotted id', async () => {
    const { faults } = await sandbox.admin.sandbox.faults.set([{ endpoint: 'balances.list', status: 500 }]);
    expect(faults[0]).toMatchObject({
      endpoint: 'balances.list',
      kind: 'status',
      status: 500,
      code: 'accounting_inconsistent',
    });
    expect((await outcomeOf(CALLS['balances.list'](client))).status).toBe(500);
  });

  it('with every fault cleared, the endpoints answer normally again', async () => {
    await sandbox.admin.sandbox.faults.set([{ endpoint: 'balances.list', status: 503 }]);
    expect(await sandbox.admin.sandbox.faults.clear()).toEqual({ removed: 1 });
    const { balances } = await client.balances.list();
    expect(balances.length).toBeGreaterThan(0);
  });
});
