// The small pure pieces of webhook delivery: secrets (new, fixture, masked, active during a rotation), delivery ids
// and the Retry-After header.
import { createHash, randomBytes } from 'node:crypto';
import type { WebhookAttempt, WebhookDeliveryRecord, WebhookEndpointRecord } from '../../store/state.js';

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

/** Retry-After in milliseconds (delta-seconds only), or 0. */
export function retryAfterMs(v: string | undefined): number {
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) * 1000 : 0;
}

/** A delivery as the controls list it: the record with its attempts. */
export type WebhookDelivery = WebhookDeliveryRecord & { attempts: Omit<WebhookAttempt, 'id' | 'delivery_id'>[] };
