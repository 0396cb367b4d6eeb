// Reading the outbox: a shop's deliveries as the controls show them (the record with its endpoint's URL, its event's
// type and its attempts), filtered, and paged newest first by a cursor (the last delivery id of the previous page).
import type { DeliveryAttempt, SandboxState, WebhookDeliveryRecord } from '../../store/state.js';

/** A delivery as the controls list it: the record, what it names (the endpoint's URL, the event's type), its attempts. */
export type WebhookDelivery = WebhookDeliveryRecord & {
  /** The endpoint's URL, unmasked (the control masks it). */
  url: string;
  event_type: string;
  attempts: DeliveryAttempt[];
};

/** Which deliveries a list or a redelivery takes. */
export interface DeliveryFilter {
  failed?: boolean;
  event_id?: string;
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  has_more: boolean;
  /** Pass back as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}

/** The cursor is not a delivery of this shop (400). */
export class UnknownCursorError extends Error {}

export function matches(d: WebhookDeliveryRecord, filter: DeliveryFilter): boolean {
  return !(filter.failed && d.status !== 'failed') && !(filter.event_id && d.event_id !== filter.event_id);
}

export function deliveryView(state: SandboxState, d: WebhookDeliveryRecord): WebhookDelivery {
  const attempts = d.attempts ?? [];
  const url = state.webhookEndpoints.get(d.endpoint_id)?.url ?? '';
  const event_type = state.events.get(d.event_id)?.type ?? '';
  return { ...d, url, event_type, attempts };
}

/** Every matching delivery of the shop, oldest first. */
export function shopDeliveries(
  state: SandboxState,
  shopId: string,
  filter: DeliveryFilter = {},
): WebhookDeliveryRecord[] {
  const out: WebhookDeliveryRecord[] = [];
  for (const id of state.deliveryIndex.of(shopId)) {
    const d = state.webhookDeliveries.get(id);
    if (d && matches(d, filter)) out.push(d);
  }
  return out;
}

/** Up to `limit` matching deliveries of the shop, newest first, after `cursor`. Throws UnknownCursorError. */
export function pageDeliveries(
  state: SandboxState,
  shopId: string,
  filter: DeliveryFilter,
  limit: number,
  cursor?: string,
): DeliveryPage {
  const ids = state.deliveryIndex.newestFirst(shopId, cursor);
  if (!ids)
    throw new UnknownCursorError(
      `cursor ${JSON.stringify(cursor)} is not from this shop's deliveries list; start again without it`,
    );
  const page: WebhookDelivery[] = [];
  for (const id of ids) {
    const d = state.webhookDeliveries.get(id);
    if (!d || !matches(d, filter)) continue;
    if (page.length === limit) return { deliveries: page, has_more: true, next_cursor: page.at(-1)!.id };
    page.push(deliveryView(state, d));
  }
  return { deliveries: page, has_more: false, next_cursor: null };
}

/** A pending delivery whose endpoint was removed: failed, with the reason, no next attempt. */
export function endedByRemoval(d: WebhookDeliveryRecord): WebhookDeliveryRecord {
  return { ...d, status: 'failed', next_attempt_at: null, error: 'endpoint_deleted' };
}

export function withoutError(d: WebhookDeliveryRecord): WebhookDeliveryRecord {
  const { error: _e, ...rest } = d;
  return rest;
}
