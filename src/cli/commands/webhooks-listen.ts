// `paygate webhooks listen`: a local receiver for the sandbox's webhooks. Reads each raw body, verifies the
// Standard Webhooks signature against --secret (several allowed, for a rotation), prints the event (readable, or
// one JSON line with --json), answers 204 whatever the outcome, and with --forward-to sends the same body and
// webhook-* headers on to the developer's app. Runs until SIGINT / SIGTERM.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { verifyWebhook, WebhookVerificationError } from '../../webhooks/index.js';
import { out } from '../colors.js';
import { UsageError } from '../errors.js';
import { print } from '../render.js';
import { forwardView, maskWebhookSecret, receivedView, type ForwardResult, type ReceivedEvent } from '../webhook-views.js';

type Opts = Record<string, unknown>;

const FORWARD_TIMEOUT_MS = 10_000;
const FORWARDED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'] as const;

function secretsOf(opts: Opts): string[] {
  const v = opts.secret;
  const list = Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : typeof v === 'string' ? [v] : [];
  for (const s of list) {
    if (!/^whsec_[A-Za-z0-9+/=]+$/.test(s)) {
      throw new UsageError(`--secret ${maskWebhookSecret(s)} is not a whsec_ secret`, 'pass the whsec_… secret printed by `paygate sandbox start --webhook-url` or `paygate sandbox webhooks add`');
    }
  }
  return list;
}

function forwardUrlOf(opts: Opts): string | undefined {
  const v = opts.forwardTo;
  if (typeof v !== 'string') return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${JSON.stringify(v)}`, 'e.g. --forward-to http://127.0.0.1:3000/hooks');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('--forward-to must be an http(s) URL');
  return v;
}

function toleranceOf(opts: Opts): number {
  const v = opts.tolerance;
  return typeof v === 'number' ? v : Number.POSITIVE_INFINITY;
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

export async function listen(opts: Opts): Promise<void> {
  const secrets = secretsOf(opts);
  const forwardTo = forwardUrlOf(opts);
  const tolerance = toleranceOf(opts);
  const json = opts.json === true;
  const port = typeof opts.port === 'number' ? opts.port : 4090;
  const host = typeof opts.host === 'string' ? opts.host : '127.0.0.1';

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('paygate webhooks listen: POST webhooks here\n');
      return;
    }
    const body = await readBody(req);
    const receivedAt = new Date().toISOString();
    // Always 204: the listener shows everything, even what fails verification.
    res.writeHead(204).end();

    let event: unknown = null;
    try {
      event = JSON.parse(body.toString('utf8'));
    } catch {
      event = null;
    }
    const received: ReceivedEvent = { received_at: receivedAt, verified: null, event };
    if (secrets.length > 0) {
      try {
        verifyWebhook(body, req.headers, secrets, { toleranceSeconds: tolerance });
        received.verified = true;
      } catch (err) {
        received.verified = false;
        received.error = err instanceof WebhookVerificationError ? err.message : String(err);
      }
    }
    if (event === null) received.body = body.toString('utf8');

    if (!json) print(receivedView(received, { id: headerOf(req, 'webhook-id') }));
    const fwd = forwardTo !== undefined ? await forward(forwardTo, body, req) : undefined;
    if (json) {
      const line: Record<string, unknown> = {
        received_at: received.received_at,
        verified: received.verified,
        ...(received.error !== undefined ? { error: received.error } : {}),
        event: received.event,
        ...(received.body !== undefined ? { body: received.body } : {}),
        ...(fwd ? { forward: fwd } : {}),
      };
      print(JSON.stringify(line));
    } else if (fwd) {
      print(forwardView(fwd));
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(204).end();
      process.stderr.write(`paygate webhooks listen: ${err instanceof Error ? err.message : String(err)}\n`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const hint = err.code === 'EADDRINUSE' ? 'pick another --port, or --port 0 for a free one' : undefined;
      reject(new UsageError(`cannot listen on ${host}:${port}: ${err.message}`, hint));
    });
    server.listen(port, host, () => resolve());
  });
  const url = publicUrl(server.address() as AddressInfo);

  if (json) {
    print(JSON.stringify({ listening: url }));
  } else {
    const lines = [
      `${out.green('Listening for webhooks on')} ${out.bold(url)}  (any path; every POST is answered 204)`,
      '',
      `Point the sandbox at it:  paygate sandbox start --webhook-url ${url}`,
      `or register it for a shop: paygate sandbox webhooks add ${url}`,
      '',
      secrets.length > 0
        ? `Verifying signatures with ${secrets.map(maskWebhookSecret).join(', ')}${Number.isFinite(tolerance) ? ` (timestamp tolerance ${tolerance} s)` : ''}`
        : out.yellow('Not verifying signatures: pass --secret whsec_… (printed by the sandbox) to check them'),
      ...(forwardTo !== undefined ? [`Forwarding each body and its webhook-* headers to ${forwardTo}`] : []),
      out.dim('Ctrl+C stops.'),
      '',
    ];
    print(lines.join('\n'));
  }

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
