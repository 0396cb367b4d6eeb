// "RSS returns within 10 % of its start once they close" (600 stalled streams and 1,000 trickling
// connections). Once they had closed, the sandbox allocated too little for V8 to collect again, and kept its peak
// RSS while it stayed quiet. A process that serves a sandbox (`sandbox start`) now runs one full, compacting
// collection once its open connections have fallen far from their peak and it is quiet and idle — never while it is
// busy, never more often than once per minIntervalMs, never for ordinary churn. Driven with fake timers and an
// injected clock and busy share; the collector itself with a WeakRef; the hook with real sockets on 127.0.0.1.
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limitConnections, serverOptions } from '../../src/emulator/connection-limits.js';
import {
  DEFAULT_MEMORY_RELEASE,
  fullCollection,
  MemoryRelease,
  memoryRelease,
  useMemoryRelease,
} from '../../src/emulator/memory-release.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../src/emulator/server-limits.js';

const { drop, quietMs, minIntervalMs } = DEFAULT_MEMORY_RELEASE;

/** A release on fake timers: its collections, a settable busy share, the log. */
function released() {
  vi.useFakeTimers();
  const collect = vi.fn();
  const lines: string[] = [];
  let busy = 0;
  const release = new MemoryRelease({
    collect,
    log: (l) => lines.push(l),
    busy: () => busy,
    now: () => Date.now(),
  });
  return { release, collect, lines, setBusy: (b: number) => (busy = b) };
}

function burst(release: MemoryRelease, n: number, close = n): void {
  for (let i = 0; i < n; i++) release.opened();
  for (let i = 0; i < close; i++) release.closed();
}

afterEach(() => {
  vi.useRealTimers();
  useMemoryRelease(undefined);
});

describe('the collection after a burst of closed connections', () => {
  it('runs once the open connections fell by `drop` from their peak and none closed for quietMs', () => {
    const { release, collect, lines } = released();
    burst(release, drop + 20, drop - 1);
    vi.advanceTimersByTime(10 * quietMs);
    expect(collect).not.toHaveBeenCalled(); // fallen by drop − 1: not far enough
    release.closed();
    vi.advanceTimersByTime(quietMs - 1);
    release.closed(); // one more close restarts the quiet time
    vi.advanceTimersByTime(quietMs - 1);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(release.stats.collections).toBe(1);
    expect(lines[0]).toMatch(
      /^released memory after 257 connections closed: one full, compacting collection, [\d.]+ ms/,
    );
    vi.advanceTimersByTime(10 * minIntervalMs);
    expect(collect).toHaveBeenCalledTimes(1); // once per burst
  });

  it('never more often than once per minIntervalMs, however many bursts', () => {
    const { release, collect } = released();
    burst(release, drop);
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
    const first = Date.now();
    burst(release, drop); // a second burst at once
    vi.advanceTimersByTime(minIntervalMs - 1);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(2);
    expect(Date.now() - first).toBe(minIntervalMs);
  });

  it('waits while the event loop is busy (still serving), rechecking every quietMs', () => {
    const { release, collect, setBusy } = released();
    setBusy(0.9);
    burst(release, drop);
    vi.advanceTimersByTime(5 * quietMs);
    expect(collect).not.toHaveBeenCalled();
    setBusy(0.01);
    vi.advanceTimersByTime(quietMs);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('never runs for ordinary churn: a few connections opened and closed again and again', () => {
    const { release, collect } = released();
    for (let round = 0; round < 1000; round++) burst(release, 20);
    vi.advanceTimersByTime(10 * minIntervalMs);
    expect(collect).not.toHaveBeenCalled();
    expect(release.open).toBe(0);
  });
});

describe('fullCollection', () => {
  it('collects what nothing references any more', async () => {
    const collect = fullCollection();
    let garbage: object | undefined = { payload: 'x'.repeat(1 << 16) };
    const ref = new WeakRef(garbage);
    garbage = undefined;
    // WeakRef targets stay alive until the end of the job that made them: collect in a later one.
    await new Promise((r) => setImmediate(r));
    collect();
    expect(ref.deref()).toBeUndefined();
    expect(garbage).toBeUndefined();
  });
});

describe("the server's connections", () => {
  it('are counted into the process release, and their close runs it', async () => {
    const collect = vi.fn();
    const release = new MemoryRelease(
      { collect, log: () => undefined, busy: () => 0 },
      { drop: 4, quietMs: 1, minIntervalMs: 1, idleBelow: 1 },
    );
    useMemoryRelease(release);
    expect(memoryRelease()).toBe(release);
    const server = createServer(serverOptions(DEFAULT_CONNECTION_LIMITS), (_req, res) => res.end());
    limitConnections(server, DEFAULT_CONNECTION_LIMITS, false, () => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        const s = connect(port, '127.0.0.1');
        s.on('error', () => undefined);
        sockets.push(s);
      }
      await until(() => release.open === 5);
      for (const s of sockets) s.destroy();
      await until(() => collect.mock.calls.length === 1);
      expect(release.open).toBe(0);
    } finally {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

/** Wait for `cond`, checked once per event-loop turn; the deadline only fails a test that hangs. */
async function until(cond: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error('never happened');
    await new Promise((r) => setImmediate(r));
  }
}
