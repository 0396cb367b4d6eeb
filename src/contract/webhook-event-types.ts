// The webhook event types, declared once as a plain list (no zod): the contract's WebhookEventType enum is built from
// it, and so are the CLI's `paygate trigger` names, whose help must not load zod.

/** One event type per public status an operation enters; `admitting` (internal) never fires. */
export const WEBHOOK_EVENT_TYPES = [
  'operation.pending',
  'operation.awaiting_confirmation',
  'operation.manual_check',
  'operation.completed',
  'operation.cancelled',
  'operation.rejected',
] as const;

export type WebhookEventTypeName = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The status an event type names: `operation.<status>`. */
export type WebhookEventStatus = WebhookEventTypeName extends `operation.${infer S}` ? S : never;
