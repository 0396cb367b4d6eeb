// The webhook endpoint controls (POST/DELETE /sandbox/webhooks, the secret's rotation): each a change written through
// the service's pipeline. A rotated-out secret keeps signing for SECRET_OVERLAP_MS; a removed endpoint loses its
// secrets and ends its pending deliveries in the same commit.
import { randomBytes } from 'node:crypto';
import { MAX_WEBHOOK_ENDPOINTS } from '../../contract/sandbox-webhooks.js';
import { iso } from '../../domain/state.js';
import type { StoreChange, SandboxState, WebhookEndpointRecord } from '../../store/state.js';
import { endedByRemoval, shopDeliveries } from './deliveries.js';
import { newSecret, WebhookLimitError } from './records.js';

/** How long a rotated-out secret is still signed alongside the new one (sandbox time). */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** What the controls work with: the state they read, the sandbox time, and the service's write pipeline. */
export interface EndpointControlDeps {
  state(): SandboxState;
  now(): number;
  commit(changes: readonly StoreChange[]): Promise<void>;
}

/** Active endpoints of a shop, oldest first. */
export function activeEndpoints(state: SandboxState, shopId: string): WebhookEndpointRecord[] {
  const out: WebhookEndpointRecord[] = [];
  for (const e of state.webhookEndpoints.values()) if (e.shop_id === shopId && !e.deleted_at) out.push(e);
  return out;
}

/** Register `url` for the shop, with a new secret (409 past MAX_WEBHOOK_ENDPOINTS). */
export async function registerEndpoint(
  deps: EndpointControlDeps,
  shopId: string,
  url: string,
): Promise<WebhookEndpointRecord> {
  if (activeEndpoints(deps.state(), shopId).length >= MAX_WEBHOOK_ENDPOINTS) {
    throw new WebhookLimitError(
      `a shop may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; remove one first (DELETE /sandbox/webhooks/<id>)`,
    );
  }
  const endpoint: WebhookEndpointRecord = {
    id: `we_${randomBytes(8).toString('hex')}`,
    shop_id: shopId,
    url,
    secret: newSecret(),
    previous_secrets: [],
    source: 'api',
    created_at: iso(deps.now()),
  };
  await deps.commit([{ kind: 'webhook_endpoint', endpoint }]);
  return endpoint;
}

/** A new secret; the old one is still signed for SECRET_OVERLAP_MS (expired previous ones are dropped). */
export async function rotateEndpoint(
  deps: EndpointControlDeps,
  ep: WebhookEndpointRecord,
): Promise<WebhookEndpointRecord> {
  const now = deps.now();
  const kept = ep.previous_secrets.filter((p) => Date.parse(p.expires_at) > now);
  const next: WebhookEndpointRecord = {
    ...ep,
    secret: newSecret(),
    previous_secrets: [...kept, { secret: ep.secret, expires_at: iso(now + SECRET_OVERLAP_MS) }],
  };
  await deps.commit([{ kind: 'webhook_endpoint', endpoint: next }]);
  return next;
}

export async function removeEndpoint(deps: EndpointControlDeps, ep: WebhookEndpointRecord): Promise<void> {
  // A removed endpoint keeps its record (the journal only upserts), but not its secrets: they are purged. Its
  // pending deliveries end in the same commit, failed with `endpoint_deleted`: none is ever sent once it is gone.
  const stopped: StoreChange[] = shopDeliveries(deps.state(), ep.shop_id)
    .filter((d) => d.endpoint_id === ep.id && d.status === 'pending')
    .map((d) => ({ kind: 'webhook_delivery', delivery: endedByRemoval(d) }));
  await deps.commit([
    { kind: 'webhook_endpoint', endpoint: { ...ep, secret: '', previous_secrets: [], deleted_at: iso(deps.now()) } },
    ...stopped,
  ]);
}
