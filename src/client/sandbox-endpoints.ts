// The route table of the sandbox's control API (/sandbox, see src/emulator/controls.ts), kept apart from the
// gateway's table in src/contract/endpoints.ts so the gateway's OpenAPI never lists the sandbox's controls.
// Same role as that table for the client: method, path, credential and response schema of every control call.
import { z } from 'zod';
import { Timestamp } from '../contract/money.js';
import { Operation } from '../contract/operations.js';
import {
  ClockState,
  EvidenceState,
  IssuedKey,
  KeyInfo,
  KeyList,
  LinkInfo,
  ListOperationsResponse,
  OperationDetails,
  PoolLayoutResponse,
  PoolState,
  ReadSettings,
} from '../contract/sandbox.js';

/** Body of POST /sandbox/reset (the sandbox answers `{ reset: true, now }`; not in src/contract/sandbox.ts yet). */
export const SandboxResetResponse = z.object({ reset: z.literal(true), now: Timestamp });
export type SandboxResetResponse = z.infer<typeof SandboxResetResponse>;

// The webhook controls (src/emulator/webhook-controls.ts) have no schema in src/contract yet: their answers are
// described here, field for field as the sandbox sends them.

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
export const SandboxWebhookCreated = z.object({ id: z.string(), url: z.string(), secret: z.string(), created_at: Timestamp });
export type SandboxWebhookCreated = z.infer<typeof SandboxWebhookCreated>;

/** POST /sandbox/webhooks/:id/rotate-secret: the new full secret (shown once) and when the old one stops being signed. */
export const SandboxWebhookRotated = SandboxWebhookCreated.extend({ previous_secret_expires_at: Timestamp });
export type SandboxWebhookRotated = z.infer<typeof SandboxWebhookRotated>;

/** DELETE /sandbox/webhooks/:id. */
export const SandboxWebhookDeleted = z.object({ id: z.string(), deleted: z.literal(true) });
export type SandboxWebhookDeleted = z.infer<typeof SandboxWebhookDeleted>;

/** One attempt of a delivery: `status_code` when an answer arrived, `error` when none did. */
export const SandboxWebhookAttempt = z.object({
  at: Timestamp,
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
  url: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  created_at: Timestamp,
  next_attempt_at: Timestamp.nullable(),
  attempts: z.array(SandboxWebhookAttempt),
  error: z.string().optional(),
});
export type SandboxWebhookDelivery = z.infer<typeof SandboxWebhookDelivery>;

/** GET /sandbox/webhooks/deliveries. */
export const SandboxWebhookDeliveries = z.object({ deliveries: z.array(SandboxWebhookDelivery) });
export type SandboxWebhookDeliveries = z.infer<typeof SandboxWebhookDeliveries>;

/** POST /sandbox/webhooks/deliveries/redeliver: how many deliveries were scheduled again, and which. */
export const SandboxWebhookRedelivered = z.object({ scheduled: z.number().int(), deliveries: z.array(SandboxWebhookDelivery) });
export type SandboxWebhookRedelivered = z.infer<typeof SandboxWebhookRedelivered>;

export interface SandboxEndpointDef {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path template; `:id` is filled from `RequestInput.params.id` (URL-encoded). */
  readonly path: string;
  readonly summary: string;
  /** `key`: the shop's X-API-Key (shop-scoped actions); `admin`: X-Admin-Token (cross-shop controls). */
  readonly auth: 'key' | 'admin';
  /** Response body on success. */
  readonly response: z.ZodType;
}

const def = <T extends SandboxEndpointDef>(d: T) => d;

export const sandboxEndpoints = {
  sandboxListOperations: def({
    id: 'sandboxListOperations',
    method: 'GET',
    path: '/sandbox/operations',
    summary: "List the shop's operations, newest first",
    auth: 'key',
    response: ListOperationsResponse,
  }),
  sandboxOperationDetails: def({
    id: 'sandboxOperationDetails',
    method: 'GET',
    path: '/sandbox/operations/:id',
    summary: 'Operation state with its history and uploads',
    auth: 'key',
    response: OperationDetails,
  }),
  sandboxPay: def({
    id: 'sandboxPay',
    method: 'POST',
    path: '/sandbox/operations/:id/pay',
    summary: 'The payer transfers to a pending payment',
    auth: 'key',
    response: Operation,
  }),
  sandboxSettle: def({
    id: 'sandboxSettle',
    method: 'POST',
    path: '/sandbox/operations/:id/settle',
    summary: 'The provider completes or fails a pending payout',
    auth: 'key',
    response: Operation,
  }),
  sandboxReview: def({
    id: 'sandboxReview',
    method: 'POST',
    path: '/sandbox/operations/:id/review',
    summary: 'A reviewer approves or declines a payment under manual check',
    auth: 'key',
    response: Operation,
  }),
  sandboxClock: def({ id: 'sandboxClock', method: 'GET', path: '/sandbox/clock', summary: 'Sandbox time', auth: 'admin', response: ClockState }),
  sandboxAdvanceClock: def({
    id: 'sandboxAdvanceClock',
    method: 'POST',
    path: '/sandbox/clock/advance',
    summary: 'Move sandbox time forward, running every timer that falls due',
    auth: 'admin',
    response: ClockState,
  }),
  sandboxEvidence: def({
    id: 'sandboxEvidence',
    method: 'GET',
    path: '/sandbox/evidence',
    summary: 'Whether receipt evidence is available',
    auth: 'admin',
    response: EvidenceState,
  }),
  sandboxSetEvidence: def({
    id: 'sandboxSetEvidence',
    method: 'PUT',
    path: '/sandbox/evidence',
    summary: 'Switch receipt evidence on or off',
    auth: 'admin',
    response: EvidenceState,
  }),
  sandboxListKeys: def({ id: 'sandboxListKeys', method: 'GET', path: '/sandbox/keys', summary: 'API keys of every shop', auth: 'admin', response: KeyList }),
  sandboxIssueKey: def({ id: 'sandboxIssueKey', method: 'POST', path: '/sandbox/keys', summary: 'Issue an API key for a shop', auth: 'admin', response: IssuedKey }),
  sandboxRevokeKey: def({
    id: 'sandboxRevokeKey',
    method: 'POST',
    path: '/sandbox/keys/:id/revoke',
    summary: 'Revoke an API key',
    auth: 'admin',
    response: KeyInfo,
  }),
  sandboxReset: def({
    id: 'sandboxReset',
    method: 'POST',
    path: '/sandbox/reset',
    summary: 'Forget every operation and issued key; re-seed from the fixtures',
    auth: 'admin',
    response: SandboxResetResponse,
  }),
  sandboxListWebhooks: def({
    id: 'sandboxListWebhooks',
    method: 'GET',
    path: '/sandbox/webhooks',
    summary: "The shop's webhook endpoints, secrets masked",
    auth: 'key',
    response: SandboxWebhookList,
  }),
  sandboxAddWebhook: def({
    id: 'sandboxAddWebhook',
    method: 'POST',
    path: '/sandbox/webhooks',
    summary: 'Register a webhook endpoint; its secret is in this answer only',
    auth: 'key',
    response: SandboxWebhookCreated,
  }),
  sandboxRotateWebhookSecret: def({
    id: 'sandboxRotateWebhookSecret',
    method: 'POST',
    path: '/sandbox/webhooks/:id/rotate-secret',
    summary: "Rotate a webhook endpoint's secret (the old one is signed alongside for 24 h)",
    auth: 'key',
    response: SandboxWebhookRotated,
  }),
  sandboxRemoveWebhook: def({
    id: 'sandboxRemoveWebhook',
    method: 'DELETE',
    path: '/sandbox/webhooks/:id',
    summary: 'Delete a webhook endpoint; its pending deliveries stop',
    auth: 'key',
    response: SandboxWebhookDeleted,
  }),
  sandboxWebhookDeliveries: def({
    id: 'sandboxWebhookDeliveries',
    method: 'GET',
    path: '/sandbox/webhooks/deliveries',
    summary: 'Webhook deliveries with every attempt',
    auth: 'key',
    response: SandboxWebhookDeliveries,
  }),
  sandboxRedeliverWebhooks: def({
    id: 'sandboxRedeliverWebhooks',
    method: 'POST',
    path: '/sandbox/webhooks/deliveries/redeliver',
    summary: 'Deliver an event again, or every failed delivery',
    auth: 'key',
    response: SandboxWebhookRedelivered,
  }),
  sandboxPoolLayout: def({
    id: 'sandboxPoolLayout',
    method: 'POST',
    path: '/sandbox/pool/layout',
    summary: "Lay out payouts of the key's shop in the pool its payout route reaches",
    auth: 'key',
    response: PoolLayoutResponse,
  }),
  sandboxPoolState: def({
    id: 'sandboxPoolState',
    method: 'GET',
    path: '/sandbox/pool',
    summary: 'The self-matching pools: windows, open slots and free remainders',
    auth: 'admin',
    response: PoolState,
  }),
  sandboxPoolSettings: def({
    id: 'sandboxPoolSettings',
    method: 'GET',
    path: '/sandbox/pool/settings',
    summary: 'The amount-read simulation: read latency and the per-shop rate limit',
    auth: 'admin',
    response: ReadSettings,
  }),
  sandboxSetPoolSettings: def({
    id: 'sandboxSetPoolSettings',
    method: 'POST',
    path: '/sandbox/pool/settings',
    summary: 'Change the amount-read simulation (read latency, rate limit)',
    auth: 'admin',
    response: ReadSettings,
  }),
  sandboxLink: def({
    id: 'sandboxLink',
    method: 'GET',
    path: '/sandbox/links/:id',
    summary: 'A flexible link as the sandbox keeps it',
    auth: 'key',
    response: LinkInfo,
  }),
  sandboxConfirmLink: def({
    id: 'sandboxConfirmLink',
    method: 'POST',
    path: '/sandbox/links/:id/confirm',
    summary: 'The payer confirms an amount on a flexible link; the payment is created',
    auth: 'key',
    response: Operation,
  }),
} as const;

export type SandboxEndpointId = keyof typeof sandboxEndpoints;
