// The client's resources are derived from the contract's endpoint tables: each derived method is named after its
// endpoint id (the id's action in camelCase, the words operationIdOf uses) unless its row names it, sends that
// endpoint's method and path with the options given after its arguments, and every row of both tables is reached by
// exactly one client method (or, for the workspaces, by client.request alone).
import { describe, expect, it } from 'vitest';
import { Paygate } from '../../src/client/index.js';
import { actionOf, Resource, tableOf } from '../../src/client/resources/resource.js';
import { routeOf } from '../../src/client/routes.js';
import type { ContractView, Transport, WireRequest } from '../../src/client/wire.js';
import { sandboxControls } from '../../src/contract/controls.js';
import { operationIdOf } from '../../src/contract/endpoint-row.js';
import { endpoints } from '../../src/contract/endpoints.js';

/** Methods written by hand, each naming the one endpoint it calls. */
const HAND_WRITTEN = {
  'payment.confirm': 'payments.confirm',
  'operation.cancel': 'operations.cancel',
  'health.livez': 'health.check',
  'health.healthz': 'health.check',
  'health.readyz': 'health.check',
  'operations.show': 'sandbox.operations.details',
  'operations.stream': 'sandbox.operations.stream',
  'logs.stream': 'sandbox.logs.stream',
} as const;
/** Rows the client reaches through `client.request(id)` only. */
const REQUEST_ONLY = ['workspaces.create', 'workspaces.list', 'workspaces.delete'];

/** Arguments (before `options`) that each derived method accepts; none for the rest. */
const ARGS: Record<string, unknown[]> = {
  'payment.create': [{ client_id: 'c', method: 'WT_RUB_C2C', amount: '1.00', currency: 'RUB' }],
  'payment.link': [{ client_id: 'c', method: 'WT_RUB_C2C', amount: '1.00', currency: 'RUB' }],
  'payment.flexible_link': [{ client_id: 'c', method: 'WT_RUB_C2C', currency: 'RUB' }],
  'payout.create': [{ client_id: 'c', method: 'WT_RUB_C2C', amount: '1.00', currency: 'RUB' }],
  'payment.availability': [{ method: 'WT_RUB_C2C', currency: 'RUB', min_amount: '1.00', max_amount: '2.00' }],
  'payment.recommendations': [{ method: 'WT_RUB_C2C', currency: 'RUB', amount: '1.00' }],
  'operation.state': [{ operation_id: 'op_1' }],
  'operations.list': [{}],
  'operations.pay': [{ operation_id: 'op_1' }, {}],
  'operations.settle': [{ merchant_operation_id: 'm_1' }, 'completed'],
  'operations.review': [{ operation_id: 'op_1' }, 'approve', {}],
  'clock.advance': ['1s'],
  'evidence.set': [false],
  'keys.list': [{}],
  'keys.issue': [{ shop_id: 'shop_a' }],
  'keys.revoke': ['key_1'],
  'webhooks.add': [{ url: 'http://127.0.0.1:9/hook' }],
  'webhooks.rotate_secret': ['we_1'],
  'webhooks.remove': ['we_1'],
  'webhooks.deliveries': [{}],
  'webhooks.redeliver': [{ failed: true }],
  'pool.layout': [{ method: 'WT_RUB_C2C', amounts: ['1.00'] }],
  'pool.show': [{}],
  'pool.update_settings': [{ rate_limit: false }],
  'links.show': ['op_1'],
  'links.confirm': ['op_1', { amount: '1.00' }],
  'logs.list': [{}],
  'faults.add': [{ endpoint: 'balances.list', status: 503 }],
  'faults.set': [[]],
  'faults.remove': ['flt_1'],
};

/** A client whose every request is recorded and answered `{}`, the body taken as it is. */
function recordingClient(): { client: Paygate; sent: WireRequest[] } {
  const sent: WireRequest[] = [];
  const transport: Transport = async (req) => {
    sent.push(req);
    return { status: 200, headers: {}, text: '{}' };
  };
  const contract: ContractView = { routeOf, check: (_id, body) => body };
  const client = new Paygate({
    baseUrl: 'http://paygate.test',
    apiKey: 'pg_test_resources_0000',
    adminToken: 'pg_admin_resources_0000',
    transport,
    contract: async () => contract,
    maxRetries: 0,
  });
  return { client, sent };
}

/** Every resource object of a client, by its path (`sandbox.keys`). */
function resourcesOf(client: Paygate): [string, Resource][] {
  const top = ['payments', 'payouts', 'operations', 'balances', 'health', 'sandbox'] as const;
  const sandbox = Object.entries(client.sandbox).filter(([, v]) => v instanceof Resource) as [string, Resource][];
  return [
    ...top.map((k) => [k, client[k] as unknown as Resource] as [string, Resource]),
    ...sandbox.map(([k, v]) => [`sandbox.${k}`, v] as [string, Resource]),
  ];
}

const ids = [...Object.keys(endpoints), ...Object.keys(sandboxControls)];

describe('client resources derived from the endpoint tables', () => {
  it("a derived method's name is its id's action in camelCase, as operationIdOf words the id", () => {
    for (const id of ids) {
      const row = { id, path: '/v1/x' };
      const action = actionOf(id);
      expect(operationIdOf(row).endsWith(action.charAt(0).toUpperCase() + action.slice(1)), id).toBe(true);
    }
    expect(actionOf('webhooks.rotate_secret')).toBe('rotateSecret');
    expect(actionOf('pool.update_settings')).toBe('updateSettings');
  });

  it('every row of both tables is reached by exactly one client method, or by client.request alone', () => {
    const { client } = recordingClient();
    const reached = new Map<string, string[]>();
    const add = (id: string, method: string) => reached.set(id, [...(reached.get(id) ?? []), method]);
    for (const [path, r] of resourcesOf(client)) {
      expect(r).toBeInstanceOf(Resource);
      for (const [id, row] of Object.entries(tableOf(r))) add(id, `${path}.${row.name ?? actionOf(id)}`);
    }
    for (const [id, method] of Object.entries(HAND_WRITTEN)) add(id, method);
    for (const id of REQUEST_ONLY) add(id, 'request');
    expect([...reached.keys()].sort()).toEqual([...ids].sort());
    expect([...reached].filter(([, methods]) => methods.length !== 1)).toEqual([]);
  });

  it("each derived method sends its row's method and path, with the options given after its arguments", async () => {
    const { client, sent } = recordingClient();
    let derived = 0;
    for (const [path, r] of resourcesOf(client)) {
      for (const [id, row] of Object.entries(tableOf(r))) {
        const name = row.name ?? actionOf(id);
        const method = (r as unknown as Record<string, (...args: unknown[]) => PromiseLike<unknown>>)[name];
        expect(typeof method, `${path}.${name}`).toBe('function');
        const before = sent.length;
        await method!.call(r, ...(ARGS[id] ?? []), { headers: { 'x-probe': id } });
        expect(sent.length, id).toBe(before + 1);
        const req = sent.at(-1)!;
        const route = routeOf(id);
        expect([id, req.method], id).toEqual([id, route.method]);
        const pattern = new RegExp(`^http://paygate\\.test${route.path.replace(/:[a-z_]+/g, '[^/?]+')}(\\?.*)?$`);
        expect(req.url, id).toMatch(pattern);
        expect(req.headers['x-probe'], id).toBe(id);
        derived++;
      }
    }
    expect(derived).toBe(ids.length - Object.keys(HAND_WRITTEN).length - REQUEST_ONLY.length);
  });

  it('a derived method whose arguments are refused rejects without sending, as the hand-written ones did', async () => {
    const { client, sent } = recordingClient();
    await expect(client.sandbox.operations.pay({} as never)).rejects.toThrow(/exactly one of/);
    await expect(client.sandbox.webhooks.redeliver({} as never)).rejects.toThrow(/exactly one of/);
    await expect(client.sandbox.pool.layout({ method: 'WT_RUB_C2C' } as never)).rejects.toThrow(/exactly one of/);
    expect(sent).toEqual([]);
  });
});
