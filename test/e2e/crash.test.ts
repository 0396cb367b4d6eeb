// Durability: a sandbox process SIGKILLed under load loses no acknowledged operation (a 200 means it is on disk).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_A } from '../helpers/harness.js';
import { exited, startCli } from '../helpers/sandbox-process.js';

describe('crash safety', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const f of cleanup.splice(0).reverse()) await f();
  });

  it('every acknowledged create survives SIGKILL under load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-crash-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = join(dir, 'sandbox.json');
    const first = await startCli(['--store', store]);
    cleanup.push(async () => {
      first.child.kill('SIGKILL');
      await exited(first.child);
    });

    const acknowledged = new Map<string, unknown>();
    let sent = 0;
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const kind = i % 4 === 3 ? 'payout' : 'payment';
        const moid = `crash-${w}-${i}`;
        const body = {
          merchant_operation_id: moid,
          client_id: `c${w}`,
          method: 'WT_RUB_C2C',
          amount: `${100 + i}.00`,
          currency: 'RUB',
          number: '2200700000000004',
        };
        sent++;
        try {
          const res = await fetch(`${first.baseUrl}/v1/${kind}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': KEY_A },
            body: JSON.stringify(body),
          });
          if (res.status === 200) acknowledged.set(moid, await res.json());
        } catch {
          return; // the connection died with the process: not acknowledged
        }
        if (acknowledged.size >= 400 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.size).toBeGreaterThanOrEqual(400);
    // Requests still in flight at the kill usually die with it, but the server may have answered them all first.
    expect(sent).toBeGreaterThanOrEqual(acknowledged.size);

    const second = await startCli(['--store', store]);
    cleanup.push(async () => {
      second.child.kill('SIGTERM');
      await exited(second.child);
    });
    let reservedPayouts = 0;
    for (const [moid, op] of acknowledged) {
      const res = await fetch(`${second.baseUrl}/v1/get_operation_state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY_A },
        body: JSON.stringify({ merchant_operation_id: moid }),
      });
      expect(res.status, moid).toBe(200);
      const state = (await res.json()) as Record<string, unknown>;
      expect(state.operation_id).toBe((op as { operation_id: string }).operation_id);
      expect(state.expected_amount).toBe((op as { expected_amount: string }).expected_amount);
      if (state.type === 'payout') reservedPayouts++;
    }
    expect(reservedPayouts).toBeGreaterThan(0);
  }, 60_000);
});
