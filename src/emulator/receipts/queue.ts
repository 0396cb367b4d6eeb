// The receipt-check queue of one sandbox. Admission is bounded per shop and in total, and is asked before the body
// is read, so a refusal (429 / 503 with Retry-After) costs nothing. An admitted check runs when a PDF worker is free
// for its shop: a shop runs at most `runningPerShop` checks at a time, and a freed worker goes round robin to the
// waiting shop served longest ago (oldest upload first within a shop), so one shop's uploads never queue another's.
import { ApiError } from '../http/errors.js';
import { RECEIPT_CHECK_LIMITS, type ReceiptCheckLimits } from './limits.js';

/** One admitted upload: run its check when a worker is free for its shop, then release its place. */
export interface ReceiptCheckTicket {
  readonly shop: string;
  /** Run `check` once a worker is free for this shop (at most one run at a time per ticket). */
  run<T>(check: () => Promise<T>): Promise<T>;
  /** Leave the queue. Idempotent. */
  release(): void;
}

interface Waiter {
  shop: string;
  seq: number;
  start: () => void;
}

export class ReceiptCheckQueue {
  private readonly admitted = new Map<string, number>();
  private admittedTotal = 0;
  private readonly running = new Map<string, number>();
  private runningTotal = 0;
  private readonly waiting: Waiter[] = [];
  /** When each shop with uploads admitted last had a check started (the start count then); absent: not yet. */
  private readonly lastStart = new Map<string, number>();
  private starts = 0;
  private seq = 0;

  constructor(readonly limits: ReceiptCheckLimits = RECEIPT_CHECK_LIMITS) {}

  /** Admit one upload of `shop`, or refuse it: 429 receipt_checks_busy (the shop's bound), 503 receipt_checks_full (the total). */
  admit(shop: string): ReceiptCheckTicket {
    const { perShop, total, retryAfterS } = this.limits;
    const retry = { 'retry-after': String(retryAfterS) };
    if ((this.admitted.get(shop) ?? 0) >= perShop) {
      throw new ApiError(
        'receipt_checks_busy',
        `this shop already has ${perShop} receipts being checked; nothing was stored, retry in ${retryAfterS} s`,
        retry,
      );
    }
    if (this.admittedTotal >= total) {
      throw new ApiError(
        'receipt_checks_full',
        `the sandbox already has ${total} receipts being checked; nothing was stored, retry in ${retryAfterS} s`,
        retry,
      );
    }
    this.admitted.set(shop, (this.admitted.get(shop) ?? 0) + 1);
    this.admittedTotal++;
    let released = false;
    return {
      shop,
      run: (check) => this.run(shop, check),
      release: () => {
        if (released) return;
        released = true;
        this.admittedTotal--;
        bump(this.admitted, shop, -1);
        if (!this.admitted.has(shop)) this.lastStart.delete(shop);
      },
    };
  }

  /** Uploads admitted now: of `shop`, or all. */
  size(shop?: string): number {
    return shop === undefined ? this.admittedTotal : (this.admitted.get(shop) ?? 0);
  }

  private async run<T>(shop: string, check: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.waiting.push({ shop, seq: ++this.seq, start });
      this.pump();
    });
    try {
      return await check();
    } finally {
      this.runningTotal--;
      bump(this.running, shop, -1);
      this.pump();
    }
  }

  private canStart(shop: string): boolean {
    return this.runningTotal < this.limits.workers && (this.running.get(shop) ?? 0) < this.limits.runningPerShop;
  }

  /** Whether `a` goes before `b`: its shop has fewer checks running, else was served longer ago, else it is older. */
  private before(a: Waiter, b: Waiter): boolean {
    const ra = this.running.get(a.shop) ?? 0;
    const rb = this.running.get(b.shop) ?? 0;
    if (ra !== rb) return ra < rb;
    const la = this.lastStart.get(a.shop) ?? -1;
    const lb = this.lastStart.get(b.shop) ?? -1;
    return la !== lb ? la < lb : a.seq < b.seq;
  }

  /** Start waiting checks while a worker is free, in the order of `before`: round robin over the shops. */
  private pump(): void {
    while (this.runningTotal < this.limits.workers) {
      let best: Waiter | undefined;
      for (const w of this.waiting) {
        if (this.canStart(w.shop) && (!best || this.before(w, best))) best = w;
      }
      if (!best) return;
      this.waiting.splice(this.waiting.indexOf(best), 1);
      this.runningTotal++;
      bump(this.running, best.shop, 1);
      this.lastStart.set(best.shop, ++this.starts);
      best.start();
    }
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

/** The receipt-check queue of one sandbox: owned by its service (no module-level state keyed by a service). */
export function receiptChecksOf(service: { readonly receiptChecks: ReceiptCheckQueue }): ReceiptCheckQueue {
  return service.receiptChecks;
}
