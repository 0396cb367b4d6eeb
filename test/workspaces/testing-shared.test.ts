// paygate/testing against a shared server: startSandbox({ baseUrl, adminToken }) makes the test its own workspace
// (its keys, clock and webhooks), two of them side by side never meet, and close() deletes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox as startServer, type RunningSandbox } from '../../src/emulator/sandbox.js';
import { startSandbox, type WorkspaceTestSandbox } from '../../src/testing/index.js';

const ADMIN = 'pg_admin_shared_server_0123';
let server: RunningSandbox;
beforeAll(async () => {
  server = await startServer({ adminToken: ADMIN, log: () => {} });
});
afterAll(async () => {
  await server.close();
});

describe('startSandbox({ baseUrl, adminToken })', () => {
  let one: WorkspaceTestSandbox;
  let two: WorkspaceTestSandbox;
  beforeAll(async () => {
    [one, two] = await Promise.all([
      startSandbox({ baseUrl: server.baseUrl, adminToken: ADMIN, startTime: '2026-03-01T12:00:00Z' }),
      startSandbox({ baseUrl: server.baseUrl, adminToken: ADMIN, startTime: '2026-03-01T12:00:00Z' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  it('is a workspace of its own: its base URL, keys and admin token; a frozen clock that advances', async () => {
    expect(one.baseUrl).toBe(`${server.baseUrl}/w/${one.workspaceId}`);
    expect(one.workspaceId).not.toBe(two.workspaceId);
    expect(one.keys.default).toBe(one.keys.shop_a);
    expect(await one.client.sandbox.clock.get()).toMatchObject({ frozen: true, now: '2026-03-01T12:00:00.000Z' });
    await one.clock.advance('10m');
    expect(one.clock.now()).toBe(Date.parse('2026-03-01T12:10:00Z'));
    expect((await two.client.sandbox.clock.get()).now).toBe('2026-03-01T12:00:00.000Z');
  });

  it('pay drives its operations; its webhooks arrive verified, and none of the other workspace', async () => {
    const payment = await one.client.payments.create({
      client_id: 'alice',
      method: 'WT_RUB_C2C',
      amount: '1500.00',
      currency: 'RUB',
    });
    expect(await one.pay(payment.operation_id)).toMatchObject({ status: 'completed' });
    const done = await one.webhooks.waitFor('operation.completed', { operationId: payment.operation_id });
    expect(done.data.operation.operation_id).toBe(payment.operation_id);
    await expect(two.client.operations.get({ operation_id: payment.operation_id })).rejects.toMatchObject({
      status: 404,
    });
    expect(two.webhooks.events()).toEqual([]);
  });

  it('close() deletes the workspace: its keys stop working', async () => {
    const three = await startSandbox({ baseUrl: server.baseUrl, adminToken: ADMIN });
    const key = three.keys.default;
    expect((await fetch(`${three.baseUrl}/v1/balances`, { headers: { 'x-api-key': key } })).status).toBe(200);
    await three.close();
    const after = await fetch(`${server.baseUrl}/v1/balances`, { headers: { 'x-api-key': key } });
    expect(after.status).toBe(401);
  });
});
