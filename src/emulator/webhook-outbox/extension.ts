// The outbox's records for the pipeline's extend stage (pure): for every event of a transaction whose shop has
// webhook endpoints, its payload rendered once (every attempt to every endpoint sends and signs these exact bytes) and
// one pending delivery per endpoint, due at once — written in the same commit as the event.
import type { OperationEvent } from '../../domain/transitions.js';
import type { WorldIndex } from '../../domain/world.js';
import type { StoreChange, WebhookDeliveryRecord, WebhookEndpointRecord } from '../../store/state.js';
import type { WebhookEvent } from '../../webhooks/index.js';
import { toWireState, type EvidenceOptions, type PublicOperation } from '../wire.js';
import { deliveryId } from './records.js';

/** The JSON body of an event (computed once, at commit time, and sent unchanged on every attempt). */
export function renderEvent(event: OperationEvent, world: WorldIndex, evidence: EvidenceOptions): string {
  // The wire view reads no history: the event's snapshot of the operation serves as is.
  const op = event.operation as unknown as PublicOperation;
  const body: WebhookEvent = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    data: { operation: toWireState(op, world, evidence) },
  };
  return JSON.stringify(body);
}

export interface OutboxView {
  /** Active endpoints of a shop. */
  endpointsOf(shopId: string): WebhookEndpointRecord[];
  render(event: OperationEvent): string;
  /** The commit's time, ISO. */
  now(): string;
}

/** The payloads and deliveries that ride with `changes` (none when no event's shop has an endpoint). */
export function outboxRecords(changes: readonly StoreChange[], view: OutboxView): StoreChange[] {
  const out: StoreChange[] = [];
  let at: string | undefined;
  let byShop: Map<string, WebhookEndpointRecord[]> | undefined;
  for (const ch of changes) {
    if (ch.kind !== 'event') continue;
    const shop = ch.event.shop_id;
    byShop ??= new Map();
    let endpoints = byShop.get(shop);
    if (!endpoints) byShop.set(shop, (endpoints = view.endpointsOf(shop)));
    if (endpoints.length === 0) continue;
    at ??= view.now();
    out.push({ kind: 'webhook_payload', payload: { id: ch.event.id, body: view.render(ch.event) } });
    for (const ep of endpoints) {
      // The endpoint by reference: an attempt reads its URL and secrets when it is sent.
      const delivery: WebhookDeliveryRecord = {
        id: deliveryId(ch.event.id, ep.id),
        event_id: ch.event.id,
        endpoint_id: ep.id,
        status: 'pending',
        round_start: 0,
        next_attempt_at: at,
        created_at: at,
      };
      out.push({ kind: 'webhook_delivery', delivery });
    }
  }
  return out;
}
