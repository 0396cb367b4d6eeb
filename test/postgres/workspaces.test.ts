// Workspaces on the PostgreSQL store: workspaces made on one process come back in the
// next process on the same database with their keys, admin tokens, clocks, operations and receipt files (bytea), and
// nothing crosses: a key of one workspace is 401 in another, a clock advance moves only its own workspace.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/emulator/index.js';
import { useCleanup } from '../helpers/cleanup.js';
import { paymentBody } from '../helpers/harness.js';
import { pgDescribe, useCluster } from './fixture.js';

const cluster = useCluster();
const defer = useCleanup();

async function start(store: string, startTime?: string): Promise<Sandbox> {
  const sb = await createSandbox({ store, frozenClock: true, log: () => {}, ...(startTime ? { startTime } : {}) });
  defer(() => sb.close());
  return sb;
}

async function call(sb: Sandbox, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const init = {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  };
  const res = await sb.fetch(new Request(`http://paygate.local${path}`, init));
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

pgDescribe('workspaces on PostgreSQL', () => {
  it('survive a restart on another process’s connection: keys, admin tokens, clocks, operations, receipt files; nothing crosses', async () => {
    const url = await cluster.get().createDatabase();
    let sb = await start(url, '2026-01-01T00:00:00Z');
    const server = { 'x-admin-token': sb.adminToken! };
    const made = async (id: string, start_time: string) => {
      const r = await call(sb, 'POST', '/sandbox/workspaces', server, { id, clock: 'frozen', start_time });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body as { admin_token: string; keys: Record<string, string> };
    };
    const a = await made('ci-a', '2027-01-01T00:00:00Z');
    const b = await made('ci-b', '2028-01-01T00:00:00Z');
    const keyA = { 'x-api-key': a.keys.shop_a! };
    const keyB = { 'x-api-key': b.keys.shop_a! };
    const op = (await call(sb, 'POST', '/w/ci-a/v1/payment', keyA, paymentBody({ client_id: 'payer+receipt' })))
      .body as { operation_id: string };
    const form = new FormData();
    form.set('operation_id', op.operation_id);
    form.set('confirmation_type', 'receipt');
    form.set(
      'receipt',
      new Blob([readFileSync(new URL('../../fixtures/receipts/ok-1500.pdf', import.meta.url))], {
        type: 'application/pdf',
      }),
      'ok.pdf',
    );
    expect(
      (
        await sb.fetch(
          new Request('http://paygate.local/w/ci-a/v1/confirm_payment', { method: 'POST', headers: keyA, body: form }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await call(sb, 'POST', '/sandbox/clock/advance', { 'x-admin-token': a.admin_token }, { by: '5m' })).status,
    ).toBe(200);
    // Nothing crosses: B's key is 401 in A, A's operation is not found with B's key, B's clock did not move.
    expect((await call(sb, 'GET', '/w/ci-a/v1/balances', keyB)).status).toBe(401);
    expect((await call(sb, 'POST', '/v1/get_operation_state', keyB, { operation_id: op.operation_id })).status).toBe(
      404,
    );
    expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': b.admin_token })).body.now).toBe(
      '2028-01-01T00:00:00.000Z',
    );
    await sb.close();
    // It all lives in the database, by workspace: the receipt's bytes too.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    defer(() => db.end());
    const rows = await db.query<{ workspace: string }>('SELECT DISTINCT workspace FROM paygate_files');
    expect(rows.rows.map((r) => r.workspace)).toEqual(['ci-a']);

    sb = await start(url);
    expect(sb.adminToken).toBeUndefined();
    const list = await call(sb, 'GET', '/sandbox/workspaces', server);
    expect(list.body.workspaces.map((w: { id: string }) => w.id)).toEqual(['ci-a', 'ci-b']);
    expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': a.admin_token })).body.now).toBe(
      '2027-01-01T00:05:00.000Z',
    );
    expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': b.admin_token })).body.now).toBe(
      '2028-01-01T00:00:00.000Z',
    );
    const state = await call(sb, 'POST', '/v1/get_operation_state', keyA, { operation_id: op.operation_id });
    expect(state.status).toBe(200);
    const file = await sb.fetch(new Request(state.body.receipts[0].receipt_url as string));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    // Deleting a workspace removes its rows: it is gone after the next restart too.
    expect((await call(sb, 'DELETE', '/sandbox/workspaces/ci-b', server)).status).toBe(200);
    await sb.close();
    sb = await start(url);
    expect(
      (await call(sb, 'GET', '/sandbox/workspaces', server)).body.workspaces.map((w: { id: string }) => w.id),
    ).toEqual(['ci-a']);
    expect((await call(sb, 'GET', '/v1/balances', keyB)).status).toBe(401);
  }, 60_000);
});
