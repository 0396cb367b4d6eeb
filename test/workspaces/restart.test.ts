// Nothing process-local that should last. Over a restart on the same store (the file backend here;
// PostgreSQL takes the same backend interface) the workspaces come back with their keys, admin tokens, clocks and
// data; the server's admin token is kept hashed; receipt links signed before stay valid.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/emulator/index.js';
import { tempDir, useCleanup } from '../helpers/cleanup.js';
import { paymentBody } from '../helpers/harness.js';
import type { Ws } from './helpers.js';

const T0 = '2026-01-01T00:00:00Z';
const defer = useCleanup();

async function start(store: string, opts: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await createSandbox({ store, frozenClock: true, log: () => {}, ...opts });
  defer(() => sb.close());
  return sb;
}

async function call(sb: Sandbox, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await sb.fetch(
    new Request(`http://paygate.local${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  );
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

async function createWs(sb: Sandbox, token: string, body: object): Promise<Ws> {
  const r = await call(sb, 'POST', '/sandbox/workspaces', { 'x-admin-token': token }, { clock: 'frozen', ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id, adminToken: r.body.admin_token, keys: r.body.keys, baseUrl: r.body.base_url, body: r.body };
}

describe('a restart keeps the workspaces', () => {
  it('their keys, admin tokens, clocks, operations and receipt links; the server admin token by its hash', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    let sb = await start(store, { startTime: T0 });
    const serverToken = sb.adminToken!;
    const w = await createWs(sb, serverToken, { id: 'ci-1', start_time: '2027-05-01T00:00:00Z' });
    const key = { 'x-api-key': w.keys.shop_a! };
    const wAdmin = { 'x-admin-token': w.adminToken };
    const created = (await call(sb, 'POST', '/w/ci-1/v1/payment', key, paymentBody({ client_id: 'payer+receipt' })))
      .body as { operation_id: string };
    const form = new FormData();
    form.set('operation_id', created.operation_id);
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
          new Request('http://paygate.local/w/ci-1/v1/confirm_payment', { method: 'POST', headers: key, body: form }),
        )
      ).status,
    ).toBe(200);
    const receiptUrl = (
      await call(sb, 'POST', '/w/ci-1/v1/get_operation_state', key, { operation_id: created.operation_id })
    ).body.receipts[0].receipt_url as string;
    expect(receiptUrl.startsWith('http://paygate.local/w/ci-1/storage/')).toBe(true);
    expect((await call(sb, 'POST', '/sandbox/clock/advance', wAdmin, { by: '5m' })).body.now).toBe(
      '2027-05-01T00:05:00.000Z',
    );
    // A second workspace whose clock never moved resumes at its start time.
    const still = await createWs(sb, serverToken, { id: 'still', start_time: '2028-01-01T00:00:00Z' });
    await sb.close();

    sb = await start(store);
    // The server's admin token is kept (hashed): not known to the new process, still valid.
    expect(sb.adminToken).toBeUndefined();
    expect(sb.adminTokenLast4).toBe(serverToken.slice(-4));
    expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': serverToken })).status).toBe(200);
    const list = await call(sb, 'GET', '/sandbox/workspaces', { 'x-admin-token': serverToken });
    expect(list.body.workspaces.map((x: { id: string }) => x.id)).toEqual(['ci-1', 'still']);
    expect((await call(sb, 'GET', '/sandbox/clock', wAdmin)).body.now).toBe('2027-05-01T00:05:00.000Z');
    expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': still.adminToken })).body.now).toBe(
      '2028-01-01T00:00:00.000Z',
    );
    const state = await call(sb, 'POST', '/v1/get_operation_state', key, { operation_id: created.operation_id });
    expect(state.status).toBe(200);
    const file = await sb.fetch(new Request(receiptUrl));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');

    // A reset of the workspace after the restart still seeds the keys handed out at creation.
    expect((await call(sb, 'POST', '/sandbox/reset', wAdmin)).status).toBe(200);
    expect((await call(sb, 'GET', '/v1/balances', key)).status).toBe(200);
    // A reset of the default workspace forgets none of the workspaces.
    expect((await call(sb, 'POST', '/sandbox/reset', { 'x-admin-token': serverToken })).status).toBe(200);
    expect(
      (await call(sb, 'GET', '/sandbox/workspaces', { 'x-admin-token': serverToken })).body.workspaces,
    ).toHaveLength(2);
  });

  it('an explicit admin token replaces the kept one; a deleted workspace stays deleted, its files gone', async () => {
    const dir = tempDir(defer);
    const store = join(dir, 'sandbox.json');
    let sb = await start(store, { adminToken: 'pg_admin_first_0000' });
    await createWs(sb, 'pg_admin_first_0000', { id: 'gone' });
    expect(
      existsSync(join(`${store}.workspaces`, 'gone.json.journal')) ||
        existsSync(join(`${store}.workspaces`, 'gone.json')),
    ).toBe(true);
    expect(
      (await call(sb, 'DELETE', '/sandbox/workspaces/gone', { 'x-admin-token': 'pg_admin_first_0000' })).status,
    ).toBe(200);
    expect([
      existsSync(join(`${store}.workspaces`, 'gone.json.journal')),
      existsSync(join(`${store}.workspaces`, 'gone.json')),
    ]).toEqual([false, false]);
    await sb.close();
    sb = await start(store, { adminToken: 'pg_admin_second_1111' });
    expect(sb.adminToken).toBe('pg_admin_second_1111');
    expect((await call(sb, 'GET', '/sandbox/workspaces', { 'x-admin-token': 'pg_admin_first_0000' })).body.code).toBe(
      'invalid_admin_token',
    );
    expect(
      (await call(sb, 'GET', '/sandbox/workspaces', { 'x-admin-token': 'pg_admin_second_1111' })).body.workspaces,
    ).toEqual([]);
    await sb.close();
    sb = await start(store);
    expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': 'pg_admin_second_1111' })).status).toBe(200);
    expect(readFileSync(join(`${store}.workspaces`, 'registry.json'), 'utf8')).not.toContain('pg_admin_second_1111');
  });

  it('addAdminToken (sandbox start --add-admin-token): one more token, valid beside the kept one, kept too; a token set replaces both', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    let sb = await start(store);
    const first = sb.adminToken!;
    const ws = await createWs(sb, first, { id: 'keeps' });
    await sb.close();
    sb = await start(store, { addAdminToken: true });
    const added = sb.adminToken!;
    expect(added).toMatch(/^pg_admin_[0-9a-f]{24}$/);
    expect(added).not.toBe(first);
    expect(sb.adminTokenLast4).toBe(added.slice(-4));
    for (const token of [first, added]) {
      expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': token })).status).toBe(200);
      expect(
        (await call(sb, 'GET', '/sandbox/workspaces', { 'x-admin-token': token })).body.workspaces.map(
          (w: { id: string }) => w.id,
        ),
      ).toEqual(['keeps']);
    }
    // The workspace's own token still reaches the workspace, not the server.
    expect((await call(sb, 'GET', `/w/keeps/sandbox/clock`, { 'x-admin-token': ws.adminToken })).status).toBe(200);
    expect(
      (await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': 'pg_admin_000000000000000000000000' })).body.code,
    ).toBe('invalid_admin_token');
    await sb.close();
    sb = await start(store);
    expect(sb.adminToken).toBeUndefined();
    expect(sb.adminTokenLast4).toBe(first.slice(-4));
    for (const token of [first, added])
      expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': token })).status).toBe(200);
    expect(readFileSync(join(`${store}.workspaces`, 'registry.json'), 'utf8')).not.toContain(added);
    await sb.close();
    sb = await start(store, { adminToken: 'pg_admin_third_2222' });
    for (const token of [first, added])
      expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': token })).body.code).toBe(
        'invalid_admin_token',
      );
    expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': 'pg_admin_third_2222' })).status).toBe(200);
  });

  it('addAdminToken on a server without workspaces: both tokens work', async () => {
    const store = join(tempDir(defer), 'sandbox.json');
    let sb = await start(store);
    const first = sb.adminToken!;
    await sb.close();
    sb = await start(store, { addAdminToken: true });
    for (const token of [first, sb.adminToken!])
      expect((await call(sb, 'GET', '/sandbox/clock', { 'x-admin-token': token })).status).toBe(200);
  });
});
