// `paygate webhooks listen`: flags, help and typed options (run: commands/webhooks-listen.ts).
import { Option, type Command } from 'commander';
import { action, collect, example, flag, num, parseIntIn, parsePort, str, type Parsed } from './shared.js';

export interface ListenOptions {
  /** Port to listen on; 0 picks a free one. Default 4090. */
  port: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host: string;
  /** whsec_ secrets to verify with, any of which may match (checked by the command). Default none: nothing verified. */
  secrets: string[];
  /** Also reject a webhook-timestamp further than this many seconds from the real clock. Default: not checked. */
  tolerance?: number | undefined;
  /** POST each original body and its webhook-* headers on to this URL (checked by the command). */
  forwardTo?: string | undefined;
  /** One JSON line per event. Default false. */
  json: boolean;
}

function listenOptions({ opts }: Parsed): ListenOptions {
  const secret: unknown = opts.secret;
  return {
    port: num(opts.port) ?? 4090,
    host: str(opts.host) ?? '127.0.0.1',
    secrets: Array.isArray(secret) ? secret.filter((s): s is string => typeof s === 'string') : typeof secret === 'string' ? [secret] : [],
    tolerance: num(opts.tolerance),
    forwardTo: str(opts.forwardTo),
    json: flag(opts.json),
  };
}

/**
 * `paygate webhooks listen`, a local receiver that verifies, prints and forwards the sandbox's webhooks: the
 * subcommand and help text of the `webhooks` group (created, with its description, by program.ts).
 */
export function defineWebhooksListen(webhooksCmd: Command): void {
  webhooksCmd.addHelpText('after', example(`
  $ paygate webhooks listen --port 4090 --secret whsec_xxxxxxxx
  $ paygate sandbox start --webhook-url http://127.0.0.1:4090/webhooks`));
  webhooksCmd
    .command('listen')
    .description('run a local webhook receiver that verifies signatures, prints each event and can forward it (Ctrl+C stops)')
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').default(4090).argParser(parsePort))
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .option('--secret <whsec>', 'whsec_ secret to verify webhook-signature with; repeat it to accept several (a rotation)', collect)
    .option('--tolerance <seconds>', 'also reject a webhook-timestamp further than this from the real clock (default: not checked, as the sandbox clock may be frozen or advanced)', parseIntIn(0, Number.MAX_SAFE_INTEGER, 'an integer ≥ 0'))
    .option('--forward-to <url>', 'POST each original body, with its webhook-* headers, on to this URL (your app) and print its status')
    .option('--json', 'print {"listening":"<url>"} first, then one JSON line per event: {received_at, verified, event} (plus error, forward)')
    .addHelpText('after', `
Every POST is answered 204, also when its signature is invalid (marked SIGNATURE INVALID in red): the listener
is for seeing everything the sandbox sends. Without --secret nothing is verified. On start it prints the URL to pass
to \`paygate sandbox start --webhook-url\` or \`paygate sandbox webhooks add\`.
${example(`
  $ paygate webhooks listen --port 4090 --secret whsec_xxxxxxxx
  $ paygate webhooks listen --port 0 --json --secret whsec_old --secret whsec_new
  $ paygate webhooks listen --secret whsec_xxxxxxxx --forward-to http://127.0.0.1:3000/hooks`)}`)
    .action(action(listenOptions, async () => (await import('../commands/webhooks-listen.js')).listen));
}
