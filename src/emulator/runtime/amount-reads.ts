// The limits of the advisory amount reads (spec §8), per sandbox replica: 5 requests per second per shop (then 429
// with Retry-After), one active read across all shops and both endpoints (a concurrent read gets an immediate 503,
// no queue), and a 2-second read budget. A sandbox setting adds simulated read latency, on the sandbox clock, so
// clients can exercise their 429/503 handling deterministically.
import type { SandboxClock } from './clock.js';
import { ApiError } from '../http/errors.js';

export const READS_PER_SECOND = 5;
export const READ_BUDGET_MS = 2000;

export interface ReadSettings {
  /** Simulated downstream latency of each read, in ms of sandbox time. Default 0. */
  read_latency_ms: number;
  /** Whether the per-shop rate limit applies. Default true (benchmarks turn it off). */
  rate_limit: boolean;
}

export const DEFAULT_READ_SETTINGS: ReadSettings = { read_latency_ms: 0, rate_limit: true };

export class AmountReadGate {
  /** Per shop: sandbox times of the reads admitted in the last second. */
  private readonly recent = new Map<string, number[]>();
  private active = false;
  /** Reads waiting out their simulated latency: released by a reset, whose clock drops their timers. */
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly settings: () => ReadSettings,
  ) {}

  /** Run one read under the limits; `read` runs at once (its result is what the caller sees after the latency). */
  async run<T>(shopId: string, read: (evaluatedAt: number) => T): Promise<T> {
    const now = this.clock.now();
    const settings = this.settings();
    if (settings.rate_limit) {
      const list = (this.recent.get(shopId) ?? []).filter((t) => t > now - 1000);
      this.recent.set(shopId, list);
      if (list.length >= READS_PER_SECOND) {
        const wait = Math.max(1, Math.ceil((list[0]! + 1000 - now) / 1000));
        throw new ApiError('rate_limited', `at most ${READS_PER_SECOND} availability/recommendation requests per second per shop; retry after ${wait} s`, { 'retry-after': String(wait) });
      }
      list.push(now);
    }
    if (this.active) {
      throw new ApiError('read_capacity_exhausted', 'another availability or recommendations read is in progress (one at a time per replica); retry with backoff', { 'retry-after': '1' });
    }
    this.active = true;
    try {
      const result = read(now);
      const latency = settings.read_latency_ms;
      if (latency > 0) {
        await new Promise<void>((resolve) => {
          const done = () => {
            this.waiting.delete(done);
            resolve();
          };
          this.waiting.add(done);
          this.clock.schedule(now + Math.min(latency, READ_BUDGET_MS), done);
        });
        if (latency > READ_BUDGET_MS) {
          throw new ApiError('read_timeout', `the pool read exceeded its ${READ_BUDGET_MS / 1000} s budget; retry later (this is not an empty pool)`, { 'retry-after': '1' });
        }
      }
      return result;
    } finally {
      this.active = false;
    }
  }

  /** Forget the rate windows and let waiting reads answer (sandbox reset). */
  reset(): void {
    this.recent.clear();
    for (const done of [...this.waiting]) done();
  }
}
