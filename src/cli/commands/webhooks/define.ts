// `paygate webhooks listen`: flags, help and typed options (run: run.ts).
import { Option, type Command } from 'commander';
import { action, collect, example, flag, num, parseIntIn, parsePort, str, type Parsed } from '../shared.js';

export interface ListenOptions {
  /** Port to listen on; 0 picks a free one. Default 0. */
  port: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host: string;
  /** whsec_ secrets to verify with, any of which may match (checked by the command). Default none: nothing verified. */
  secrets: string[];
  /** Reject a webhook-timestamp (wall time of the attempt) further than this many seconds from this machine's clock. Default 300. */
  tolerance?: number | undefined;
  /**
   * Register the listener as a webhook endpoint of the API key's shop (its secret verifies), removed on exit. Default
   * true; without an API key, or with --no-register, it only listens.
   */
  register: boolean;
  /** POST each original body and its webhook-* headers on to this URL (checked by the command). */
  forwardTo?: string | undefined;
  /** One JSON line per event. Default false. */
  json: boolean;
}

function listenOptions({ opts }: Parsed): ListenOptions {
  const secret: unknown = opts.secret;
  return {
    port: num(opts.port) ?? 0,
    host: str(opts.host) ?? '127.0.0.1',
    secrets: Array.isArray(secret)
      ? secret.filter((s): s is string => typeof s === 'string')
      : typeof secret === 'string'
        ? [secret]
        : [],
    tolerance: num(opts.tolerance),
    forwardTo: str(opts.forwardTo),
    register: opts.register !== false,
    json: flag(opts.json),
  };
}

/**
 * `paygate webhooks listen`, a local receiver that verifies, prints and forwards the sandbox's webhooks: the
 * subcommand and help text of the `webhooks` group (created, with its description, by program.ts).
 */
export function defineWebhooksListen(webhooksCmd: Command): void {
  webhooksCmd.addHelpText(
    'after',
    example(`
  $ paygate webhooks listen --forward-to http://127.0.0.1:3000/hooks
  $ paygate webhooks listen --json`),
  );
  webhooksCmd
    .command('listen')
    .description(
      'register a local receiver as a webhook endpoint of your shop, verify, print and forward each event; removed on exit (Ctrl+C)',
    )
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').default(0).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .option(
      '--secret <whsec>',
      'also accept this whsec_ secret (another endpoint pointing here, e.g. `sandbox start --webhook-url`); repeat it for several',
      collect,
    )
    .option(
      '--tolerance <seconds>',
      "reject a webhook-timestamp further than this from this machine's clock (default 300, as the Standard Webhooks libraries): the sandbox stamps each attempt with wall time, whatever its own clock says",
      parseIntIn(0, Number.MAX_SAFE_INTEGER, 'an integer ≥ 0'),
    )
    .option(
      '--forward-to <url>',
      'POST each original body, with its webhook-* headers, on to this URL (your app) and print its status',
    )
    .option('--no-register', 'only listen: do not register an endpoint (point the sandbox at the printed URL yourself)')
    .option(
      '--json',
      'print {"listening","endpoint_id","secret"} first, then one JSON line per event: {received_at, verified, event} (plus error, forward)',
    )
    .addHelpText(
      'after',
      `
One step, like \`stripe listen --forward-to\`: listens on 127.0.0.1 (a free port unless --port), registers that URL
as a webhook endpoint of the API key's shop (--api-key, PAYGATE_API_KEY or the profile; POST /sandbox/webhooks),
prints its whsec_ secret (give it to your app), verifies every delivery with it, forwards each to --forward-to,
and removes the endpoint on Ctrl+C or SIGTERM. Without an API key (or with --no-register) it only listens, and
prints the URL to pass to \`paygate sandbox start --webhook-url\` or \`paygate sandbox webhooks add\`.
Every POST is answered 204, also when its signature is invalid (marked SIGNATURE INVALID in red).
${example(`
  $ paygate webhooks listen --forward-to http://127.0.0.1:3000/hooks
  $ paygate webhooks listen --json --api-key pg_test_a_7Hq2Lm9XwR4tNc8V
  $ paygate webhooks listen --no-register --port 4090 --secret whsec_xxxxxxxx`)}`,
    )
    .action(action(listenOptions, async () => (await import('./run.js')).listen));
}
