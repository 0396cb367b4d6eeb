// The data-loss bug of a full disk, end to end: a sandbox process whose store is on a tmpfs that fills up answers
// 503 for a payout it could not write, and then behaves exactly as if the request had never come — no state, no
// reserve, and an identical retry (once space is back) creates the payout for real; after a SIGKILL and a restart
// the retried payout is there and the reserve is exactly its own.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_A } from '../helpers/harness.js';
import { exited, startCli } from '../helpers/sandbox-process.js';
import { fillDisk, mountTmpfs, warnSkipped } from '../helpers/tmpfs.js';

describe('a full disk', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  it('a payout that could not be written does not exist: 503, no state, no reserve; the retry after space is back is the one that survives SIGKILL', async (ctx) => {
    const disk = mountTmpfs('4m', 'paygate-e2e-full-');
    if (!disk.ok) {
      warnSkipped('test/e2e/full-disk.test.ts', disk.reason);
      ctx.skip();
      return;
    }
    cleanup.push(disk.unmount);
    const store = join(disk.dir, 'sandbox.json');
    const first = await startCli(['--store', store]);
    cleanup.push(async () => {
      first.child.kill('SIGKILL');
      await exited(first.child);
    });
    const call = async (base: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': KEY_A },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    // tmpfs allocates whole pages: a journal line shorter than the slack of the journal's last page could still fit on
    // a "full" disk. A client_id of 6,000 characters (in the operation and its event) makes the line span pages.
    const payout = {
      merchant_operation_id: 'full-disk-1',
      client_id: `c1-${'x'.repeat(6000)}`,
      method: 'WT_RUB_C2C',
      amount: '500.00',
      currency: 'RUB',
      number: '2200700000000004',
    };
    const before = (await call(first.baseUrl, 'GET', '/v1/balances')).body.balances[0];

    const filler = fillDisk(disk.dir);
    const refused = await call(first.baseUrl, 'POST', '/v1/payout', payout);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('store_unavailable');
    expect(refused.body.message).toContain('ENOSPC');
    expect(
      (await call(first.baseUrl, 'POST', '/v1/get_operation_state', { merchant_operation_id: 'full-disk-1' })).status,
    ).toBe(404);
    expect((await call(first.baseUrl, 'GET', '/v1/balances')).body.balances[0]).toEqual(before);

    rmSync(filler);
    const retry = await call(first.baseUrl, 'POST', '/v1/payout', payout);
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('pending');
    const reserved = (await call(first.baseUrl, 'GET', '/v1/balances')).body.balances[0].reserved;
    expect(reserved).toBe(retry.body.settlement_amount);

    first.child.kill('SIGKILL');
    await exited(first.child);
    const second = await startCli(['--store', store]);
    cleanup.push(async () => {
      second.child.kill('SIGTERM');
      await exited(second.child);
    });
    const after = await call(second.baseUrl, 'POST', '/v1/get_operation_state', {
      merchant_operation_id: 'full-disk-1',
    });
    expect(after.status).toBe(200);
    expect(after.body.operation_id).toBe(retry.body.operation_id);
    expect((await call(second.baseUrl, 'GET', '/v1/balances')).body.balances[0].reserved).toBe(reserved);
  }, 60_000);
});
