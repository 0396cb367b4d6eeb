// The create path's answer: a create decided at once answers as soon as its own write is done — not
// after the writes other requests queued behind it — and the answer built without h3's Headers merge keeps the
// content type and request id, while a route that sets its own header still sends it.
import { describe, expect, it } from 'vitest';
import type { CreateParams } from '../../src/domain/create.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import type { Change, Collections, Loaded, Persistence } from '../../src/store/persistence.js';
import type { LoadTarget, SnapshotSource } from '../../src/store/snapshot.js';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

/** Lets each group write through one at a time, on the test's word, once `gating` is on. */
class GatedPersistence implements Persistence {
  gating = false;
  readonly gates: (() => void)[] = [];
  constructor(readonly inner: Persistence) {}
  open(): Promise<Collections> {
    return this.inner.open();
  }
  load(target: LoadTarget & { capture(): SnapshotSource }): Promise<Loaded> {
    return this.inner.load(target);
  }
  get shouldCompact(): boolean {
    return this.inner.shouldCompact;
  }
  commit(changes: readonly Change[]): Promise<void> {
    return this.inner.commit(changes);
  }
  writeGroup(changes: readonly Change[]): Promise<void> {
    if (!this.gating) return this.inner.writeGroup(changes);
    return new Promise((resolve, reject) =>
      this.gates.push(() => void this.inner.writeGroup(changes).then(resolve, reject)),
    );
  }
  writeSnapshot(source: SnapshotSource): Promise<void> {
    return this.inner.writeSnapshot(source);
  }
  beginSnapshot(source: SnapshotSource): Promise<{ written: Promise<void> }> {
    return this.inner.beginSnapshot(source);
  }
  sync(): Promise<void> {
    return this.inner.sync();
  }
  compact(all: Collections): Promise<void> {
    return this.inner.compact(all);
  }
  close(all?: Collections | SnapshotSource): Promise<void> {
    return this.inner.close(all);
  }
  get stats() {
    return this.inner.stats;
  }
}

const turns = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('create answer', () => {
  let p: GatedPersistence;
  const h = useSandbox(() => {
    p = new GatedPersistence(new MemoryPersistence());
    return { persistence: p, frozenClock: true };
  });

  it('answers once its own write is done, while a create queued behind it is still being written', async () => {
    p.gating = true;
    let firstAnswered = false;
    const first = h.sandbox.service.create('shop_a', 'payment', paymentBody() as unknown as CreateParams).then((op) => {
      firstAnswered = true;
      return op;
    });
    await turns();
    expect(p.gates).toHaveLength(1); // the first create's write is in flight
    const second = h.sandbox.service.create('shop_a', 'payment', paymentBody() as unknown as CreateParams);
    p.gates[0]!();
    await turns();
    expect(p.gates).toHaveLength(2); // the second create's write started and is held
    expect(firstAnswered).toBe(true);
    expect((await first).status).toBe('pending');
    p.gates[1]!();
    expect((await second).status).toBe('pending');
  });

  it('the JSON answer carries its content type and x-request-id; a route setting its own header keeps it', async () => {
    const created = await h.call('POST', '/v1/payment', { body: paymentBody() });
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(created.headers.get('x-request-id')).toMatch(/^req_\d+$/);
    expect(created.headers.get('cache-control')).toBeNull();
    const amounts = await h.call(
      'GET',
      '/v1/payment/availability?method=WT_RUB_C2C&currency=RUB&min_amount=100.00&max_amount=200.00',
    );
    expect(amounts.status, amounts.text).toBe(200);
    expect(amounts.headers.get('x-request-id')).toMatch(/^req_\d+$/);
    expect(amounts.headers.get('cache-control')).toBe('no-store');
  });
});
