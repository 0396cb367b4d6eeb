// The sandbox clock: every time-based behaviour (acceptance latency, settlement, expiry, review, retries) is a
// timer on this clock. It follows real time (plus any advance) by default, or stands still when frozen and
// moves only through advance(), which returns once every timer that fell due has run.

type TimerFn = () => void | Promise<void>;

interface Timer {
  at: number;
  seq: number;
  fn: TimerFn;
}

export interface ClockOptions {
  /** Stand still until advanced. Default false (follow real time). */
  frozen?: boolean;
  /** Initial sandbox time (epoch ms). Default: now. */
  start?: number;
  /** Source of real time; default Date.now. */
  realNow?: () => number;
  /** Called with errors thrown by timers. Default: console.error. */
  onError?: (err: unknown) => void;
  /** Told of every advance(), in this order (given here, never set later). Default none. */
  advance?: readonly AdvanceSubscriber[];
}

/** Told of every advance(): each `before` is awaited at its start, each `after` at its end, in list order. */
export interface AdvanceSubscriber {
  /** E.g. the service waits for the store, so that an advance applies to every change accepted before it (whose
   * timers are armed the moment it is written). */
  before?(): Promise<void>;
  /** E.g. the service records where the clock stands. */
  after?(): Promise<void>;
}

export class SandboxClock {
  readonly frozen: boolean;
  /** Real time (epoch ms): what the clock follows when not frozen, and what real-time limits count on. */
  readonly realNow: () => number;
  private offset: number;
  private frozenAt: number;
  /** Pending timers in time order from `head` on (those before `head` have run; dropped in batches, see take()). */
  private timers: Timer[] = [];
  private head = 0;
  private seq = 0;
  private handle: NodeJS.Timeout | undefined;
  /** Sandbox time the armed Node timer fires at (Infinity when none is armed). */
  private armedAt = Infinity;
  private running: Promise<void> | undefined;
  private closed = false;
  private readonly onError: (err: unknown) => void;
  private readonly subscribers: readonly AdvanceSubscriber[];

  constructor(opts: ClockOptions = {}) {
    this.frozen = opts.frozen ?? false;
    this.realNow = opts.realNow ?? Date.now;
    const start = opts.start ?? this.realNow();
    this.offset = start - this.realNow();
    this.frozenAt = start;
    this.onError = opts.onError ?? ((e) => console.error('paygate: timer failed:', e));
    this.subscribers = opts.advance ?? [];
  }

  now(): number {
    return this.frozen ? this.frozenAt : this.realNow() + this.offset;
  }

  /** Run `fn` when sandbox time reaches `at` (at once, on the next turn, if it already has). */
  schedule(at: number, fn: TimerFn): void {
    if (this.closed) return;
    const timer = { at, seq: this.seq++, fn };
    // Binary search for the first timer due later than `at`: equal times keep their scheduling order.
    let lo = this.head;
    let hi = this.timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timers[mid]!.at <= at) lo = mid + 1;
      else hi = mid;
    }
    const i = lo;
    this.timers.splice(i, 0, timer);
    // Re-arm only when the new timer is now the earliest: inserting later timers costs no timer churn.
    if (i === this.head || this.handle === undefined) this.arm();
  }

  pendingTimers(): number {
    return this.timers.length - this.head;
  }

  /** Sandbox time of the earliest pending timer, or undefined when none is pending (scenario wait_for). */
  nextTimerAt(): number | undefined {
    return this.timers[this.head]?.at;
  }

  /** Move sandbox time forward by `ms`, running every timer that falls due, in time order. */
  async advance(ms: number): Promise<void> {
    if (ms < 0) throw new RangeError('cannot move the clock backwards');
    for (const s of this.subscribers) await s.before?.();
    const target = this.now() + ms;
    await this.running;
    while (this.head < this.timers.length && this.timers[this.head]!.at <= target) {
      const t = this.take();
      if (this.frozen) this.frozenAt = Math.max(this.frozenAt, t.at);
      else this.offset = Math.max(this.offset, t.at - this.realNow());
      await this.run(t);
    }
    if (this.frozen) this.frozenAt = Math.max(this.frozenAt, target);
    else this.offset = Math.max(this.offset, target - this.realNow());
    // The offset moved: a timer armed before is due sooner now.
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
    this.arm();
    for (const s of this.subscribers) await s.after?.();
  }

  /** Drop every pending timer (sandbox reset). */
  clearTimers(): void {
    this.timers = [];
    this.head = 0;
    this.arm();
  }

  close(): void {
    this.closed = true;
    if (this.handle) clearTimeout(this.handle);
    this.timers = [];
    this.head = 0;
  }

  /**
   * The earliest timer, out of the queue. Not shift(): on a large array (tens of thousands of timers, e.g. every
   * pending payment's expiry) each shift moves the whole array, so running a backlog of due timers was quadratic.
   * The run ones are dropped once they are at least half of the array (amortised O(1) per timer).
   */
  private take(): Timer {
    const t = this.timers[this.head]!;
    this.timers[this.head++] = undefined as unknown as Timer;
    if (this.head >= 1024 && this.head * 2 >= this.timers.length) {
      this.timers.splice(0, this.head);
      this.head = 0;
    }
    return t;
  }

  private async run(t: Timer): Promise<void> {
    try {
      await t.fn();
    } catch (e) {
      this.onError(e);
    }
  }

  private arm(): void {
    if (this.closed) return;
    const next = this.timers[this.head];
    if (this.handle && next && next.at === this.armedAt) return;
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
    this.armedAt = Infinity;
    if (!next) return;
    if (this.frozen && next.at > this.frozenAt) return;
    this.armedAt = next.at;
    const delay = Math.max(0, next.at - this.now());
    this.handle = setTimeout(
      () => {
        this.handle = undefined;
        this.armedAt = Infinity;
        void this.runDue();
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    this.handle.unref();
  }

  private async runDue(): Promise<void> {
    if (this.running) return;
    this.running = (async () => {
      while (this.head < this.timers.length && this.timers[this.head]!.at <= this.now()) {
        await this.run(this.take());
      }
    })();
    await this.running;
    this.running = undefined;
    this.arm();
  }
}
