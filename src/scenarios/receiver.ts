// The webhook receiver of one scenario run: answers every delivery with the status the scenario set (204 while up,
// 503 while down), verifies each against the endpoint secrets it knows (Standard Webhooks), and records what it
// accepted, so a step can say which events it caused. In process it is a fetch handler behind the sandbox's webhook
// dispatcher (no port); against a running sandbox it also listens on 127.0.0.1.
import type { Server } from 'node:http';
import { verifyWebhook, type WebhookEvent } from '../webhooks/index.js';

export interface ReceivedEvent {
  /** Order of arrival, from 0. */
  seq: number;
  event: WebhookEvent;
  verified: boolean;
  /** Why verification failed. */
  error?: string;
}

/** A year: the signature is what is checked; a frozen sandbox clock may be far from real time. */
const TOLERANCE_SECONDS = 366 * 86_400;

export class WebhookReceiver {
  /** The status deliveries are answered with. */
  status = 204;
  /** Every delivery the receiver accepted (answered 2xx), in arrival order. */
  readonly accepted: ReceivedEvent[] = [];
  /** Every delivery that arrived, accepted or not. */
  attempts = 0;
  readonly #secrets = new Set<string>();
  #server: Server | undefined;
  #waiters: (() => void)[] = [];

  /** Trust this endpoint secret (from the sandbox's options, or a `webhooks.add` / rotation answer). */
  addSecret(secret: string): void {
    if (secret.startsWith('whsec_')) this.#secrets.add(secret);
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const raw = new Uint8Array(await request.arrayBuffer());
    this.attempts++;
    const status = this.status;
    if (status >= 200 && status < 300) this.#record(raw, request.headers);
    return new Response(null, { status });
  };

  #record(raw: Uint8Array, headers: Headers): void {
    let event: WebhookEvent;
    let verified = false;
    let error: string | undefined;
    try {
      event = verifyWebhook(raw, headers, [...this.#secrets], { toleranceSeconds: TOLERANCE_SECONDS });
      verified = true;
    } catch (e) {
      error = (e as Error).message;
      try {
        event = JSON.parse(Buffer.from(raw).toString('utf8')) as WebhookEvent;
      } catch {
        return;
      }
    }
    this.accepted.push({ seq: this.accepted.length, event, verified, ...(error ? { error } : {}) });
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Resolves at the next accepted delivery, or after `ms` of real time (remote targets only). */
  nextDelivery(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Listen on 127.0.0.1 (port 0) for a sandbox in another process; returns the URL to register. */
  async listen(): Promise<string> {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        void this.fetch(
          new Request('http://receiver.local/', { method: 'POST', headers, body: Buffer.concat(chunks) }),
        ).then((r) => {
          res.writeHead(r.status).end();
        });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#server = server;
    const addr = server.address();
    return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hooks`;
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
