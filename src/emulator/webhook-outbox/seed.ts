// The endpoints a sandbox starts with: the world's fixture webhooks and, with the `url` option, one endpoint per shop
// sharing one secret. Run on open and after a reset; only what is missing or changed is written.
import type { World } from '../../domain/world.js';
import type { SandboxState, StoreChange } from '../../store/state.js';
import { fixtureSecret, newSecret, optionEndpointId } from './records.js';

export interface SeededEndpoints {
  changes: StoreChange[];
  /** The secret of the `url` option's endpoints (undefined without the option). */
  optionSecret: string | undefined;
}

/**
 * The endpoint changes to seed at `at`. A changed `url` option rewrites the shops' option endpoints in place (same
 * id): their pending deliveries go to the new URL, as every attempt reads its endpoint's URL when it is sent.
 */
export function seedEndpoints(
  state: SandboxState,
  world: World,
  url: string | undefined,
  optionSecret: string | undefined,
  at: string,
): SeededEndpoints {
  const changes: StoreChange[] = [];
  for (const w of world.webhooks ?? []) {
    if (state.webhookEndpoints.has(w.id)) continue;
    changes.push({
      kind: 'webhook_endpoint',
      endpoint: {
        id: w.id,
        shop_id: w.shop_id,
        url: w.url,
        secret: w.secret ?? fixtureSecret(w.id),
        previous_secrets: [],
        source: 'fixture',
        created_at: at,
      },
    });
  }
  if (!url) return { changes, optionSecret };
  // One secret for every shop, kept across restarts of a file store.
  const stored = world.shops
    .map((s) => state.webhookEndpoints.get(optionEndpointId(s.id)))
    .find((e) => e && !e.deleted_at);
  const secret = optionSecret ?? stored?.secret ?? newSecret();
  for (const shop of world.shops) {
    const current = state.webhookEndpoints.get(optionEndpointId(shop.id));
    if (current && !current.deleted_at && current.url === url && current.secret === secret) continue;
    changes.push({
      kind: 'webhook_endpoint',
      endpoint: {
        id: optionEndpointId(shop.id),
        shop_id: shop.id,
        url,
        secret,
        previous_secrets: [],
        source: 'option',
        created_at: at,
      },
    });
  }
  return { changes, optionSecret: secret };
}
