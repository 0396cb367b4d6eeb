// The sandbox clock: frozen time moves only by advance(), timers run in time order, real-time mode honours
// an advance for timers already armed. Real time is injected, so nothing here waits on a wall clock.
import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../src/emulator/runtime/clock.js';

describe('SandboxClock', () => {
  it('frozen: advance runs every due timer in time order, and only those', async () => {
    const clock = new SandboxClock({ frozen: true, start: 1_000 });
    const seen: string[] = [];
    clock.schedule(1_500, () => void seen.push(`b@${clock.now()}`));
    clock.schedule(1_200, () => void seen.push(`a@${clock.now()}`));
    clock.schedule(9_000, () => void seen.push('late'));
    clock.schedule(1_500, async () => {
      seen.push(`c@${clock.now()}`);
      clock.schedule(clock.now() + 100, () => void seen.push(`d@${clock.now()}`));
    });
    await clock.advance(600);
    expect(seen).toEqual(['a@1200', 'b@1500', 'c@1500', 'd@1600']);
    expect(clock.now()).toBe(1_600);
    expect(clock.pendingTimers()).toBe(1);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    clock.close();
  });

  it('real time: advancing moves sandbox time ahead of the wall and runs what fell due', async () => {
    let wall = 50_000;
    const clock = new SandboxClock({ start: 100_000, realNow: () => wall });
    const seen: number[] = [];
    clock.schedule(100_000 + 60_000, () => void seen.push(clock.now()));
    wall += 1_000;
    expect(clock.now()).toBe(101_000);
    await clock.advance(59_000);
    expect(seen).toEqual([160_000]);
    expect(clock.now()).toBe(160_000);
    clock.close();
  });

  it('a timer that errs does not stop the others', async () => {
    const errors: unknown[] = [];
    const clock = new SandboxClock({ frozen: true, start: 0, onError: (e) => errors.push(e) });
    let ran = false;
    clock.schedule(10, () => {
      throw new Error('boom');
    });
    clock.schedule(20, () => void (ran = true));
    await clock.advance(20);
    expect(ran).toBe(true);
    expect(errors).toHaveLength(1);
    clock.close();
  });

  it('a backlog of 5,000 due timers runs in time order, then scheduling order, among timers added as it runs', async () => {
    const clock = new SandboxClock({ frozen: true, start: 0 });
    const seen: number[] = [];
    // Times 1..2500 twice over, scheduled out of order; each timer of the first 100 adds one due later.
    const order = Array.from({ length: 5_000 }, (_, k) => (k * 7919) % 5_000);
    for (const k of order) {
      clock.schedule(1 + (k % 2_500), () => {
        seen.push(k);
        if (k < 100) clock.schedule(clock.now() + 10_000, () => void seen.push(10_000 + k));
      });
    }
    await clock.advance(1_250);
    expect(seen).toHaveLength(2_500);
    expect(clock.pendingTimers()).toBe(2_600);
    expect(clock.nextTimerAt()).toBe(1_251);
    await clock.advance(20_000);
    const expected = order
      .map((k, seq) => ({ k, at: 1 + (k % 2_500), seq }))
      .sort((a, b) => a.at - b.at || a.seq - b.seq)
      .map((t) => t.k);
    const added = seen.slice(5_000);
    expect(seen.slice(0, 5_000)).toEqual(expected);
    // The added ones: each 10 s after its parent ran, so in the parents' order.
    expect(added).toEqual(expected.filter((k) => k < 100).map((k) => 10_000 + k));
    expect(clock.pendingTimers()).toBe(0);
    expect(clock.nextTimerAt()).toBeUndefined();
    clock.close();
  });
});
