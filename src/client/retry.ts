// When a failed attempt may be repeated, and how long to wait first: the retry policy of every endpoint
// and the jittered exponential backoff that honours Retry-After.
import type { EndpointId } from '../contract/index.js';

/**
 * - `read`: no side effect; safe to repeat on anything transient.
 * - `create`: idempotent on merchant_operation_id (generated once per call), so safe to repeat.
 * - `cancel`: idempotent (spec §4.7 rule 3); an unresolved failure becomes CancelOutcomeUnknownError.
 * - `upload`: confirm_payment; repeated only when the body can be replayed (not a one-shot stream).
 */
export type RetryClass = 'read' | 'create' | 'cancel' | 'upload';

/** Keyed by the contract's endpoint ids, so a new endpoint cannot be added without deciding its policy. */
export const RETRY_CLASS: Record<EndpointId, RetryClass> = {
  createPayment: 'create',
  createPaymentLink: 'create',
  createFlexibleLink: 'create',
  createPayout: 'create',
  confirmPayment: 'upload',
  getOperationState: 'read',
  cancelOperation: 'cancel',
  getBalances: 'read',
  getAvailability: 'read',
  getRecommendations: 'read',
  livez: 'read',
  healthz: 'read',
  readyz: 'read',
};

export type Failure = { kind: 'status'; status: number } | { kind: 'connection' } | { kind: 'timeout' };

/** Statuses that mean "not processed, try again later". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Longest Retry-After the client will wait; a longer one is surfaced to the caller instead of slept through. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * Whether a failed attempt may be sent again. Every class is idempotent or free of side effects, so 429, 503,
 * timeouts and connection errors are retried; an upload only while its body can be replayed (never a one-shot
 * stream, which is consumed by the first attempt whatever the failure).
 */
export function isRetryable(klass: RetryClass, failure: Failure, bodyReplayable: boolean): boolean {
  if (klass === 'upload' && !bodyReplayable) return false;
  return failure.kind === 'status' ? RETRYABLE_STATUSES.has(failure.status) : true;
}

/** `min(0.5·2ⁿ, 8)` seconds × a jitter in (0.75, 1.0], for the n-th retry (n from 0). */
export function backoffMs(retryIndex: number, random: () => number = Math.random): number {
  const base = Math.min(0.5 * 2 ** retryIndex, 8);
  return base * (1 - random() * 0.25) * 1000;
}

/**
 * Delay before the n-th retry: Retry-After when the server sent one (429/503), else the backoff.
 * Returns undefined when Retry-After asks for more than MAX_RETRY_AFTER_SECONDS: do not retry then.
 */
export function retryDelayMs(retryIndex: number, retryAfterSeconds: number | undefined, random?: () => number): number | undefined {
  if (retryAfterSeconds !== undefined) {
    if (retryAfterSeconds > MAX_RETRY_AFTER_SECONDS) return undefined;
    return retryAfterSeconds * 1000;
  }
  return backoffMs(retryIndex, random);
}
