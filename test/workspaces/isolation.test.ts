// Workspaces are isolated sandboxes on one server. Nothing crosses between two of them, nor between
// one and the default workspace: keys, reads, cancels, the clock, resets, the request log, hosted pages, webhooks.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_WORKSPACES } from '../../src/contract/workspaces.js';
import { KEY_A, paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';
import { useCleanup } from '../helpers/cleanup.js';
import { admin, createWs } from './helpers.js';

const ADMIN = 'pg_admin_ws_isolation_0123456789';
const T0 = '2026-03-01T12:00:00Z';

describe('workspaces: create, list, delete', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, startTime: T0, adminToken: ADMIN });

  it('create answers new keys and an admin token once; list shows no secret; delete removes it and its URLs', async () => {
    const a = await createWs(h, ADMIN, { id: 'team-a', clock: 'frozen', start_time: '2027-01-01T00:00:00Z' });
    expect(a.baseUrl).toBe(`${h.baseUrl}/w/team-a`);
    expect(Object.keys(a.keys).sort()).toEqual(['shop_a', 'shop_b', 'shop_pool']);
    expect(Object.values(a.keys)).not.toContain(KEY_A);
    expect(a.adminToken).toMatch(/^pg_admin_/);
    expect(a.body.clock).toEqual({ frozen: true, now: '2027-01-01T00:00:00.000Z' });
    const list = await admin(h, ADMIN, 'GET', '/sandbox/workspaces');
    expect(list.status).toBe(200);
    expect(list.body.workspaces.map((w: { id: string }) => w.id)).toEqual(['team-a']);
    expect(list.text).not.toContain(a.adminToken);
    for (const key of Object.values(a.keys)) expect(list.text).not.toContain(key);
    expect(list.body.workspaces[0].admin_token_last4).toBe(a.adminToken.slice(-4));

    expect((await h.call('GET', '/w/team-a/v1/balances', { key: a.keys.shop_a })).status).toBe(200);
    const del = await admin(h, ADMIN, 'DELETE', '/sandbox/workspaces/team-a');
    expect(del.body).toEqual({ id: 'team-a', deleted: true });
    expect((await admin(h, ADMIN, 'GET', '/sandbox/workspaces')).body.workspaces).toEqual([]);
    // Gone: its key is valid nowhere (401, as in any workspace); the server's admin token learns it is gone.
    const gone = await h.call('GET', '/w/team-a/v1/balances', { key: a.keys.shop_a });
    expect([gone.status, gone.body.code]).toEqual([401, 'invalid_api_key']);
    const goneAdmin = await admin(h, ADMIN, 'GET', '/w/team-a/sandbox/clock');
    expect([goneAdmin.status, goneAdmin.body.code]).toEqual([404, 'workspace_not_found']);
    // Its key now belongs to no workspace: the default one answers 401.
    expect((await h.call('GET', '/v1/balances', { key: a.keys.shop_a })).body.code).toBe('invalid_api_key');
  });

  it('bad requests are 4xx and create nothing', async () => {
    await createWs(h, ADMIN, { id: 'taken' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ id: 'Bad Id' }, 400, 'validation_error'],
      [{ id: 'registry' }, 400, 'validation_error'],
      [{ id: 'default' }, 400, 'validation_error'],
      [{ clock: 'sometimes' }, 400, 'validation_error'],
      [{ limits: { operations: 0 } }, 400, 'validation_error'],
      [{ surprise: true }, 400, 'validation_error'],
      [{ fixtures: '../etc/passwd' }, 400, 'validation_error'],
      [{ fixtures: 'no-such-fixtures' }, 404, 'fixtures_not_found'],
      [{ id: 'taken' }, 409, 'workspace_exists'],
    ];
    for (const [body, status, code] of cases) {
      const r = await admin(h, ADMIN, 'POST', '/sandbox/workspaces', body);
      expect([r.status, r.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(
      (await admin(h, ADMIN, 'GET', '/sandbox/workspaces')).body.workspaces.map((w: { id: string }) => w.id),
    ).toEqual(['taken']);
  });

  it('a named fixture file of the bundled ones makes the workspace', async () => {
    const w = await createWs(h, ADMIN, { fixtures: 'picker-amount-field' });
    expect((w.body.shops as { id: string }[]).length).toBeGreaterThan(0);
    expect((await h.call('GET', '/v1/balances', { key: Object.values(w.keys)[0]! })).status).toBe(200);
  });

  it("only the server's admin token manages workspaces: a workspace's is 403, a wrong one 401", async () => {
    const a = await createWs(h, ADMIN, { id: 'a' });
    for (const [method, path] of [
      ['GET', '/sandbox/workspaces'],
      ['POST', '/sandbox/workspaces'],
      ['DELETE', '/sandbox/workspaces/a'],
    ] as const) {
      const r = await admin(h, a.adminToken, method, path, method === 'POST' ? {} : undefined);
      expect([r.status, r.body.code]).toEqual([403, 'workspace_forbidden']);
    }
    expect((await admin(h, 'pg_admin_wrong', 'GET', '/sandbox/workspaces')).body.code).toBe('invalid_admin_token');
    expect((await admin(h, ADMIN, 'DELETE', '/sandbox/workspaces/nope')).body.code).toBe('workspace_not_found');
    expect((await admin(h, ADMIN, 'DELETE', '/sandbox/workspaces/default')).body.code).toBe('workspace_forbidden');
  });

  it(`at most ${MAX_WORKSPACES} workspaces: the next is 409 workspace_limit`, async () => {
    for (let i = 0; i < MAX_WORKSPACES; i++) await createWs(h, ADMIN, { id: `w${i}` });
    const r = await admin(h, ADMIN, 'POST', '/sandbox/workspaces', { id: 'one-more' });
    expect([r.status, r.body.code]).toEqual([409, 'workspace_limit']);
    expect((await admin(h, ADMIN, 'GET', '/sandbox/workspaces')).body.workspaces).toHaveLength(MAX_WORKSPACES);
  }, 60_000);
});

describe('nothing crosses workspaces', () => {
  const h = useSandbox({ transport: 'http', frozenClock: true, startTime: T0, adminToken: ADMIN });
  const defer = useCleanup();

  it('keys of one workspace are 401 invalid api key in another, and the default keys in neither', async () => {
    const a = await createWs(h, ADMIN, { id: 'a' });
    const b = await createWs(h, ADMIN, { id: 'b' });
    expect((await h.call('GET', '/w/b/v1/balances', { key: a.keys.shop_a })).body.code).toBe('invalid_api_key');
    expect((await h.call('GET', '/w/a/v1/balances', { key: KEY_A })).body.code).toBe('invalid_api_key');
    expect((await h.call('GET', '/w/a/v1/balances', { key: a.keys.shop_a })).status).toBe(200);
    // Without the prefix, the key picks its workspace; the default keys stay the default workspace's.
    expect((await h.call('GET', '/v1/balances', { key: b.keys.shop_b })).status).toBe(200);
    expect((await h.call('GET', '/v1/balances', { key: KEY_A })).status).toBe(200);
    // An admin token is one workspace's only.
    expect((await admin(h, a.adminToken, 'GET', '/w/b/sandbox/clock')).body.code).toBe('invalid_admin_token');
    expect((await admin(h, ADMIN, 'GET', '/w/a/sandbox/clock')).body.code).toBe('invalid_admin_token');
  });

  it('reads, cancels and listings of one never see the other', async () => {
    const a = await createWs(h, ADMIN, { id: 'a' });
    const b = await createWs(h, ADMIN, { id: 'b' });
    const moid = 'same-moid-in-both';
    const inA = await h.call('POST', '/v1/payment', {
      key: a.keys.shop_a,
      body: paymentBody({ merchant_operation_id: moid }),
    });
    expect(inA.status).toBe(200);
    const opId = inA.body.operation_id as string;
    const read = await h.call('POST', '/v1/get_operation_state', { key: b.keys.shop_a, body: { operation_id: opId } });
    expect([read.status, read.body.code]).toEqual([404, 'operation_not_found']);
    const cancel = await h.call('POST', '/v1/cancel_operation', { key: b.keys.shop_a, body: { operation_id: opId } });
    expect([cancel.status, cancel.body.code]).toEqual([404, 'operation_not_found']);
    expect((await h.call('POST', '/v1/get_operation_state', { key: KEY_A, body: { operation_id: opId } })).status).toBe(
      404,
    );
    // The same merchant_operation_id is free in B (its own idempotency space): a create, not a replay of A's.
    const inB = await h.call('POST', '/v1/payment', {
      key: b.keys.shop_a,
      body: paymentBody({ merchant_operation_id: moid, amount: '2500.00' }),
    });
    expect([inB.status, inB.body.expected_amount]).toEqual([200, '2500.00']);
    for (const [token, id] of [
      [a.adminToken, opId],
      [b.adminToken, inB.body.operation_id],
    ] as const) {
      const list = await admin(h, token, 'GET', '/sandbox/operations');
      expect(list.body.operations.map((o: { operation_id: string }) => o.operation_id)).toEqual([id]);
    }
    expect((await admin(h, ADMIN, 'GET', '/sandbox/operations')).body.operations).toEqual([]);
    // The operation is still pending in A: B's cancel did nothing.
    expect(
      (await h.call('POST', '/v1/get_operation_state', { key: a.keys.shop_a, body: { operation_id: opId } })).body
        .status,
    ).toBe('pending');
  });

  it('a clock advance in one moves neither the other nor the default; a reset of one leaves the other', async () => {
    const a = await createWs(h, ADMIN, { id: 'a', start_time: T0 });
    const b = await createWs(h, ADMIN, { id: 'b', start_time: T0 });
    await h.call('POST', '/v1/payment', { key: a.keys.shop_a, body: paymentBody() });
    const pb = await h.call('POST', '/v1/payment', { key: b.keys.shop_a, body: paymentBody() });
    expect((await admin(h, a.adminToken, 'POST', '/sandbox/clock/advance', { by: '2h' })).body.now).toBe(
      '2026-03-01T14:00:00.000Z',
    );
    expect((await admin(h, b.adminToken, 'GET', '/sandbox/clock')).body.now).toBe('2026-03-01T12:00:00.000Z');
    expect((await admin(h, ADMIN, 'GET', '/sandbox/clock')).body.now).toBe('2026-03-01T12:00:00.000Z');
    // A's payment ended with A's clock (its 30 minutes ran out); B's is still pending.
    expect((await admin(h, a.adminToken, 'GET', '/sandbox/operations')).body.operations[0].status).not.toBe('pending');
    expect(
      (
        await h.call('POST', '/v1/get_operation_state', {
          key: b.keys.shop_a,
          body: { operation_id: pb.body.operation_id },
        })
      ).body.status,
    ).toBe('pending');

    expect((await admin(h, a.adminToken, 'POST', '/sandbox/reset')).status).toBe(200);
    expect((await admin(h, a.adminToken, 'GET', '/sandbox/operations')).body.operations).toEqual([]);
    expect((await admin(h, b.adminToken, 'GET', '/sandbox/operations')).body.operations).toHaveLength(1);
    // A reset keeps the keys handed out at creation.
    expect((await h.call('GET', '/v1/balances', { key: a.keys.shop_a })).status).toBe(200);
  });

  it('each has its own pool', async () => {
    const a = await createWs(h, ADMIN, { id: 'a' });
    const b = await createWs(h, ADMIN, { id: 'b' });
    const slotsOf = async (token: string) =>
      ((await admin(h, token, 'GET', '/sandbox/pool')).body.pools as { slots: number }[]).reduce(
        (n, p) => n + p.slots,
        0,
      );
    expect(
      (
        await h.call('POST', '/sandbox/pool/layout', {
          key: a.keys.shop_pool,
          body: { method: 'WT_RUB_C2C', amounts: ['5000.00', '6000.00'] },
        })
      ).status,
    ).toBe(200);
    expect(await slotsOf(a.adminToken)).toBe(2);
    expect(await slotsOf(b.adminToken)).toBe(0);
    expect(await slotsOf(ADMIN)).toBe(0);
  });

  it('each has its own request log', async () => {
    const a = await createWs(h, ADMIN, { id: 'a' });
    const b = await createWs(h, ADMIN, { id: 'b' });
    for (let i = 0; i < 3; i++) await h.call('GET', '/v1/balances', { key: a.keys.shop_a });
    await h.call('GET', '/v1/balances', { key: b.keys.shop_b });
    const shopsOf = async (token: string) =>
      ((await admin(h, token, 'GET', '/sandbox/logs')).body.requests as { path: string; shop_id: string }[])
        .filter((e) => e.path === '/v1/balances')
        .map((e) => e.shop_id);
    expect(await shopsOf(a.adminToken)).toEqual(['shop_a', 'shop_a', 'shop_a']);
    expect(await shopsOf(b.adminToken)).toEqual(['shop_b']);
    expect(await shopsOf(ADMIN)).toEqual([]);
  });

  it("a workspace's payment_url and hosted page live under /w/<id>", async () => {
    const a = await createWs(h, ADMIN, { id: 'a' });
    const link = await h.call('POST', '/v1/payment/link', { key: a.keys.shop_a, body: paymentBody() });
    expect(link.status).toBe(200);
    const url = link.body.payment_url as string;
    expect(url.startsWith(`${h.baseUrl}/w/a/pay/`)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    await page.text();
    const elsewhere = await fetch(url.replace('/w/a/', '/'));
    expect(elsewhere.status).toBe(404);
    await elsewhere.text();
  });

  it("webhooks of one workspace are never sent to another's endpoints", async () => {
    const received = (name: string) => {
      const bodies: string[] = [];
      const server: Server = createServer((req: IncomingMessage, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          bodies.push(body);
          res.end('ok');
        });
      });
      defer(() => new Promise<void>((r) => server.close(() => r())));
      return new Promise<{ url: string; bodies: string[] }>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/${name}`, bodies }),
        ),
      );
    };
    const [rxA, rxB, rxDefault] = await Promise.all([received('a'), received('b'), received('default')]);
    const a = await createWs(h, ADMIN, { id: 'a' });
    const b = await createWs(h, ADMIN, { id: 'b' });
    for (const [key, rx] of [
      [a.keys.shop_a, rxA],
      [b.keys.shop_a, rxB],
      [KEY_A, rxDefault],
    ] as const) {
      expect((await h.call('POST', '/sandbox/webhooks', { key, body: { url: rx.url } })).status).toBe(201);
    }
    const p = await h.call('POST', '/v1/payment', { key: a.keys.shop_a, body: paymentBody() });
    expect(
      (await h.call('POST', `/sandbox/operations/${p.body.operation_id}/pay`, { key: a.keys.shop_a, body: {} })).body
        .status,
    ).toBe('completed');
    await expect.poll(() => rxA.bodies.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(rxA.bodies.every((body) => body.includes(p.body.operation_id))).toBe(true);
    // B's and the default's outboxes never had a delivery to make.
    for (const key of [b.keys.shop_a, KEY_A])
      expect((await h.call('GET', '/sandbox/webhooks/deliveries', { key })).body.deliveries).toEqual([]);
    expect([rxB.bodies, rxDefault.bodies]).toEqual([[], []]);
  });
});

describe('limits per workspace', () => {
  const h = useSandbox({ transport: 'in-process', frozenClock: true, startTime: T0, adminToken: ADMIN });

  it('operations: the create past the limit is 409 workspace_limit and stores nothing; other workspaces go on', async () => {
    const a = await createWs(h, ADMIN, { id: 'a', limits: { operations: 2 } });
    const b = await createWs(h, ADMIN, { id: 'b' });
    expect(a.body.limits).toEqual({ operations: 2, pool_payouts: 20_000 });
    for (let i = 0; i < 2; i++)
      expect((await h.call('POST', '/v1/payment', { key: a.keys.shop_a, body: paymentBody() })).status).toBe(200);
    const over = await h.call('POST', '/v1/payout', {
      key: a.keys.shop_a,
      body: paymentBody({ number: '2200700000000004' }),
    });
    expect([over.status, over.body.code]).toEqual([409, 'workspace_limit']);
    expect(over.body.message).toContain('limit is 2');
    expect((await admin(h, a.adminToken, 'GET', '/sandbox/operations')).body.operations).toHaveLength(2);
    expect((await h.call('POST', '/v1/payment', { key: b.keys.shop_a, body: paymentBody() })).status).toBe(200);
    // A pool layout past it is refused before anything is laid out.
    const layout = await h.call('POST', '/sandbox/pool/layout', {
      key: a.keys.shop_pool,
      body: { method: 'WT_RUB_C2C', amounts: ['5000.00'] },
    });
    expect([layout.status, layout.body.code]).toEqual([409, 'workspace_limit']);
    expect(
      (await admin(h, ADMIN, 'GET', '/sandbox/workspaces')).body.workspaces.find((w: { id: string }) => w.id === 'a')
        .operations,
    ).toBe(2);
  });

  it('pool payouts: a layout past the workspace pool limit is 409 pool_limit, nothing laid out', async () => {
    const a = await createWs(h, ADMIN, { id: 'a', limits: { pool_payouts: 3 } });
    const layout = (amounts: string[]) =>
      h.call('POST', '/sandbox/pool/layout', { key: a.keys.shop_pool, body: { method: 'WT_RUB_C2C', amounts } });
    expect((await layout(['5000.00', '6000.00'])).status).toBe(200);
    const over = await layout(['7000.00', '8000.00']);
    expect([over.status, over.body.code]).toEqual([409, 'pool_limit']);
    expect(over.body.message).toContain('limit of 3');
    expect((await admin(h, a.adminToken, 'GET', '/sandbox/operations')).body.operations).toHaveLength(2);
  });
});
