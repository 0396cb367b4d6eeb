// The webhooks a test sandbox sent: received in process (the sandbox's webhook dispatcher points here, no port),
// verified against the sandbox's secret, recorded, optionally forwarded to the app's own receiver, and waited for.
import type { FetchHandler } from '../client/in-process.js';
import type { Sandbox } from '../emulator/sandbox.js';
import { verifyWebhook, type WebhookEvent, type WebhookEventType } from '../webhooks/index.js';

export interface WaitForOptions {
  /** Only an event about this operation. Default: any. */
  operationId?: string;
  /** Give up after this many real milliseconds (deliveries are in process: they take milliseconds). Default 5000. */
  timeoutMs?: number;
}

/**
 * @internal Where the deliveries come from: the secrets they are signed with, the wall time their webhook-timestamp
 * is checked against (the sandbox stamps attempts with wall time, never sandbox time), and when none is in flight.
 */
export interface WebhookSource {
  secrets(): string[];
  /** Wall time, epoch ms. */
  now(): number;
  idle(): Promise<void>;
}

export class WebhookEvents implements FetchHandler {
  readonly #events: WebhookEvent[] = [];
  #source: WebhookSource | undefined;
  #waiters: (() => void)[] = [];

  /** @param forward the app's receiver: every delivery is also handed to it, and its answer is the sandbox's. */
  constructor(private readonly forward?: FetchHandler['fetch']) {}

  /** @internal Called once the sandbox exists (its secret and clock verify the deliveries). */
  attach(sandbox: Sandbox | WebhookSource): void {
    this.#source =
      'secrets' in sandbox
        ? sandbox
        : {
            secrets: () => (sandbox.webhookSecret ? [sandbox.webhookSecret] : []),
            now: () => sandbox.clock.realNow(),
            idle: () => sandbox.webhooks.idle(),
          };
  }

  /** The receiving end of the sandbox's webhook dispatcher (the sandbox calls it; not for tests to call). */
  readonly fetch = async (request: Request): Promise<Response> => {
    const raw = new Uint8Array(await request.clone().arrayBuffer());
    const source = this.#source;
    const secrets = source?.secrets() ?? [];
    if (source && secrets.length > 0) {
      const event = verifyWebhook(raw, request.headers, secrets, { now: source.now() });
      if (!this.#events.some((e) => e.id === event.id)) this.#events.push(event);
      for (const w of this.#waiters.splice(0)) w();
    }
    return this.forward ? this.forward(request) : new Response(null, { status: 204 });
  };

  /** Every event received so far (each once, in arrival order), optionally of one type. */
  events(type?: WebhookEventType): WebhookEvent[] {
    return type ? this.#events.filter((e) => e.type === type) : [...this.#events];
  }

  /** Wait until every delivery in flight was answered. */
  async settle(): Promise<void> {
    await new Promise<void>((r) => setImmediate(r));
    await this.#source?.idle();
  }

  /** The first event of `type` (about `operationId`, if given), waiting for it if it has not arrived yet. */
  async waitFor(type: WebhookEventType, opts: WaitForOptions = {}): Promise<WebhookEvent> {
    const match = (e: WebhookEvent) =>
      e.type === type && (!opts.operationId || e.data.operation.operation_id === opts.operationId);
    const deadline = Date.now() + (opts.timeoutMs ?? 5000);
    await this.settle();
    for (;;) {
      const found = this.#events.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = this.#events.map((e) => e.type).join(', ') || 'none';
        throw new Error(
          `no ${type} webhook${opts.operationId ? ` for ${opts.operationId}` : ''} arrived (received: ${seen}); on a frozen clock, advance it first`,
        );
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}
