// When a failed attempt may be repeated, and how long to wait first: the retry policy of every endpoint
// and the jittered exponential backoff that honours Retry-After.
import type { EndpointId } from '../contract/index.js';
import type { SandboxEndpointId } from './sandbox-endpoints.js';

/**
 * - `read`: no side effect; safe to repeat on anything transient.
 * - `create`: idempotent on merchant_operation_id (generated once per call), so safe to repeat.
 * - `cancel`: idempotent (spec §4.7 rule 3); an unresolved failure becomes CancelOutcomeUnknownError.
 * - `upload`: confirm_payment; repeated only when the body can be replayed (not a one-shot stream).
 * - `action`: a sandbox control that changes state and is not idempotent (pay, settle, review, clock advance,
 *   evidence switch, key issue/revoke, reset, webhook add/rotate-secret/remove/redeliver, pool layout, pool settings,
 *   link confirm, fault add/set/clear/remove, workspace create/delete): repeated only after a
 *   429/503 answer, which says it was not run;
 *   never after a timeout or a connection error, whose outcome is unknown.
 */
export type RetryClass = 'read' | 'create' | 'cancel' | 'upload' | 'action';

/** Keyed by the contract's endpoint ids, so a new endpoint cannot be added without deciding its policy. */
export const RETRY_CLASS: Record<EndpointId, RetryClass> = {
  'payment.create': 'create',
  'payment.link': 'create',
  'payment.flexible_link': 'create',
  'payout.create': 'create',
  'payment.confirm': 'upload',
  'operation.state': 'read',
  'operation.cancel': 'cancel',
  'balances.list': 'read',
  'payment.availability': 'read',
  'payment.recommendations': 'read',
  'health.livez': 'read',
  'health.healthz': 'read',
  'health.readyz': 'read',
};

/** The same for the sandbox's controls, by id (src/contract/controls.ts). */
export const SANDBOX_RETRY_CLASS: Record<SandboxEndpointId, RetryClass> = {
  'operations.list': 'read',
  'operations.show': 'read',
  'operations.stream': 'read',
  'logs.list': 'read',
  'logs.stream': 'read',
  'balances.all': 'read',
  'operations.pay': 'action',
  'operations.settle': 'action',
  'operations.review': 'action',
  'clock.show': 'read',
  'clock.advance': 'action',
  'evidence.show': 'read',
  'evidence.set': 'action',
  'keys.list': 'read',
  'keys.issue': 'action',
  'keys.revoke': 'action',
  'sandbox.reset': 'action',
  'webhooks.list': 'read',
  'webhooks.add': 'action',
  'webhooks.rotate_secret': 'action',
  'webhooks.remove': 'action',
  'webhooks.deliveries': 'read',
  'webhooks.redeliver': 'action',
  'pool.layout': 'action',
  'pool.show': 'read',
  'pool.settings': 'read',
  'pool.update_settings': 'action',
  'links.show': 'read',
  'links.confirm': 'action',
  'faults.list': 'read',
  'faults.add': 'action',
  'faults.set': 'action',
  'faults.clear': 'action',
  'faults.remove': 'action',
  'workspaces.create': 'action',
  'workspaces.list': 'read',
  'workspaces.delete': 'action',
};

/** The retry class of a gateway endpoint or a sandbox control route. */
export function retryClassOf(id: EndpointId | SandboxEndpointId): RetryClass {
  return Object.hasOwn(RETRY_CLASS, id) ? RETRY_CLASS[id as EndpointId] : SANDBOX_RETRY_CLASS[id as SandboxEndpointId];
}

export type Failure = { kind: 'status'; status: number } | { kind: 'connection' } | { kind: 'timeout' };

/** Statuses that mean "not processed, try again later". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Longest Retry-After the client will wait; a longer one is surfaced to the caller instead of slept through. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * Whether a failed attempt may be sent again. The gateway's classes are idempotent or free of side effects, so
 * 429, 503, timeouts and connection errors are retried; an upload only while its body can be replayed (never a
 * one-shot stream, which is consumed by the first attempt whatever the failure); a sandbox `action` only on a
 * 429/503 answer (it may have run before a timeout or a dropped connection, and running it twice is not safe).
 */
export function isRetryable(klass: RetryClass, failure: Failure, bodyReplayable: boolean): boolean {
  if (klass === 'upload' && !bodyReplayable) return false;
  if (klass === 'action' && failure.kind !== 'status') return false;
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
export function retryDelayMs(
  retryIndex: number,
  retryAfterSeconds: number | undefined,
  random?: () => number,
): number | undefined {
  if (retryAfterSeconds !== undefined) {
    if (retryAfterSeconds > MAX_RETRY_AFTER_SECONDS) return undefined;
    return retryAfterSeconds * 1000;
  }
  return backoffMs(retryIndex, random);
}
