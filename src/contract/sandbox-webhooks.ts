// The webhook controls of the sandbox (/sandbox/webhooks, shop X-API-Key): requests and answers, field for field
// as the sandbox sends them. Secrets are whole only in the answers of add and rotate-secret.
import { z } from 'zod';
import { Timestamp } from './money.js';

/** The longest webhook URL accepted (POST /sandbox/webhooks). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** The most active webhook endpoints one shop may have: each event becomes one delivery per endpoint. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/** POST /sandbox/webhooks. */
export const RegisterWebhookRequest = z.object({
  url: z
    .url({ protocol: /^https?$/, message: 'url must be an absolute http(s) URL' })
    .max(MAX_WEBHOOK_URL_LENGTH, { message: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` }),
});

/** POST /sandbox/webhooks/deliveries/redeliver: exactly one of `event_id` or `failed: true`. */
export const RedeliverRequest = z
  .object({ event_id: z.string().min(1).optional(), failed: z.literal(true).optional() })
  .refine((b) => (b.event_id !== undefined) !== (b.failed !== undefined), {
    message: 'send exactly one of event_id or failed: true',
  });

/** Deliveries per page of GET /sandbox/webhooks/deliveries when `limit` is not given, and the most `limit` may ask for. */
export const DELIVERIES_PAGE_DEFAULT = 50;
export const DELIVERIES_PAGE_MAX = 200;

/** GET /sandbox/webhooks/deliveries: newest first, `limit` at a time; `cursor` is the previous page's `next_cursor`. */
export const DeliveriesQuery = z.object({
  failed: z.enum(['true', 'false']).optional(),
  event_id: z.string().min(1).optional(),
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int()
    .min(1)
    .max(DELIVERIES_PAGE_MAX)
    .default(DELIVERIES_PAGE_DEFAULT)
    .meta({ description: `Deliveries per page, 1 to ${DELIVERIES_PAGE_MAX} (default ${DELIVERIES_PAGE_DEFAULT}).` }),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .meta({ description: "The previous page's `next_cursor`: the page after it." }),
});

/** A webhook endpoint as listed: `secret` masked to its last 4 characters (`whsec_…abcd`). */
export const SandboxWebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  secret: z.string(),
  created_at: Timestamp,
  /** While a rotation's old secret is still signed alongside: when it stops being. */
  previous_secret_expires_at: Timestamp.optional(),
});
export type SandboxWebhookEndpoint = z.infer<typeof SandboxWebhookEndpoint>;

/** GET /sandbox/webhooks. */
export const SandboxWebhookList = z.object({ webhooks: z.array(SandboxWebhookEndpoint) });
export type SandboxWebhookList = z.infer<typeof SandboxWebhookList>;

/** POST /sandbox/webhooks (201): the full `whsec_` secret, in this answer only. */
export const SandboxWebhookCreated = z.object({
  id: z.string(),
  url: z.string(),
  secret: z.string(),
  created_at: Timestamp,
});
export type SandboxWebhookCreated = z.infer<typeof SandboxWebhookCreated>;

/** POST /sandbox/webhooks/:id/rotate-secret: the new full secret (shown once) and when the old one stops being signed. */
export const SandboxWebhookRotated = SandboxWebhookCreated.extend({ previous_secret_expires_at: Timestamp });
export type SandboxWebhookRotated = z.infer<typeof SandboxWebhookRotated>;

/** DELETE /sandbox/webhooks/:id. */
export const SandboxWebhookDeleted = z.object({ id: z.string(), deleted: z.literal(true) });
export type SandboxWebhookDeleted = z.infer<typeof SandboxWebhookDeleted>;

/** One attempt of a delivery: `status_code` when an answer arrived, `error` when none did. */
export const SandboxWebhookAttempt = z.object({
  at: Timestamp.meta({ description: 'When the attempt started (sandbox time, RFC 3339).' }),
  webhook_timestamp: z.number().int().nonnegative().optional().meta({
    description:
      'The `webhook-timestamp` header it was signed and sent with: Unix seconds of wall time (absent for attempts recorded by older versions).',
  }),
  status_code: z.number().int().optional(),
  error: z.string().optional(),
  duration_ms: z.number(),
});
export type SandboxWebhookAttempt = z.infer<typeof SandboxWebhookAttempt>;

/** One event × endpoint delivery with every attempt. */
export const SandboxWebhookDelivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  endpoint_id: z.string(),
  /** The endpoint's URL (credentials masked): the one its next attempt goes to. */
  url: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  created_at: Timestamp,
  next_attempt_at: Timestamp.nullable(),
  attempts: z.array(SandboxWebhookAttempt),
  /** Why it stopped without another attempt: `endpoint_deleted` (its endpoint was removed while it was pending). */
  error: z.string().optional(),
});
export type SandboxWebhookDelivery = z.infer<typeof SandboxWebhookDelivery>;

/** GET /sandbox/webhooks/deliveries: one page, newest first; `next_cursor` (with `has_more`) asks for the next. */
export const SandboxWebhookDeliveries = z.object({
  deliveries: z.array(SandboxWebhookDelivery),
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});
export type SandboxWebhookDeliveries = z.infer<typeof SandboxWebhookDeliveries>;

/** POST /sandbox/webhooks/deliveries/redeliver: how many deliveries were scheduled again, and which. */
export const SandboxWebhookRedelivered = z.object({
  scheduled: z.number().int(),
  deliveries: z.array(SandboxWebhookDelivery),
});
export type SandboxWebhookRedelivered = z.infer<typeof SandboxWebhookRedelivered>;
