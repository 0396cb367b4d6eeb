// `paygate logs tail`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import { action, example, flag, num, parseIntIn, str, type Parsed } from '../shared.js';

export interface LogsTailOptions {
  shop?: string | undefined;
  method?: string | undefined;
  /** A status (`404`) or a class (`4xx`); checked by the command. */
  status?: string | undefined;
  /** A path prefix, e.g. `/v1/payment`. */
  path?: string | undefined;
  /** Only answers with status 400 or more. Default false. */
  errors: boolean;
  /** How many of the newest logged requests to print first. Default 20. */
  sinceStart: number;
  /** One JSON object per line. Default false. */
  json: boolean;
}

const tailOptions = ({ opts }: Parsed): LogsTailOptions => ({
  shop: str(opts.shop),
  method: str(opts.method),
  status: str(opts.status),
  path: str(opts.path),
  errors: flag(opts.errors),
  sinceStart: num(opts.sinceStart) ?? 20,
  json: flag(opts.json),
});

/** The subcommand and help text of the `logs` group (created, with its description, by program.ts). */
export function defineLogs(logsCmd: Command): void {
  logsCmd.addHelpText(
    'after',
    example(`
  $ paygate logs tail --errors`),
  );
  logsCmd
    .command('tail')
    .description(
      'every request the sandbox answers, live: the newest ones first, then each as it is answered (Ctrl+C stops)',
    )
    .option('--shop <shop_id>', "only this shop's requests (admin token; a key sees its own shop only)")
    .option('--method <method>', 'only this HTTP method, e.g. POST')
    .option('--status <status>', 'only this status (404) or class (4xx)')
    .option('--path <prefix>', 'only paths starting with this, e.g. /v1/payment')
    .option('--errors', 'only answers with status 400 or more')
    .option(
      '--since-start <n>',
      'first print the newest n logged requests that match (0 to 2000; the sandbox keeps the last 2000)',
      parseIntIn(0, 2000, 'an integer from 0 to 2000'),
      20,
    )
    .option(
      '--json',
      'one JSON object per line (NDJSON): {id, at, shop_id, method, path, status, latency_ms, error_code}',
    )
    .addHelpText(
      'after',
      `
One line per request: time, shop (- for the admin token, open routes and failed authentication), method, path
(secrets in the query such as k= and signature= masked), status, latency, error code, request id (the
x-request-id header the caller got). Ctrl+C ends it with exit 0.

Reads with the sandbox admin token when one is configured: every shop. Otherwise with the API key: that shop only.
${example(`
  $ paygate logs tail
  $ paygate logs tail --errors --shop shop_a
  $ paygate logs tail --path /v1/payment --status 4xx --since-start 0 --json`)}`,
    )
    .action(action(tailOptions, async () => (await import('./run.js')).tail));
}
