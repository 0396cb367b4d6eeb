// The service's dependencies are given at construction and each job has one route: the clock's advance subscribers
// (no hook slot set later), the reset subscribers (no service.onReset), one release of a waiting create (the
// resolve_admission effect), a create answered with the record its plan wrote (no lookup after the write), and the
// store's own error for a failed write (no mapError callback).
import { describe, expect, it, vi } from 'vitest';
import type { CreateParams } from '../../src/domain/create.js';
import type { Outcome } from '../../src/domain/effects.js';
import { SandboxClock } from '../../src/emulator/runtime/clock.js';
import { EffectRunner } from '../../src/emulator/runtime/effect-runner.js';
import type { DomainContext } from '../../src/domain/state.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import { MemoryPersistence } from '../../src/store/memory-persistence.js';
import { Store } from '../../src/store/store.js';
import { FailingPersistence } from '../helpers/failing-persistence.js';
import { paymentBody } from '../helpers/harness.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('the clock takes its advance subscribers at construction', () => {
  it('runs every before, then the due timers, then every after, in list order, on each advance', async () => {
    const seen: string[] = [];
    const clock = new SandboxClock({
      frozen: true,
      start: 0,
      advance: [
        { before: async () => void seen.push('before 1'), after: async () => void seen.push('after 1') },
        { before: async () => void seen.push('before 2'), after: async () => void seen.push('after 2') },
      ],
    });
    clock.schedule(5, () => void seen.push('timer'));
    await clock.advance(10);
    expect(seen).toEqual(['before 1', 'before 2', 'timer', 'after 1', 'after 2']);
    expect('beforeAdvance' in clock || 'afterAdvance' in clock).toBe(false);
    clock.close();
  });
});

describe('the effect runner releases a waiting create by one route', () => {
  const admission = (id: string) => ({ kind: 'finish_admission' as const, operation_id: id });
  const runner = (persist: (o: Outcome) => Promise<void>) => {
    const clock = new SandboxClock({ frozen: true, start: 0 });
    // The operation is no longer admitting (a cancel decided it first): the domain answers no outcome.
    const state = { operation: (id: string) => ({ id, status: 'cancelled' }) };
    const ctx = () => ({ now: clock.now(), state }) as unknown as DomainContext;
    return { clock, effects: new EffectRunner({ clock, ctx, persist }) };
  };

  it('a decision that was already taken (its command released the create) releases nothing again', async () => {
    const { clock, effects } = runner(() => Promise.resolve());
    let released = false;
    void effects.waitForAdmission('op-1').then(() => (released = true));
    effects.run([{ kind: 'timer', at: 1, command: admission('op-1') }]);
    await clock.advance(1);
    await Promise.resolve();
    expect(released).toBe(false);
    // Its release comes from the resolve_admission effect of whatever decided it.
    effects.run([{ kind: 'resolve_admission', operation_id: 'op-1' }]);
    await Promise.resolve();
    expect(released).toBe(true);
    clock.close();
  });
});

describe('a create answers with the record its plan wrote', () => {
  const h = useSandbox({ frozenClock: true });

  it('reads no operation from the store after the write', async () => {
    const durable = vi.spyOn(h.sandbox.store, 'durable');
    const op = await h.sandbox.service.create('shop_a', 'payment', paymentBody() as unknown as CreateParams);
    expect(op.status).toBe('pending');
    expect(durable).not.toHaveBeenCalled();
    durable.mockRestore();
  });
});

describe('a failed write rejects with the store error itself', () => {
  it('Store.commit rejects with StoreUnavailableError, its cause the backend error', async () => {
    const p = new FailingPersistence(new MemoryPersistence());
    const store = new Store(p as never);
    await store.open();
    p.failNext(1);
    const e = await store.commit([{ kind: 'meta', meta: { id: 'a' } }]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(StoreUnavailableError);
    expect((e as Error).cause).toMatchObject({ code: 'ENOSPC' });
    expect(store.state.meta.has('a')).toBe(false);
    await store.close();
  });
});
