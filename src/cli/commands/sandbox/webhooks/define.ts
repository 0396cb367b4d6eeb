// `paygate sandbox webhooks add | list | rotate-secret | remove | deliveries | redeliver`: flags, help and typed
// options (run: run.ts).
import type { Command } from 'commander';
import { action, example, flag, JSON_HELP, jsonOptions, num, parseIntIn, str, type Parsed } from '../../shared.js';

const run = () => import('./run.js');

/** `add` (the URL), `rotate-secret` and `remove` (the endpoint id). */
export interface WebhookTargetOptions {
  target: string;
  json: boolean;
}

export interface DeliveriesOptions {
  /** Only deliveries that gave up. Default false. */
  failed: boolean;
  /** Only this event's deliveries. */
  event?: string | undefined;
  /** Deliveries per page, 1 to 200. Default: the sandbox's (50); 200 per request with `all`. */
  limit?: number | undefined;
  /** Start after this cursor (a previous page's next_cursor). Default: the newest. */
  cursor?: string | undefined;
  /** Every page, not just one. Default false. */
  all: boolean;
  json: boolean;
}

/** Exactly one of `eventId` and `failed` (checked by the command). */
export interface RedeliverOptions {
  eventId?: string | undefined;
  failed: boolean;
  json: boolean;
}

const targetOptions = ({ args, opts }: Parsed): WebhookTargetOptions => ({
  target: String(args[0]),
  json: flag(opts.json),
});
const deliveriesOptions = ({ opts }: Parsed): DeliveriesOptions => ({
  failed: flag(opts.failed),
  event: str(opts.event),
  limit: num(opts.limit),
  cursor: str(opts.cursor),
  all: flag(opts.all),
  json: flag(opts.json),
});
const redeliverOptions = ({ args, opts }: Parsed): RedeliverOptions => ({
  eventId: str(args[0]),
  failed: flag(opts.failed),
  json: flag(opts.json),
});

export function defineSandboxWebhooks(sandboxCmd: Command): void {
  const webhooksCmd = sandboxCmd
    .command('webhooks')
    .description(
      "the shop's webhook endpoints and their deliveries: add, list, rotate-secret, remove, deliveries, redeliver",
    );
  webhooksCmd.addHelpText(
    'after',
    `
Shop-scoped: sent with the shop's API key. A whsec_ secret is printed in full once, by add and rotate-secret;
lists show its last 4 characters.
${example(`
  $ paygate sandbox webhooks add http://127.0.0.1:4090/webhooks
  $ paygate sandbox webhooks list
  $ paygate sandbox webhooks deliveries --failed
  $ paygate sandbox webhooks redeliver --failed`)}`,
  );
  webhooksCmd
    .command('add')
    .description('register a webhook endpoint; its whsec_ secret is shown once (POST /sandbox/webhooks)')
    .argument('<url>', "absolute http(s) URL the shop's events are POSTed to")
    .option('--json', 'print exactly the response body as JSON (it holds the full secret)')
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox webhooks add http://127.0.0.1:4090/webhooks
  $ paygate sandbox webhooks add http://127.0.0.1:3000/hooks --json | jq -r .secret`),
    )
    .action(action(targetOptions, async () => (await run()).addWebhook));
  webhooksCmd
    .command('list')
    .description("the shop's webhook endpoints, secrets masked to their last 4 characters (GET /sandbox/webhooks)")
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox webhooks list
  $ paygate sandbox webhooks list --json`),
    )
    .action(action(jsonOptions, async () => (await run()).listWebhooks));
  defineEndpointChanges(webhooksCmd);
  defineDeliveries(webhooksCmd);
}

function defineEndpointChanges(webhooksCmd: Command): void {
  webhooksCmd
    .command('rotate-secret')
    .description(
      'a new secret, shown once; the old one is still signed alongside for 24 h of sandbox time (POST /sandbox/webhooks/{id}/rotate-secret)',
    )
    .argument('<id>', "the endpoint's id (see `paygate sandbox webhooks list`)")
    .option('--json', 'print exactly the response body as JSON (it holds the full new secret)')
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox webhooks rotate-secret wh_0123456789ab`),
    )
    .action(action(targetOptions, async () => (await run()).rotateWebhookSecret));
  webhooksCmd
    .command('remove')
    .description('delete a webhook endpoint; its pending deliveries stop (DELETE /sandbox/webhooks/{id})')
    .argument('<id>', "the endpoint's id (see `paygate sandbox webhooks list`)")
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox webhooks remove wh_0123456789ab`),
    )
    .action(action(targetOptions, async () => (await run()).removeWebhook));
}

function defineDeliveries(webhooksCmd: Command): void {
  webhooksCmd
    .command('deliveries')
    .description(
      'webhook deliveries with their attempts, newest first, a page at a time (GET /sandbox/webhooks/deliveries)',
    )
    .option('--failed', 'only deliveries that gave up')
    .option('--event <id>', 'only the deliveries of this event, e.g. evt_<operation_id>_0')
    .option(
      '--limit <n>',
      'deliveries per page, 1 to 200 (server default 50)',
      parseIntIn(1, 200, 'an integer from 1 to 200'),
    )
    .option(
      '--cursor <cursor>',
      'the page after this one (the next_cursor of the previous page; printed under the table)',
    )
    .option('--all', 'every page, fetched one after another (with --json: one body with every delivery)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox webhooks deliveries
  $ paygate sandbox webhooks deliveries --failed --limit 20
  $ paygate sandbox webhooks deliveries --cursor dlv_1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c_0.we_0123456789abcdef
  $ paygate sandbox webhooks deliveries --all --json
  $ paygate sandbox webhooks deliveries --event evt_1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c_0 --json`),
    )
    .action(action(deliveriesOptions, async () => (await run()).listDeliveries));
  webhooksCmd
    .command('redeliver')
    .description(
      'deliver an event again at once, same webhook-id and body, or every failed delivery (POST /sandbox/webhooks/deliveries/redeliver)',
    )
    .argument('[event_id]', 'the event to deliver again (or use --failed)')
    .option('--failed', 'deliver every failed delivery again')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox webhooks redeliver evt_1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c_0
  $ paygate sandbox webhooks redeliver --failed`),
    )
    .action(action(redeliverOptions, async () => (await run()).redeliver));
}
