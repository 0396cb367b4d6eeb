// The one group-commit writer: gathers the items submitted in one event-loop turn (setImmediate: every request of
// one poll phase joins one write), hands them to `write` in groups of at most `maxGroup`, one group at a time, and
// runs exclusive steps (a snapshot) in order between groups. The Store writes its transactions through one; the
// backends' own commit() (tools and tests) goes through one too; they are never stacked, so a transaction waits for
// one turn, not two.
// Bounds: at most `maxQueued` items wait; a submit beyond that throws `GroupWriterFullError` at once and queues
// nothing (the caller answers 503). A group is never empty and never larger than `maxGroup` (asserted).
import { StoreUnavailableError } from './errors.js';

export interface GroupWriterOptions<T> {
  /** Write one group (1..maxGroup items, in submit order), e.g. a backend's "write this group". */
  write(group: readonly T[]): Promise<void>;
  /**
   * A group settled (`error` undefined: written). Runs before any `sync()` waiter resumes. With `cascade`, a failed
   * group's `items` also hold every item queued behind it (planned on top of it), which is taken back with it.
   */
  settle(items: readonly T[], error: unknown): void;
  /** Most items in one group. */
  maxGroup: number;
  /** Most items waiting to be written; a submit beyond it throws GroupWriterFullError. */
  maxQueued: number;
  /** A failed group takes back every item queued behind it too (default false: each group settles alone). */
  cascade?: boolean;
}

/** The writer's queue is full: nothing was queued. */
/** The write queue is full: nothing of the transaction was kept; a store that cannot take a write now (503). */
export class GroupWriterFullError extends StoreUnavailableError {
  constructor(readonly limit: number) {
    super(undefined, `the write queue is full (${limit} transactions waiting): try again shortly`);
  }
}

type Step = { step: () => Promise<void>; resolve(): void; reject(e: unknown): void; counted: boolean };
type Slot<T> = { item: T } | Step;

export class GroupWriter<T> {
  #queue: Slot<T>[] = [];
  #items = 0;
  #running = false;
  #scheduled = false;
  /** Slots submitted, and slots settled (in order): sync() waits for the count at its call. */
  #submitted = 0;
  #settled = 0;
  #waiters: { upto: number; resolve(): void }[] = [];

  constructor(private readonly opts: GroupWriterOptions<T>) {
    if (!(opts.maxGroup >= 1) || !(opts.maxQueued >= opts.maxGroup))
      throw new RangeError('GroupWriter: need 1 ≤ maxGroup ≤ maxQueued');
  }

  /** Items waiting or being written. */
  get pending(): number {
    return this.#items;
  }

  /** Nothing queued, nothing being written. */
  get idle(): boolean {
    return !this.#running && this.#queue.length === 0;
  }

  /** Queue an item for the next group write; `settle` reports its outcome. Throws GroupWriterFullError when full. */
  submit(item: T): void {
    if (this.#items >= this.opts.maxQueued) throw new GroupWriterFullError(this.opts.maxQueued);
    this.#items++;
    this.#push({ item });
  }

  /** Run `step` alone, after every item submitted before it and before every item submitted after it. */
  run(step: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => this.#push({ step, resolve, reject, counted: true }));
  }

  /**
   * Run `step` alone before anything queued now (from `settle`: between the group just written and the next one),
   * e.g. setting the journal aside for a snapshot of the state as written so far. sync() does not wait for it.
   */
  runFirst(step: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.unshift({ step, resolve, reject, counted: false });
      this.#schedule();
    });
  }

  /** Resolves once everything submitted so far has settled (written or refused). Never rejects. */
  sync(): Promise<void> {
    if (this.#settled >= this.#submitted) return Promise.resolve();
    const upto = this.#submitted;
    return new Promise<void>((resolve) => this.#waiters.push({ upto, resolve }));
  }

  #push(slot: Slot<T>): void {
    this.#submitted++;
    this.#queue.push(slot);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#running || this.#scheduled) return;
    this.#scheduled = true;
    // setImmediate, not a microtask: every item of this poll phase joins one write. Tests that fake timers fake Date only.
    setImmediate(() => {
      this.#scheduled = false;
      void this.#drain();
    });
  }

  /** Runs until the queue is empty. Never throws: every outcome goes to `settle` or the step's promise. */
  async #drain(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        const head = this.#queue[0]!;
        if ('step' in head) {
          this.#queue.shift();
          try {
            await head.step();
            head.resolve();
          } catch (e) {
            head.reject(e);
          }
          if (head.counted) this.#done(1);
          continue;
        }
        let n = 1;
        while (n < this.#queue.length && n < this.opts.maxGroup && !('step' in this.#queue[n]!)) n++;
        const slots = this.#queue.splice(0, n) as { item: T }[];
        const group = slots.map((s) => s.item);
        if (group.length === 0 || group.length > this.opts.maxGroup)
          throw new Error(`GroupWriter: a group of ${group.length} items`);
        let error: unknown;
        try {
          await this.opts.write(group);
        } catch (e) {
          error = e ?? new Error('write failed');
        }
        let count = n;
        if (error !== undefined && this.opts.cascade) {
          // Everything queued behind the failed group was planned on top of it: it goes back with it.
          const behind = this.#queue.filter((s): s is { item: T } => !('step' in s));
          this.#queue = this.#queue.filter((s) => 'step' in s);
          for (const s of behind) group.push(s.item);
          count += behind.length;
        }
        this.#items -= group.length;
        try {
          this.opts.settle(group, error);
        } finally {
          this.#done(count);
        }
      }
    } finally {
      this.#running = false;
    }
  }

  #done(n: number): void {
    this.#settled += n;
    if (this.#waiters.length === 0) return;
    const ready = this.#waiters.filter((w) => w.upto <= this.#settled);
    this.#waiters = this.#waiters.filter((w) => w.upto > this.#settled);
    for (const w of ready) w.resolve();
  }
}
