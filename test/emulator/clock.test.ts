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
});
