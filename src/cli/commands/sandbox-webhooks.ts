// `paygate sandbox webhooks add | list | rotate-secret | remove | deliveries | redeliver` (flags:
// define/sandbox-webhooks.ts): the shop's webhook endpoints and deliveries (shop API key). A full whsec_ secret is
// printed by add and rotate-secret only.
import type { JsonOptions } from '../define/shared.js';
import type { DeliveriesOptions, RedeliverOptions, WebhookTargetOptions } from '../define/sandbox-webhooks.js';
import type { CommandDeps } from '../deps.js';
import { UsageError } from '../errors.js';
import { show } from '../output.js';
import {
  deliveriesView,
  redeliveredView,
  webhookCreatedView,
  webhookDeletedView,
  webhookListView,
  webhookRotatedView,
} from '../webhook-views.js';

export async function listWebhooks(options: JsonOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(deps.output, options.json, 'Listing webhook endpoints…', () => client.sandbox.webhooks.list(), (res) => webhookListView(res.webhooks));
}

export async function addWebhook({ target: url, json }: WebhookTargetOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(deps.output, json, 'Adding a webhook endpoint…', () => client.sandbox.webhooks.add({ url }), webhookCreatedView);
}

export async function rotateWebhookSecret({ target: id, json }: WebhookTargetOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(deps.output, json, 'Rotating the webhook secret…', () => client.sandbox.webhooks.rotateSecret(id), webhookRotatedView);
}

export async function removeWebhook({ target: id, json }: WebhookTargetOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(deps.output, json, 'Deleting the webhook endpoint…', () => client.sandbox.webhooks.remove(id), webhookDeletedView);
}

export async function listDeliveries({ failed, event, json }: DeliveriesOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const query = { ...(failed ? { failed: true } : {}), ...(event !== undefined ? { event_id: event } : {}) };
  await show(deps.output, json, 'Listing webhook deliveries…', () => client.sandbox.webhooks.deliveries(query), (res) => deliveriesView(res.deliveries));
}

export async function redeliver({ eventId, failed, json }: RedeliverOptions, deps: CommandDeps): Promise<void> {
  if ((eventId !== undefined) === failed) {
    throw new UsageError(
      'name exactly one of an event id or --failed',
      '`paygate sandbox webhooks redeliver evt_<operation_id>_0` or `paygate sandbox webhooks redeliver --failed`',
    );
  }
  const { client } = await deps.connect();
  await show(
    deps.output,
    json,
    'Scheduling redelivery…',
    () => client.sandbox.webhooks.redeliver(eventId !== undefined ? { event_id: eventId } : { failed: true }),
    redeliveredView,
  );
}
