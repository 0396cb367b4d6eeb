// Receipt links signed before a restart answered 404 within their 15 minutes (the signing key was new
// at each start), a clock advance was lost on restart, and the flexible-link key sat in plain text in the store.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/emulator/index.js';
import { KEY_A, paymentBody } from '../helpers/harness.js';

const T0 = '2026-01-01T00:00:00Z';
const ADMIN = 'adm-restart';
const open: Sandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(store: string, startTime?: string): Promise<Sandbox> {
  const sb = await createSandbox({
    store,
    frozenClock: true,
    adminToken: ADMIN,
    log: () => {},
    ...(startTime ? { startTime } : {}),
  });
  open.push(sb);
  return sb;
}
const call = async (
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { 'x-api-key': KEY_A },
) => {
  const res = await sb.fetch(
    new Request(`http://paygate.local${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }),
  );
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
};

describe('what survives a restart', () => {
  it('the clock resumes where an advance left it, and a receipt link signed before still downloads after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-restart-'));
    dirs.push(dir);
    const store = join(dir, 'sandbox.json');
    let sb = await start(store, T0);
    const created = (await call(sb, 'POST', '/v1/payment', paymentBody({ client_id: 'payer+receipt' }))).body as {
      operation_id: string;
    };
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
          new Request('http://paygate.local/v1/confirm_payment', {
            method: 'POST',
            headers: { 'x-api-key': KEY_A },
            body: form,
          }),
        )
      ).status,
    ).toBe(200);
    const url = (await call(sb, 'POST', '/v1/get_operation_state', { operation_id: created.operation_id })).body
      .receipts[0].receipt_url as string;
    expect((await call(sb, 'POST', '/sandbox/clock/advance', { by: '10m' }, { 'x-admin-token': ADMIN })).status).toBe(
      200,
    );
    const now = sb.clock.now();
    await sb.close();

    sb = await start(store);
    expect(sb.clock.now()).toBe(now);
    expect(new Date(now).toISOString()).toBe('2026-01-01T00:10:00.000Z');
    const res = await sb.fetch(new Request(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  it('the secrets live in <store>.secrets (0600), never in the snapshot or the journal; a flexible link keeps its k', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-restart-'));
    dirs.push(dir);
    const store = join(dir, 'sandbox.json');
    let sb = await start(store, T0);
    const POOL = { 'x-api-key': 'pg_test_pool_9Ub4Rn2TgK7mXa1C' };
    expect(
      (await call(sb, 'POST', '/sandbox/pool/layout', { method: 'WT_RUB_C2C', amounts: ['5000.00'] }, POOL)).status,
    ).toBe(200);
    const link = await call(
      sb,
      'POST',
      '/v1/payment/link/flexible',
      {
        merchant_operation_id: 'flex-1',
        client_id: 'c1',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        recommended_amount: '1234.56',
        min_amount: '100.00',
        max_amount: '30000.00',
      },
      { 'x-api-key': 'pg_test_pool_9Ub4Rn2TgK7mXa1C' },
    );
    expect(link.body.payment_url).toMatch(/[?&]k=/);
    await sb.close();
    const secrets = JSON.parse(readFileSync(`${store}.secrets`, 'utf8')) as { url_secret: string; link_secret: string };
    expect(statSync(`${store}.secrets`).mode & 0o777).toBe(0o600);
    const stored = readFileSync(store, 'utf8') + readFileSync(`${store}.journal`, 'utf8');
    expect(stored).not.toContain(secrets.link_secret);
    expect(stored).not.toContain(secrets.url_secret);

    sb = await start(store);
    const again = await call(
      sb,
      'POST',
      '/v1/payment/link/flexible',
      {
        merchant_operation_id: 'flex-1',
        client_id: 'c1',
        method: 'WT_RUB_C2C',
        currency: 'RUB',
        recommended_amount: '1234.56',
        min_amount: '100.00',
        max_amount: '30000.00',
      },
      { 'x-api-key': 'pg_test_pool_9Ub4Rn2TgK7mXa1C' },
    );
    expect(again.body.payment_url).toBe(link.body.payment_url);
  });
});
