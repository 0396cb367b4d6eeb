// `paygate sandbox webhooks add | list | rotate-secret | remove | deliveries | redeliver` (flags:
// define.ts): the shop's webhook endpoints and deliveries (shop API key). A full whsec_ secret is
// printed by add and rotate-secret only.
import type { SandboxWebhookDelivery } from '../../../../client/index.js';
import type { JsonOptions } from '../../shared.js';
import type { DeliveriesOptions, RedeliverOptions, WebhookTargetOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { UsageError } from '../../../errors.js';
import { show } from '../../../output.js';
import {
  deliveriesView,
  redeliveredView,
  webhookCreatedView,
  webhookDeletedView,
  webhookListView,
  webhookRotatedView,
} from '../../../webhook-views.js';

export async function listWebhooks(options: JsonOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(
    deps.output,
    options.json,
    'Listing webhook endpoints…',
    () => client.sandbox.webhooks.list(),
    (res) => webhookListView(res.webhooks),
  );
}

export async function addWebhook({ target: url, json }: WebhookTargetOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(
    deps.output,
    json,
    'Adding a webhook endpoint…',
    () => client.sandbox.webhooks.add({ url }),
    webhookCreatedView,
  );
}

export async function rotateWebhookSecret(
  { target: id, json }: WebhookTargetOptions,
  deps: CommandDeps,
): Promise<void> {
  const { client } = await deps.connect();
  await show(
    deps.output,
    json,
    'Rotating the webhook secret…',
    () => client.sandbox.webhooks.rotateSecret(id),
    webhookRotatedView,
  );
}

export async function removeWebhook({ target: id, json }: WebhookTargetOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(
    deps.output,
    json,
    'Deleting the webhook endpoint…',
    () => client.sandbox.webhooks.remove(id),
    webhookDeletedView,
  );
}

export async function listDeliveries(options: DeliveriesOptions, deps: CommandDeps): Promise<void> {
  const { failed, event, limit, cursor, json } = options;
  const filter = { ...(failed ? { failed: true } : {}), ...(event !== undefined ? { event_id: event } : {}) };
  const { client } = await deps.connect();
  if (options.all) {
    const all = await deps.output.spin('Listing every webhook delivery…', async () => {
      const out: SandboxWebhookDelivery[] = [];
      for await (const d of client.sandbox.webhooks.allDeliveries({ ...filter, limit, cursor })) out.push(d);
      return out;
    });
    if (json) deps.output.json({ deliveries: all, has_more: false, next_cursor: null });
    else deps.output.print(deliveriesView(all));
    return;
  }
  const query = { ...filter, ...(limit !== undefined ? { limit } : {}), ...(cursor !== undefined ? { cursor } : {}) };
  await show(
    deps.output,
    json,
    'Listing webhook deliveries…',
    () => client.sandbox.webhooks.deliveries(query),
    (res) =>
      deliveriesView(
        res.deliveries,
        res.has_more && res.next_cursor !== null ? nextPageCommand(options, res.next_cursor) : undefined,
      ),
  );
}

/** The command that lists the page after this one: the same filters and page size, with its cursor. */
function nextPageCommand({ failed, event, limit }: DeliveriesOptions, cursor: string): string {
  const flags = [
    ...(failed ? ['--failed'] : []),
    ...(event !== undefined ? ['--event', event] : []),
    ...(limit !== undefined ? ['--limit', String(limit)] : []),
  ];
  return ['paygate sandbox webhooks deliveries', ...flags, '--cursor', cursor].join(' ');
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
