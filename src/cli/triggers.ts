// The names `paygate trigger` knows and the event each produces, built from the contract's list of webhook event
// types (src/contract/webhook-event-types.ts): `payment.<status>` for every declared `operation.<status>` (which is
// accepted as a name too, for the same flow), plus the payout flows. No zod, no client: `trigger --help` lists them.
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookEventStatus,
  type WebhookEventTypeName,
} from '../contract/webhook-event-types.js';

export interface Trigger {
  /** The webhook event type the flow ends with. */
  event: WebhookEventTypeName;
  kind: 'payment' | 'payout';
  /** The flow, in a few words (help). */
  about: string;
}

/** A payment flow for every declared event type: adding a type to the contract fails to compile until it has one. */
const PAYMENT_FLOWS: Record<WebhookEventStatus, string> = {
  pending: 'create a payment',
  awaiting_confirmation: 'create a payment with client_id <id>+receipt (a route that requires a receipt)',
  manual_check: 'create it +receipt, then upload a receipt the check doubts (fixtures/receipts/fake-photoshop.pdf)',
  completed: 'create a payment, then the payer pays it (sandbox pay)',
  cancelled: 'create a payment, then cancel it (cancel_operation)',
  rejected: 'create a payment with client_id <id>+reject (every provider declines)',
};

const PAYOUT_FLOWS = {
  'payout.pending': { event: 'operation.pending', about: 'create a payout' },
  'payout.completed': {
    event: 'operation.completed',
    about: 'create a payout, then the provider completes it (sandbox settle --completed)',
  },
  'payout.failed': {
    event: 'operation.rejected',
    about: 'create a payout, then the provider fails it (sandbox settle --failed)',
  },
} as const satisfies Record<string, { event: WebhookEventTypeName; about: string }>;

const statusOf = (type: WebhookEventTypeName) => type.slice('operation.'.length) as WebhookEventStatus;

/** Every trigger by name: `payment.<status>`, `payout.*`, then each declared event type (its payment flow). */
export const TRIGGERS: ReadonlyMap<string, Trigger> = new Map<string, Trigger>([
  ...WEBHOOK_EVENT_TYPES.map((type): [string, Trigger] => [
    `payment.${statusOf(type)}`,
    { event: type, kind: 'payment', about: PAYMENT_FLOWS[statusOf(type)] },
  ]),
  ...Object.entries(PAYOUT_FLOWS).map(([name, t]): [string, Trigger] => [name, { ...t, kind: 'payout' }]),
  ...WEBHOOK_EVENT_TYPES.map((type): [string, Trigger] => [
    type,
    { event: type, kind: 'payment', about: `the same as payment.${statusOf(type)}` },
  ]),
]);

export const TRIGGER_NAMES: readonly string[] = [...TRIGGERS.keys()];
