// `paygate proxy --forward-webhooks-to <url> [--webhook-secret <whsec_…>]`: the flags checked before anything
// listens, and what the banner and the --json line say about the proxy's webhook receiver (src/proxy/webhooks.ts).
import type { WebhookForwarding } from '../../../proxy/webhooks.js';
import { WEBHOOK_PATH } from '../../../proxy/webhooks.js';
import { secretKey } from '../../../webhooks/index.js';
import { UsageError } from '../../errors.js';
import type { ProxyOptions } from './define.js';

/** The receiver to forward to and the secret to verify with (--webhook-secret, else PAYGATE_WEBHOOK_SECRET). */
export function webhookForwarding(opts: ProxyOptions): WebhookForwarding | undefined {
  const secret = opts.webhookSecret ?? (process.env.PAYGATE_WEBHOOK_SECRET || undefined);
  const from = opts.webhookSecret !== undefined ? '--webhook-secret' : 'PAYGATE_WEBHOOK_SECRET';
  if (opts.forwardWebhooksTo === undefined) {
    if (opts.webhookSecret !== undefined)
      throw new UsageError('--webhook-secret goes with --forward-webhooks-to <url>', 'give the receiver to forward to');
    return undefined;
  }
  const hint = 'give your webhook receiver, e.g. --forward-webhooks-to http://127.0.0.1:3000/webhooks';
  let url: URL;
  try {
    url = new URL(opts.forwardWebhooksTo);
  } catch {
    throw new UsageError(`--forward-webhooks-to "${opts.forwardWebhooksTo}" is not a URL`, hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-webhooks-to "${opts.forwardWebhooksTo}" is not an http or https URL`, hint);
  if (secret !== undefined) {
    // The secret itself is never quoted back.
    try {
      if (!/^(whsec_)?[A-Za-z0-9+/]+={0,2}$/.test(secret)) throw new Error('not base64');
      secretKey(secret);
    } catch {
      throw new UsageError(
        `the ${from} value is not a whsec_<base64> secret`,
        'give the secret the upstream signs with',
      );
    }
  }
  return { forwardTo: url, secret };
}

/** The URL to register upstream as the webhook endpoint. */
export const webhookUrl = (baseUrl: string): string => `${baseUrl}${WEBHOOK_PATH}`;

/** What the --json line says about webhooks: the URL to register and whether deliveries are verified. */
export const webhookJson = (baseUrl: string, w: WebhookForwarding | undefined) =>
  w ? { webhook_url: webhookUrl(baseUrl), webhooks_verified: w.secret !== undefined } : {};

/** The banner's lines about webhooks (none without --forward-webhooks-to). */
export function webhookBanner(baseUrl: string, w: WebhookForwarding | undefined): string[] {
  if (!w) return [];
  return [
    `  webhooks      ${webhookUrl(baseUrl)}  (register this URL upstream)`,
    `    forwarded to ${w.forwardTo.href}`,
    w.secret !== undefined
      ? '    verified with the webhook secret (Standard Webhooks); a bad signature is answered 400 and not forwarded'
      : '    NOT verified: no --webhook-secret (or PAYGATE_WEBHOOK_SECRET); deliveries are checked and forwarded as they come',
  ];
}
