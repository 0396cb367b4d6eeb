// The small pure pieces of webhook delivery: secrets (new, fixture, masked, active during a rotation), delivery ids
// and the Retry-After header.
import { createHash, randomBytes } from 'node:crypto';
import type { WebhookEndpointRecord } from '../../store/state.js';

/** `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secret of a fixture endpoint that names none: derived from its id, so it is stable across runs. */
export function fixtureSecret(endpointId: string): string {
  return `whsec_${createHash('sha256').update(`paygate-webhook-secret:${endpointId}`).digest('base64')}`;
}

/** `whsec_…abcd`: only the last 4 characters. */
export function maskSecret(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

/** `dlv_<event id without evt_>.<endpoint id>`: unique per event × endpoint, stable across restarts. */
export function deliveryId(eventId: string, endpointId: string): string {
  return `dlv_${eventId.startsWith('evt_') ? eventId.slice(4) : eventId}.${endpointId}`;
}

/** The id of the endpoint the `url` option registers for a shop. */
export const optionEndpointId = (shopId: string) => `we_default_${shopId}`;

/** Secrets an attempt at `now` signs with: the current one and rotated-out ones still in their overlap. */
export function activeSecrets(ep: WebhookEndpointRecord, now: number): string[] {
  return [ep.secret, ...ep.previous_secrets.filter((p) => Date.parse(p.expires_at) > now).map((p) => p.secret)];
}

/** The longest wait a receiver's Retry-After may ask for: the retry schedule's longest step (10 h). */
export const MAX_RETRY_AFTER_MS = 36_000_000;

/**
 * A receiver's Retry-After in milliseconds — delta-seconds, or an HTTP date counted from `now` (sandbox time) —
 * clamped to 0…MAX_RETRY_AFTER_MS; 0 when absent or unreadable. Nothing a receiver sends can push a retry past the
 * schedule, or make the time unrepresentable.
 */
export function retryAfterMs(v: string | undefined, now = 0): number {
  if (v === undefined) return 0;
  const t = v.trim();
  const ms = /^\d+$/.test(t) ? Number(t) * 1000 : /[a-z]/i.test(t) ? Date.parse(t) - now : NaN;
  if (!Number.isFinite(ms) || ms <= 0) return 0;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/**
 * A webhook URL as listings show it: credentials in it — `user:password@` and the value of every query parameter
 * (`?token=…`) — masked like secrets. Unparseable input is shown as `***`.
 */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username) u.username = '***';
    if (u.password) u.password = '***';
    for (const k of [...new Set(u.searchParams.keys())]) u.searchParams.set(k, '***');
    return u.toString().replace(/=%2A%2A%2A/g, '=***');
  } catch {
    return '***';
  }
}

/** The shop already has the most webhook endpoints it may have (409 webhook_limit). */
export class WebhookLimitError extends Error {
  readonly code = 'webhook_limit';
}
