// The proxy's webhook receiver (`paygate proxy --forward-webhooks-to <url>`): POST /proxy/webhooks takes each
// webhook the upstream sends, verifies it (Standard Webhooks, --webhook-secret), forwards a verified one unchanged
// (body bytes, content-type and webhook-* headers) to the integration's receiver, answers the upstream with the
// receiver's status (so its retries work) and hands the delivery to the conformance checker.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BoundedMap } from '../conformance/bounded.js';
import { isObject } from '../conformance/context.js';
import type { ConformanceChecker, Exchange, Violation, WebhookDelivery } from '../conformance/types.js';
import { WEBHOOK_PATH, webhookExchange } from '../conformance/webhook-check.js';
import { verifyWebhook, WebhookVerificationError } from '../webhooks/index.js';

export { WEBHOOK_PATH };

/** The largest webhook body the receiver takes (a bigger one is answered 413). */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
const TEXT_KEPT = 4096;

export interface WebhookForwarding {
  /** The integration's receiver: every verified delivery is POSTed there unchanged. */
  forwardTo: URL;
  /** The `whsec_…` secret the upstream signs with; without it deliveries are forwarded unverified. */
  secret?: string | undefined;
  /** How far webhook-timestamp may be from now (seconds). Default 300. */
  toleranceSeconds?: number | undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= WEBHOOK_BODY_LIMIT) chunks.push(c);
    });
    req.on('end', () => resolve(size > WEBHOOK_BODY_LIMIT ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The headers passed on: content-type and every webhook-* one, as received. */
function passedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || !(name === 'content-type' || name.startsWith('webhook-'))) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** POST the delivery to the receiver; its status and body, or 502 when it cannot be reached. */
async function forwardTo(url: URL, headers: Record<string, string>, body: Buffer) {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const text = Buffer.from(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get('content-type'), text };
  } catch (e) {
    const why = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
    return {
      status: 502,
      type: 'application/json',
      text: Buffer.from(JSON.stringify({ error: 'webhook receiver unreachable', detail: why })),
    };
  }
}

/** Takes one delivery: verify, forward, answer, and return it for the checker (undefined for a non-POST). */
export async function receiveWebhook(
  req: IncomingMessage,
  res: ServerResponse,
  opts: WebhookForwarding,
  seq: () => number,
): Promise<WebhookDelivery | undefined> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    answer(res, 405, { error: 'the webhook receiver takes POST only' });
    return undefined;
  }
  const raw = await readBody(req);
  if (!raw) {
    answer(res, 413, { error: `a webhook body is at most ${WEBHOOK_BODY_LIMIT} bytes` });
    return undefined;
  }
  const headers = passedHeaders(req);
  let signature: WebhookDelivery['signature'] = 'unchecked';
  let signatureError: string | undefined;
  if (opts.secret !== undefined) {
    try {
      verifyWebhook(raw, headers, opts.secret, { toleranceSeconds: opts.toleranceSeconds ?? 300 });
      signature = 'valid';
    } catch (e) {
      if (!(e instanceof WebhookVerificationError) || e.message === 'the webhook body is not JSON') signature = 'valid';
      else ((signature = 'invalid'), (signatureError = e.message));
    }
  }
  let status: number;
  if (signature === 'invalid') {
    status = 400;
    answer(res, 400, { error: `webhook signature refused: ${signatureError}` });
  } else {
    const got = await forwardTo(opts.forwardTo, headers, raw);
    status = got.status;
    res.writeHead(got.status, got.type ? { 'content-type': got.type } : {});
    res.end(got.text);
  }
  const delivery: WebhookDelivery = {
    seq: seq(),
    startedAt,
    durationMs: performance.now() - started,
    headers,
    signature,
    status,
  };
  if (signatureError !== undefined) delivery.signatureError = signatureError;
  const text = raw.toString('utf8');
  try {
    delivery.body = JSON.parse(text);
  } catch {
    delivery.bodyText = text.slice(0, TEXT_KEPT);
  }
  return delivery;
}

/**
 * Webhooks for the support views (support-model.ts): each delivery is logged as a request, and the operation it
 * announces joins the timeline unless the signature was refused, the receiver did not take it (the upstream will
 * retry), or it is older (created_at) than one already taken for its operation (a retry delivered out of order).
 */
export class WebhookTimeline {
  private readonly newest = new BoundedMap<string, number>(10_000);

  /** The delivery as the support model takes it: the announced operation as the answer's body when it counts. */
  exchangeOf(d: WebhookDelivery): Exchange {
    const x = webhookExchange(d);
    const event = isObject(d.body) ? d.body : undefined;
    const op = isObject(event?.data) && isObject(event.data.operation) ? event.data.operation : undefined;
    const id = typeof op?.operation_id === 'string' ? op.operation_id : undefined;
    if (!op || !id || d.signature === 'invalid' || d.status < 200 || d.status >= 300) return x;
    const at = typeof event?.created_at === 'string' ? Date.parse(event.created_at) : NaN;
    const before = this.newest.get(id);
    if (Number.isFinite(at)) {
      if (before !== undefined && at < before) return x;
      this.newest.set(id, at);
    }
    return { ...x, response: { ...x.response, body: op } };
  }
}

/** Where a delivery goes once answered: the checker, the support model, the live printer. */
export interface WebhookSinks {
  checker?: ConformanceChecker | undefined;
  model: { observe(x: Exchange, violations: readonly Violation[]): void };
  onViolation?: ((v: Violation, x: Exchange) => void) | undefined;
  onWebhook?: ((d: WebhookDelivery) => void) | undefined;
  /** The next exchange number. */
  seq: () => number;
}

/** The handler of POST /proxy/webhooks: receive, forward, answer, then check and show each delivery. */
export function webhookReceiver(forwarding: WebhookForwarding, sinks: WebhookSinks) {
  const timeline = new WebhookTimeline();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const d = await receiveWebhook(req, res, forwarding, sinks.seq);
    if (!d) return;
    sinks.onWebhook?.(d);
    const found = sinks.checker?.checkWebhook?.(d) ?? [];
    const x = timeline.exchangeOf(d);
    sinks.model.observe(x, found);
    for (const v of found) sinks.onViolation?.(v, x);
  };
}
