// What an attempt's outcome makes of its delivery (pure): the attempt appended, and the delivery succeeded, failed
// for good once its round of RETRY_SCHEDULE_MS is spent, or pending again at the next delay of the schedule (or the
// receiver's Retry-After, when longer).
import { iso } from '../../domain/state.js';
import type { DeliveryAttempt, WebhookDeliveryRecord } from '../../store/state.js';
import type { AttemptOutcome } from './attempt-runner.js';
import { retryAfterMs } from './records.js';
import { withoutError } from './deliveries.js';

/** Delay before each attempt, from the previous one (sandbox time): at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** When and how the attempt went out (kept while it is in flight). */
export interface AttemptStart {
  startedAt: number;
  /** The `webhook-timestamp` it carried (wall-clock seconds). */
  timestamp: number;
}

/** The delivery once `outcome` is recorded at sandbox time `now`; `retry` when it is pending again. */
export function afterAttempt(
  current: WebhookDeliveryRecord,
  start: AttemptStart,
  outcome: AttemptOutcome,
  now: number,
): { next: WebhookDeliveryRecord; retry: boolean } {
  const attempt: DeliveryAttempt = {
    at: iso(start.startedAt),
    webhook_timestamp: start.timestamp,
    duration_ms: outcome.duration_ms,
  };
  if (outcome.status_code !== undefined) attempt.status_code = outcome.status_code;
  if (outcome.error !== undefined) attempt.error = outcome.error;
  const attempts = current.attempts ? [...current.attempts, attempt] : [attempt];
  const made = attempts.length;
  const ok = outcome.status_code !== undefined && outcome.status_code >= 200 && outcome.status_code < 300;
  if (current.status !== 'pending') {
    // Its endpoint was removed while the attempt was on the wire: recorded, never retried; delivered if it was.
    const next = ok ? { ...withoutError(current), status: 'succeeded' as const, attempts } : { ...current, attempts };
    return { next, retry: false };
  }
  if (ok) return { next: { ...current, status: 'succeeded', next_attempt_at: null, attempts }, retry: false };
  if (made - current.round_start >= RETRY_SCHEDULE_MS.length) {
    return { next: { ...current, status: 'failed', next_attempt_at: null, attempts }, retry: false };
  }
  const delay = Math.max(RETRY_SCHEDULE_MS[made - current.round_start]!, retryAfterMs(outcome.retry_after, now));
  return { next: { ...current, status: 'pending', next_attempt_at: iso(now + delay), attempts }, retry: true };
}
