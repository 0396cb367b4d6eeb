// `paygate webhooks listen`: a local receiver for the sandbox's webhooks, in one step. Registers its URL as a webhook
// endpoint of the API key's shop (unless --no-register, or there is no key) and prints the endpoint's secret; reads
// each raw body, verifies the Standard Webhooks signature against that secret and any --secret (and the wall-time
// webhook-timestamp against --tolerance), prints the event (readable, or one JSON line with --json), answers 204
// whatever the outcome, and with --forward-to sends the same body and webhook-* headers on to the developer's app.
// Runs until SIGINT / SIGTERM, then removes the endpoint. Flags: define.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { verifyWebhook, WebhookVerificationError } from '../../../webhooks/index.js';
import { out } from '../../colors.js';
import type { ListenOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import type { Output } from '../../output.js';
import {
  forwardView,
  maskWebhookSecret,
  receivedView,
  type ForwardResult,
  type ReceivedEvent,
} from '../../webhook-views.js';

const FORWARD_TIMEOUT_MS = 10_000;
/** Default --tolerance (seconds): the Standard Webhooks libraries' own. */
const DEFAULT_TOLERANCE_S = 300;
const FORWARDED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'] as const;

/** The --secret values, each checked to be a whsec_ secret. */
function checkedSecrets(list: readonly string[]): string[] {
  for (const s of list) {
    if (!/^whsec_[A-Za-z0-9+/=]+$/.test(s)) {
      throw new UsageError(
        `--secret ${maskWebhookSecret(s)} is not a whsec_ secret`,
        'pass the whsec_… secret printed by `paygate sandbox start --webhook-url` or `paygate sandbox webhooks add`',
      );
    }
  }
  return [...list];
}

/** --forward-to, checked to be an http(s) URL. */
function checkedForwardUrl(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(
      `--forward-to is not a URL: ${JSON.stringify(v)}`,
      'e.g. --forward-to http://127.0.0.1:3000/hooks',
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('--forward-to must be an http(s) URL');
  return v;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

async function forward(url: string, body: Buffer, req: IncomingMessage): Promise<ForwardResult> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const v = headerOf(req, name);
    if (v !== undefined) headers[name] = v;
  }
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body,
      headersTimeout: FORWARD_TIMEOUT_MS,
      bodyTimeout: FORWARD_TIMEOUT_MS,
    });
    await res.body.dump();
    return { url, status: res.statusCode };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const message = err instanceof Error ? err.message : String(err);
    return { url, error: typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message };
  }
}

/** The URL to hand to the sandbox: a wildcard host becomes the loopback address. */
function publicUrl(address: AddressInfo): string {
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const h = host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${address.port}/webhooks`;
}

/** What the receiver does with each request, once the options are checked. */
interface Receiver {
  secrets: string[];
  forwardTo: string | undefined;
  /** Seconds; Infinity when not checked. */
  tolerance: number;
  json: boolean;
  output: Output;
}

/** One received body, parsed and (when there are secrets) verified. */
function received(body: Buffer, req: IncomingMessage, receivedAt: string, r: Receiver): ReceivedEvent {
  let event: unknown = null;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    event = null;
  }
  const result: ReceivedEvent = { received_at: receivedAt, verified: null, event };
  if (r.secrets.length > 0) {
    try {
      verifyWebhook(body, req.headers, r.secrets, { toleranceSeconds: r.tolerance });
      result.verified = true;
    } catch (err) {
      result.verified = false;
      result.error = err instanceof WebhookVerificationError ? err.message : String(err);
    }
  }
  if (event === null) result.body = body.toString('utf8');
  return result;
}

async function handle(req: IncomingMessage, res: ServerResponse, r: Receiver): Promise<void> {
  if (req.method !== 'POST') {
    res
      .writeHead(405, { allow: 'POST', 'content-type': 'text/plain' })
      .end('paygate webhooks listen: POST webhooks here\n');
    return;
  }
  const body = await readBody(req);
  const receivedAt = new Date().toISOString();
  // Always 204: the listener shows everything, even what fails verification.
  res.writeHead(204).end();
  const got = received(body, req, receivedAt, r);
  if (!r.json) r.output.print(receivedView(got, { id: headerOf(req, 'webhook-id') }));
  const fwd = r.forwardTo !== undefined ? await forward(r.forwardTo, body, req) : undefined;
  if (r.json) {
    const line: Record<string, unknown> = {
      received_at: got.received_at,
      verified: got.verified,
      ...(got.error !== undefined ? { error: got.error } : {}),
      event: got.event,
      ...(got.body !== undefined ? { body: got.body } : {}),
      ...(fwd ? { forward: fwd } : {}),
    };
    r.output.print(JSON.stringify(line));
  } else if (fwd) {
    r.output.print(forwardView(fwd));
  }
}

async function listening(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const hint = err.code === 'EADDRINUSE' ? 'pick another --port, or --port 0 for a free one' : undefined;
      reject(new UsageError(`cannot listen on ${host}:${port}: ${err.message}`, hint));
    });
    server.listen(port, host, () => resolve());
  });
  return publicUrl(server.address() as AddressInfo);
}

/** The endpoint the listener registered for itself (removed on exit). */
interface Registered {
  id: string;
  secret: string;
  remove(): Promise<unknown>;
}

function banner(url: string, r: Receiver, endpoint: Registered | undefined): string {
  const where = endpoint
    ? [
        `Registered as webhook endpoint ${endpoint.id} of your shop (removed when this stops).`,
        `Your webhook signing secret is ${out.bold(endpoint.secret)}`,
      ]
    : [
        `Point the sandbox at it:  paygate sandbox start --webhook-url ${url}`,
        `or register it for a shop: paygate sandbox webhooks add ${url}`,
      ];
  return [
    `${out.green('Listening for webhooks on')} ${out.bold(url)}  (any path; every POST is answered 204)`,
    '',
    ...where,
    '',
    r.secrets.length > 0
      ? `Verifying signatures with ${r.secrets.map(maskWebhookSecret).join(', ')} (timestamp tolerance ${r.tolerance} s)`
      : out.yellow('Not verifying signatures: pass --secret whsec_… (printed by the sandbox) to check them'),
    ...(r.forwardTo !== undefined ? [`Forwarding each body and its webhook-* headers to ${r.forwardTo}`] : []),
    out.dim('Ctrl+C stops.'),
    '',
  ].join('\n');
}

/** Register `url` for the API key's shop; undefined without a key (a note says how to get one) or with --no-register. */
async function register(url: string, options: ListenOptions, deps: CommandDeps): Promise<Registered | undefined> {
  if (!options.register) return undefined;
  const { client } = await deps.connect({ needKey: false });
  if (!client.hasApiKey) {
    deps.output.note(
      'paygate webhooks listen: no API key, so not registered as a webhook endpoint (pass --api-key or set PAYGATE_API_KEY to register; --no-register to silence this)',
    );
    return undefined;
  }
  const added = await client.sandbox.webhooks.add({ url });
  return { id: added.id, secret: added.secret, remove: () => client.sandbox.webhooks.remove(added.id) };
}

export async function listen(options: ListenOptions, deps: CommandDeps): Promise<void> {
  const r: Receiver = {
    secrets: checkedSecrets(options.secrets),
    forwardTo: checkedForwardUrl(options.forwardTo),
    tolerance: options.tolerance ?? DEFAULT_TOLERANCE_S,
    json: options.json,
    output: deps.output,
  };
  const server = createServer((req, res) => {
    handle(req, res, r).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(204).end();
      deps.output.note(`paygate webhooks listen: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  const url = await listening(server, options.port, options.host);
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  // Caught from before the endpoint exists (a signal while registering still removes it) and before the first line
  // is printed (whoever reads it may signal at once).
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  let endpoint: Registered | undefined;
  try {
    endpoint = await register(url, options, deps);
  } catch (err) {
    stop();
    await close();
    throw err;
  }
  if (endpoint) r.secrets.unshift(endpoint.secret);
  const first = { listening: url, ...(endpoint ? { endpoint_id: endpoint.id, secret: endpoint.secret } : {}) };
  deps.output.print(r.json ? JSON.stringify(first) : banner(url, r, endpoint));
  await stopped;
  if (endpoint) {
    // Unregistered before the port closes: no delivery is sent to a URL nothing listens on any more.
    await endpoint.remove().then(
      () => deps.output.note(`paygate webhooks listen: removed webhook endpoint ${endpoint.id}`),
      (err: unknown) =>
        deps.output.note(
          `paygate webhooks listen: could not remove webhook endpoint ${endpoint.id}: ${err instanceof Error ? err.message : String(err)}`,
        ),
    );
  }
  await close();
}
