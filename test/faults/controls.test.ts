// The faults.* controls: what they refuse (400 naming what is allowed, 404 for an unknown shop or fault id, 409 past
// the limit — nothing stored), add versus set versus clear, the fixtures' `faults` section (validated with its JSON
// path, applied at start) and a reset (the controls' faults forgotten, the fixtures' applied again, counters fresh).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError } from '../../src/client/index.js';
import { MAX_FAULTS } from '../../src/contract/faults.js';
import { DEFAULT_FIXTURES, FixtureError, parseWorld } from '../../src/world/load.js';
import { useSandbox } from '../helpers/sandbox.js';
import { outcomeOf } from './calls.js';

const ADMIN = 'pg_admin_faults_controls_0123456789';
const raw = () => JSON.parse(readFileSync(DEFAULT_FIXTURES, 'utf8')) as Record<string, unknown>;

describe('validation', () => {
  const sandbox = useSandbox({ per: 'file', adminToken: ADMIN });
  const post = (body: unknown) =>
    sandbox.call('POST', '/sandbox/faults', { key: null, headers: { 'x-admin-token': ADMIN }, body });

  it.each([
    [
      { endpoint: 'payout.create', status: 503 },
      'status: POST /v1/payout (payout.create) can answer 400, 401, 412, 429 (spec §7); 503 is not one of them',
    ],
    [{ endpoint: 'balances.list', status: 400 }, 'can answer 401, 429, 500, 503'],
    [
      { endpoint: 'operation.cancel', status: 503, code: 'read_timeout' },
      'code: operation.cancel answers 503 with cancel_not_durable; "read_timeout" is not one of them',
    ],
    [{ endpoint: 'operation.cancel', code: 'cancel_not_durable', latency_ms: 5 }, 'code goes with status'],
    [
      { endpoint: 'payments.create', status: 412 },
      'unknown endpoint "payments.create"; one of payment.create, payment.link',
    ],
    [{ endpoint: 'balances.list' }, 'give exactly one of status, latency_ms or drop_response_after_commit'],
    [
      { endpoint: 'balances.list', status: 503, latency_ms: 10 },
      'give exactly one of status, latency_ms or drop_response_after_commit',
    ],
    [
      { endpoint: 'balances.list', status: 503, count: 2, probability: 0.5 },
      'count: give count (the next N requests) or probability',
    ],
    [{ endpoint: 'balances.list', status: 503, seed: 3 }, 'seed: seed goes with probability'],
    [{ endpoint: 'balances.list', status: 503, probability: 0 }, 'probability: '],
    [{ endpoint: 'balances.list', status: 503, count: 0 }, 'count: '],
    [{ endpoint: 'balances.list', latency_ms: 600_001 }, 'latency_ms: '],
    [{ endpoint: 'balances.list', drop_response_after_commit: false }, 'drop_response_after_commit: '],
    [{ endpoint: 'health.readyz', status: 503, shop_id: 'shop_a' }, 'shop_id: the health probes take no key'],
    [{ endpoint: 'balances.list', status: 503, latency: 10 }, 'latency'],
  ])('400 for %j', async (body, says) => {
    const r = await post(body);
    expect([r.status, r.body.code]).toEqual([400, 'validation_error']);
    expect(r.body.message).toContain(says);
    expect((await sandbox.admin.sandbox.faults.list()).faults).toEqual([]);
  });

  it('404 for an unknown shop or fault id; 409 past the limit; a refused PUT changes nothing', async () => {
    await expect(
      sandbox.admin.sandbox.faults.add({ endpoint: 'balances.list', status: 503, shop_id: 'shop_x' }),
    ).rejects.toMatchObject({ status: 404, code: 'shop_not_found' });
    await expect(sandbox.admin.sandbox.faults.remove('flt_999')).rejects.toBeInstanceOf(NotFoundError);
    const one = { endpoint: 'balances.list', status: 503 };
    await sandbox.admin.sandbox.faults.set(Array.from({ length: MAX_FAULTS }, () => one));
    await expect(sandbox.admin.sandbox.faults.add(one)).rejects.toBeInstanceOf(ConflictError);
    await expect(sandbox.admin.sandbox.faults.set([one, { ...one, shop_id: 'shop_x' }])).rejects.toMatchObject({
      status: 404,
    });
    await expect(sandbox.admin.sandbox.faults.set([{ endpoint: 'nope', status: 1 }])).rejects.toBeInstanceOf(
      BadRequestError,
    );
    expect((await sandbox.admin.sandbox.faults.list()).faults).toHaveLength(MAX_FAULTS);
    expect(await sandbox.admin.sandbox.faults.clear()).toEqual({ removed: MAX_FAULTS });
  });

  it('needs the admin token', async () => {
    const r = await sandbox.call('GET', '/sandbox/faults');
    expect([r.status, r.body.code]).toEqual([401, 'missing_admin_token']);
  });
});

describe('add, set, clear', () => {
  const sandbox = useSandbox({ adminToken: ADMIN });

  it('add keeps the faults in force and numbers them; set replaces them all; clear and remove take them away', async () => {
    const f = sandbox.admin.sandbox.faults;
    const first = await f.add({ endpoint: 'balances.list', status: 503 });
    const second = await f.add({ endpoint: 'operation.state', latency_ms: 10 });
    expect([first.id, second.id]).toEqual(['flt_1', 'flt_2']);
    expect((await f.list()).faults.map((x) => x.id)).toEqual(['flt_1', 'flt_2']);
    const { faults } = await f.set([{ endpoint: 'operation.cancel', drop_response_after_commit: true }]);
    expect(faults).toEqual([expect.objectContaining({ id: 'flt_3', kind: 'drop', endpoint: 'operation.cancel' })]);
    await f.add({ endpoint: 'balances.list', status: 500 });
    expect(await f.remove('flt_3')).toEqual({ removed: 1 });
    expect((await f.list()).faults.map((x) => x.id)).toEqual(['flt_4']);
    expect(await f.set([])).toEqual({ faults: [] });
  });

  it('an endpoint may be named by its OpenAPI operationId (derived from the dotted id); the fault shows the dotted id', async () => {
    const f = sandbox.admin.sandbox.faults;
    const { faults } = await f.set([{ endpoint: 'operationCancel', status: 503 }]);
    expect(faults).toEqual([expect.objectContaining({ endpoint: 'operation.cancel', status: 503 })]);
    await expect(f.set([{ endpoint: 'getOperationState', status: 503 }])).rejects.toBeInstanceOf(BadRequestError);
    expect(await f.set([])).toEqual({ faults: [] });
  });
});

describe('the fixtures’ faults section', () => {
  const world = {
    ...raw(),
    faults: [{ endpoint: 'balances.list', status: 503, code: 'accounting_unavailable', shop_id: 'shop_b', count: 1 }],
  };
  const sandbox = useSandbox({ world, adminToken: ADMIN });

  it('is validated with the JSON path at fault', () => {
    expect(() => parseWorld({ ...raw(), faults: [{ endpoint: 'payout.create', status: 503 }] }, 'f.json')).toThrow(
      FixtureError,
    );
    expect(() => parseWorld({ ...raw(), faults: [{ endpoint: 'payout.create', status: 503 }] }, 'f.json')).toThrow(
      '$.faults[0].status: POST /v1/payout',
    );
    expect(() =>
      parseWorld({ ...raw(), faults: [{ endpoint: 'balances.list', status: 503, shop_id: 'shop_x' }] }, 'f.json'),
    ).toThrow('$.faults[0].shop_id: unknown shop shop_x');
  });

  it('applies at start; a reset forgets the controls’ faults and applies the fixtures’ again with fresh counters', async () => {
    const b = sandbox.make({ apiKey: sandbox.keyOf('shop_b'), maxRetries: 0 });
    const listed = (await sandbox.admin.sandbox.faults.list()).faults;
    expect(listed).toEqual([
      expect.objectContaining({ id: 'flt_1', source: 'fixtures', shop_id: 'shop_b', remaining: 1 }),
    ]);
    expect(await outcomeOf(b.balances.list())).toMatchObject({
      status: 503,
      code: 'accounting_unavailable',
      fault: 'flt_1',
    });
    expect((await outcomeOf(b.balances.list())).status).toBe(200);
    await sandbox.admin.sandbox.faults.add({ endpoint: 'operation.state', status: 429 });
    await sandbox.admin.sandbox.reset();
    expect((await sandbox.admin.sandbox.faults.list()).faults).toEqual([{ ...listed[0], matched: 0, fired: 0 }]);
    expect((await outcomeOf(b.balances.list())).status).toBe(503);
  });
});
