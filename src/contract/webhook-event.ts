// The body of every webhook the sandbox sends (spec §6 leaves it unshown; this is ours): one event per public status
// an operation enters, signed per Standard Webhooks. `paygate/webhooks` types verifyWebhook's result with it, and the
// OpenAPI document lists it under `webhooks`.
import { z } from 'zod';
import { Timestamp } from './money.js';
import { OperationState } from './operations.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types.js';

/** One event type per public status an operation enters (the list: webhook-event-types.ts); `admitting` never fires. */
export const WebhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES)
  .meta({ id: 'WebhookEventType', description: '`operation.<status>`: the public status the operation entered.' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WebhookEvent = z
  .object({
    id: z.string().meta({
      description: 'Event id, also the `webhook-id` header and the same on every attempt: deduplicate on it.',
      examples: ['evt_1b971a67-1723-5d72-9a5c-ed5ba1404fd6_1'],
    }),
    type: WebhookEventType,
    created_at: Timestamp.meta({ description: 'When the status changed (sandbox time, RFC 3339).' }),
    data: z
      .object({ operation: OperationState })
      .meta({ description: 'The operation as get_operation_state showed it at that moment.' }),
  })
  .meta({ id: 'WebhookEvent', description: 'The JSON body of every webhook.' });
export type WebhookEvent = z.infer<typeof WebhookEvent>;
