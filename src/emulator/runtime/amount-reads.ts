// The limits of the advisory amount reads (spec §8), per sandbox replica: 5 requests per second per shop (then 429
// with Retry-After), one active read across all shops and both endpoints (a concurrent read gets an immediate 503,
// no queue), and a 2-second read budget. A sandbox setting adds simulated read latency, on the sandbox clock, so
// clients can exercise their 429/503 handling deterministically.
//
// "Per second" on two clocks: a read leaves its shop's window once a second has passed on the sandbox clock OR in
// real time, whichever comes first. A frozen clock (deterministic CI) therefore frees the window after one real
// second, as a client sleeping out Retry-After expects, and advancing the sandbox clock frees it at once; on a
// running clock the two move together and it is the plain 5-per-second window.
import type { SandboxClock } from './clock.js';
import { ApiError } from '../http/errors.js';

export const READS_PER_SECOND = 5;
export const READ_BUDGET_MS = 2000;
const WINDOW_MS = 1000;

/** When a read was admitted, on both clocks. */
interface Admitted {
  sandbox: number;
  real: number;
}

export interface ReadSettings {
  /** Simulated downstream latency of each read, in ms of sandbox time. Default 0. */
  read_latency_ms: number;
  /** Whether the per-shop rate limit applies. Default true (benchmarks turn it off). */
  rate_limit: boolean;
}

export const DEFAULT_READ_SETTINGS: ReadSettings = { read_latency_ms: 0, rate_limit: true };

export class AmountReadGate {
  /** Per shop: the reads still in the window, oldest first. */
  private readonly recent = new Map<string, Admitted[]>();
  private active = false;
  /** Reads waiting out their simulated latency: released by a reset, whose clock drops their timers. */
  private readonly waiting = new Set<() => void>();

  /**
   * @param realNow Real time (epoch ms) the window also counts on. Default: the sandbox clock's source of real time
   *   (`SandboxOptions.realNow`, else Date.now).
   */
  constructor(
    private readonly clock: SandboxClock,
    private readonly settings: () => ReadSettings,
    private readonly realNow: () => number = () => clock.realNow(),
  ) {}

  /** Admit a read of `shopId` into its rate window, or throw 429 with the seconds until the oldest read leaves it. */
  private admit(shopId: string, now: number): void {
    const real = this.realNow();
    // How long `a` still stays in the window: until a second has passed on either clock.
    const left = (a: Admitted) => Math.min(a.sandbox + WINDOW_MS - now, a.real + WINDOW_MS - real);
    const list = (this.recent.get(shopId) ?? []).filter((a) => left(a) > 0);
    this.recent.set(shopId, list);
    if (list.length >= READS_PER_SECOND) {
      const wait = Math.max(1, Math.ceil(Math.min(...list.map(left)) / 1000));
      throw new ApiError(
        'rate_limited',
        `at most ${READS_PER_SECOND} availability/recommendation requests per second per shop; retry after ${wait} s`,
        { 'retry-after': String(wait) },
      );
    }
    list.push({ sandbox: now, real });
  }

  /** Run one read under the limits; `read` runs at once (its result is what the caller sees after the latency). */
  async run<T>(shopId: string, read: (evaluatedAt: number) => T): Promise<T> {
    const now = this.clock.now();
    const settings = this.settings();
    if (settings.rate_limit) this.admit(shopId, now);
    if (this.active) {
      throw new ApiError(
        'read_capacity_exhausted',
        'another availability or recommendations read is in progress (one at a time per replica); retry with backoff',
        { 'retry-after': '1' },
      );
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
          throw new ApiError(
            'read_timeout',
            `the pool read exceeded its ${READ_BUDGET_MS / 1000} s budget; retry later (this is not an empty pool)`,
            { 'retry-after': '1' },
          );
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
