// `paygate proxy`: flags, help and typed options (run: run.ts). A validating, recording proxy in front of a gateway
// (docs/proxy.md).
import type { Command } from 'commander';
import { action, example, flag, num, parsePort, str, type Parsed } from '../shared.js';

export const DEFAULT_PROXY_PORT = 4081;

export interface ProxyOptions {
  /** The gateway to forward to (required): http(s)://host[:port][/prefix]. */
  upstream: string | undefined;
  /** Interface to listen on. Default 127.0.0.1. */
  host: string;
  /** Port to listen on; 0 picks a free one. Default 4081. */
  port: number;
  /** One JSON line at start (base_url, upstream, admin_token), then one per violation (NDJSON). Default false. */
  json: boolean;
  /** Write what passed through as a scenario file on exit. */
  record: string | undefined;
  /** Write the JSON report on exit. */
  report: string | undefined;
  /** Write the JUnit report on exit. */
  junit: string | undefined;
  /** Receive the upstream's webhooks at /proxy/webhooks and forward them to this URL. */
  forwardWebhooksTo: string | undefined;
  /** The `whsec_…` secret the upstream signs webhooks with (else PAYGATE_WEBHOOK_SECRET); none: not verified. */
  webhookSecret: string | undefined;
  /** The global --ca (else PAYGATE_CA): certificates to trust for an HTTPS upstream. */
  ca: string | undefined;
  /** The URL browsers reach the proxy at (a TLS terminator's): the dashboard's links and its cookie follow it. */
  publicUrl: string | undefined;
}

const proxyOptions = ({ opts, globals }: Parsed): ProxyOptions => ({
  upstream: str(opts.upstream),
  host: str(opts.host) ?? '127.0.0.1',
  port: num(opts.port) ?? DEFAULT_PROXY_PORT,
  json: flag(opts.json),
  record: str(opts.record),
  report: str(opts.report),
  junit: str(opts.junit),
  forwardWebhooksTo: str(opts.forwardWebhooksTo),
  webhookSecret: str(opts.webhookSecret),
  ca: globals.ca,
  publicUrl: str(opts.publicUrl),
});

export function defineProxy(program: Command): void {
  program
    .command('proxy')
    .description(
      'put paygate in front of a gateway: forward /v1 and the health probes unchanged, check every exchange against the spec, record a scenario',
    )
    .option('--upstream <url>', 'the gateway to forward to, http(s)://host[:port][/prefix] (required)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <n>', `port to listen on; 0 picks a free one (default: ${DEFAULT_PROXY_PORT})`, parsePort)
    .option('--json', 'print one JSON line (base_url, upstream, admin_token), then one JSON line per violation')
    .option(
      '--record <file>',
      'on exit, write what passed through as a scenario file (paygate scenario run replays it)',
    )
    .option('--report <file>', 'on exit, write the violations as a JSON report')
    .option('--junit <file>', 'on exit, write a JUnit file: one testcase per rule')
    .option(
      '--forward-webhooks-to <url>',
      "also receive the upstream's webhooks (register the printed webhook URL upstream), check them and forward them here",
    )
    .option('--webhook-secret <whsec>', 'the secret the upstream signs webhooks with (else PAYGATE_WEBHOOK_SECRET)')
    .option(
      '--public-url <url>',
      "the URL browsers reach the proxy at behind a TLS terminator: the dashboard's links follow its path, its cookie is Secure when https",
    )
    .addHelpText(
      'after',
      `
The API key each request carries is passed through and never printed, stored or recorded (only a fingerprint).
The proxy's own views take the admin token it prints: GET /proxy/violations, GET /proxy/exchanges.
With --forward-webhooks-to, register <base URL>/proxy/webhooks upstream: each webhook is verified (Standard Webhooks,
--webhook-secret; a bad signature is answered 400 and not forwarded), checked, and forwarded unchanged; the
receiver's status is answered to the upstream. Without a secret, webhooks are checked and forwarded unverified.
Ctrl+C (or SIGTERM) stops it and writes --report, --junit and --record. HTTPS upstream: --ca <cert> or PAYGATE_CA.
Exit codes: 0 no violation; 1 a violation was seen; 2 bad usage (a malformed --upstream); 3 no violation, but the
upstream could not be reached for some request (the caller got a 502).
${example(`
  $ paygate proxy --upstream https://gateway.staging.example.com --port 4081
  $ PAYGATE_BASE_URL=http://127.0.0.1:4081 paygate balances      # your code, pointed at the proxy
  $ paygate proxy --upstream http://127.0.0.1:4080 --port 0 --json --record flow.yaml --report report.json --junit report.xml
  $ paygate proxy --upstream https://gateway.staging.example.com --forward-webhooks-to http://127.0.0.1:3000/webhooks \\
      --webhook-secret "$GATEWAY_WEBHOOK_SECRET"`)}`,
    )
    .action(action(proxyOptions, async () => (await import('./run.js')).proxy));
}
