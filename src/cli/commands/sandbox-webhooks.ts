// `paygate sandbox webhooks add | list | rotate-secret | remove | deliveries | redeliver`: the shop's webhook
// endpoints and deliveries (shop API key). A full whsec_ secret is printed by add and rotate-secret only.
import { connect } from '../api.js';
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

type Opts = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export async function listWebhooks(opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await show(opts, 'Listing webhook endpoints…', () => client.sandbox.webhooks.list(), (res) => webhookListView(res.webhooks));
}

export async function addWebhook(url: string, opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await show(opts, 'Adding a webhook endpoint…', () => client.sandbox.webhooks.add({ url }), webhookCreatedView);
}

export async function rotateWebhookSecret(id: string, opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await show(opts, 'Rotating the webhook secret…', () => client.sandbox.webhooks.rotateSecret(id), webhookRotatedView);
}

export async function removeWebhook(id: string, opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await show(opts, 'Deleting the webhook endpoint…', () => client.sandbox.webhooks.remove(id), webhookDeletedView);
}

export async function listDeliveries(opts: Opts): Promise<void> {
  const { client } = connect(opts);
  const event = str(opts.event);
  const query = { ...(opts.failed ? { failed: true } : {}), ...(event !== undefined ? { event_id: event } : {}) };
  await show(opts, 'Listing webhook deliveries…', () => client.sandbox.webhooks.deliveries(query), (res) => deliveriesView(res.deliveries));
}

export async function redeliver(eventId: string | undefined, opts: Opts): Promise<void> {
  const failed = opts.failed === true;
  if ((eventId !== undefined) === failed) {
    throw new UsageError(
      'name exactly one of an event id or --failed',
      '`paygate sandbox webhooks redeliver evt_<operation_id>_0` or `paygate sandbox webhooks redeliver --failed`',
    );
  }
  const { client } = connect(opts);
  await show(
    opts,
    'Scheduling redelivery…',
    () => client.sandbox.webhooks.redeliver(eventId !== undefined ? { event_id: eventId } : { failed: true }),
    redeliveredView,
  );
}
