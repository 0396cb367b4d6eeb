// The `webhooks` section: one entry per event type, its body the contract's WebhookEvent (src/contract/webhook-event.ts)
// with `type` fixed, the three Standard Webhooks headers, and what the sandbox does with the receiver's answer.
import { WebhookEventType } from '../webhook-event.js';
import { ref, type Json } from './json-schema.js';

const HEADER_PARAMETERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: "The event id (the body's `id`), the same on every attempt.",
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      "Unix seconds of the attempt (wall time, fresh on every attempt and redelivery; never the sandbox clock), signed over, for the receiver's replay check: stock Standard Webhooks verifiers accept it with their default 5-minute tolerance however far the sandbox clock was advanced or frozen. Sandbox time is in the body: `created_at` (when the status changed) and the operation's own timestamps.",
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret (two during a rotation). Verify with `verifyWebhook` of `paygate/webhooks`.',
    schema: { type: 'string' },
  },
];

const RETRIED =
  'not delivered: attempted again with backoff (Retry-After honoured on 429 and 503), then marked failed.';

function pascal(type: string): string {
  return type.replace(/(^|[._])([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());
}

/** The `webhooks` object of the document. */
export function webhooksSection(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const type of WebhookEventType.options) {
    const status = type.slice('operation.'.length);
    out[type] = {
      post: {
        operationId: `webhook${pascal(type)}`,
        tags: ['webhooks'],
        summary: `An operation entered ${status}`,
        description: `Sent to every webhook endpoint of the operation's shop when the operation enters ${status}. The body is signed: verify it over the exact bytes received.`,
        security: [],
        parameters: HEADER_PARAMETERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { allOf: [ref('WebhookEvent'), { type: 'object', properties: { type: { const: type } } }] },
            },
          },
        },
        // No status ranges (`2XX`): code generators such as orval emit code that does not compile for them.
        responses: {
          '200': { description: 'Delivered: any 2xx answer (200 stands for them all); no further attempt.' },
          default: { description: `Any other answer, or none in time: ${RETRIED}` },
        },
      },
    };
  }
  return out;
}
