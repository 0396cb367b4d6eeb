// The receipt-check queue on its own: admission bounds (429 per shop, 503 in total, Retry-After), and which
// admitted check gets a worker next — a shop runs one check at a time, a freed worker goes to the shop with the
// fewest running, oldest upload first — driven by checks the test holds and lets go.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/emulator/http/errors.js';
import { RECEIPT_CHECK_LIMITS } from '../../src/emulator/receipts/limits.js';
import { ReceiptCheckQueue, type ReceiptCheckTicket } from '../../src/emulator/receipts/queue.js';

const limits = { workers: 2, runningPerShop: 1, perShop: 3, total: 5, retryAfterS: 5 };

/** Checks the test holds: `started` lists them in the order they got a worker; `finish(tag)` lets one go. */
function held() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const run = (ticket: ReceiptCheckTicket, tag: string) =>
    ticket.run(
      () =>
        new Promise<string>((resolve) => {
          started.push(tag);
          finishers.set(tag, () => resolve(tag));
        }),
    );
  const finish = async (tag: string) => {
    finishers.get(tag)!();
    for (let i = 0; i < 5; i++) await Promise.resolve(); // the queue's bookkeeping is a few microtasks
  };
  return { started, run, finish };
}

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof ApiError ? { status: e.status, code: e.code, retryAfter: e.headers['retry-after'] } : e;
  }
  return undefined;
};

describe('ReceiptCheckQueue', () => {
  it('the default bounds: 2 workers, one check per shop at a time, 4 per shop, 16 in total', () => {
    expect(RECEIPT_CHECK_LIMITS).toMatchObject({
      workers: 2,
      runningPerShop: 1,
      perShop: 4,
      total: 16,
      retryAfterS: 5,
    });
  });

  it('refuses past the shop bound with 429 and past the total with 503, both with Retry-After; a release makes room', () => {
    const q = new ReceiptCheckQueue(limits);
    const a = [q.admit('a'), q.admit('a'), q.admit('a')];
    expect(refusal(() => q.admit('a'))).toEqual({ status: 429, code: 'receipt_checks_busy', retryAfter: '5' });
    q.admit('b');
    q.admit('c');
    expect(q.size()).toBe(5);
    expect(refusal(() => q.admit('d'))).toEqual({ status: 503, code: 'receipt_checks_full', retryAfter: '5' });
    a[0]!.release();
    a[0]!.release(); // idempotent
    expect(q.size('a')).toBe(2);
    expect(refusal(() => q.admit('d'))).toBeUndefined();
  });

  it('a shop runs one check at a time, leaving the other worker to another shop; a freed worker goes to the least-served shop', async () => {
    const q = new ReceiptCheckQueue({ ...limits, perShop: 4, total: 10 });
    const { started, run, finish } = held();
    const runs = ['a1', 'a2', 'a3'].map((tag) => run(q.admit('a'), tag));
    await Promise.resolve();
    expect(started).toEqual(['a1']); // one worker idle, but shop A already runs one
    const b = run(q.admit('b'), 'b1');
    const c = run(q.admit('c'), 'c1');
    await Promise.resolve();
    expect(started).toEqual(['a1', 'b1']); // shop B did not wait behind shop A's queue
    await finish('a1'); // shop C has none running, shop A has a2 waiting since before c1: C is served first
    expect(started).toEqual(['a1', 'b1', 'c1']);
    await finish('b1');
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2']);
    await finish('c1');
    await finish('a2');
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    await finish('a3');
    expect(await Promise.all([...runs, b, c])).toEqual(['a1', 'a2', 'a3', 'b1', 'c1']);
  });

  it('a check that throws frees its worker', async () => {
    const q = new ReceiptCheckQueue(limits);
    await expect(q.admit('a').run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await q.admit('a').run(async () => 'next')).toBe('next');
  });
});
