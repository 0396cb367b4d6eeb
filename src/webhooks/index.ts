// Package entry `paygate/webhooks`: verify a webhook the sandbox (or the gateway) sent, per Standard Webhooks
// (https://www.standardwebhooks.com): HMAC-SHA256 over "id.timestamp.body", `v1,<base64>` signatures, `whsec_` secrets.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '../contract/webhook-event.js';

/**
 * The body of every webhook and its event types: inferred from the contract's zod schema (src/contract/webhook-event.ts),
 * the one the OpenAPI document lists under `webhooks`. Type-only: this entry loads no zod.
 */
export type { WebhookEvent, WebhookEventType } from '../contract/webhook-event.js';

/** Thrown by verifyWebhook: a missing or bad signature, a malformed header, or a stale timestamp. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyOptions {
  /** How far the `webhook-timestamp` may be from `now`, either way (seconds). Default 300. */
  toleranceSeconds?: number;
  /** The current time (epoch ms) to check the timestamp against. Default Date.now(). */
  now?: number;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v.join(' ') : v;
}

/** The raw key of a `whsec_<base64>` secret (a secret without the prefix is taken as base64 too). */
export function secretKey(secret: string): Buffer {
  const b64 = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(b64, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('the webhook secret is empty or not base64');
  return key;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for one secret. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string | Uint8Array): string {
  const mac = createHmac('sha256', secretKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * Verify a webhook and return its parsed event. `rawBody` must be the exact bytes received (do not re-serialize
 * parsed JSON). `secret` may be a list (e.g. during your own rotation): any match is accepted.
 * Throws WebhookVerificationError on a missing or bad signature or a timestamp outside the tolerance.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string | string[],
  opts: VerifyOptions = {},
): WebhookEvent {
  const { toleranceSeconds = 300, now = Date.now() } = opts;
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sigs = header(headers, 'webhook-signature');
  if (!id || !ts || !sigs)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d{1,12}$/.test(ts)) throw new WebhookVerificationError('invalid webhook-timestamp header');
  const seconds = Number(ts);
  if (Math.abs(now / 1000 - seconds) > toleranceSeconds) {
    throw new WebhookVerificationError(`webhook-timestamp is outside the tolerance of ${toleranceSeconds} s`);
  }
  const body =
    typeof rawBody === 'string'
      ? Buffer.from(rawBody, 'utf8')
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const expected = (Array.isArray(secret) ? secret : [secret]).map((s) =>
    Buffer.from(signature(s, id, seconds, body).slice(3), 'base64'),
  );
  const offered = sigs
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  const ok = offered.some((o) => expected.some((e) => e.length === o.length && timingSafeEqual(e, o)));
  if (!ok) throw new WebhookVerificationError('no matching webhook signature');
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the webhook body is not JSON');
  }
}
