// Webhooks of the sandbox: endpoint registration, the durable outbox (one delivery record per event × endpoint,
// written in the same commit as the event) and delivery: signed per Standard Webhooks, retried on the sandbox clock,
// every attempt recorded. Attempts run detached from requests and timers: a slow receiver never holds anything up.
import { createHash, randomBytes } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import { Webhook } from 'standardwebhooks';
import type { OperationEvent } from '../domain/transitions.js';
import type { WorldIndex } from '../domain/world.js';
import type { StoreChange, WebhookAttempt, WebhookDeliveryRecord, WebhookEndpointRecord } from '../store/state.js';
import type { Store } from '../store/store.js';
import type { WebhookEvent } from '../webhooks/index.js';
import type { SandboxClock } from './clock.js';
import type { CommitHook, GatewayService } from './service.js';
import { iso } from '../domain/state.js';
import { toWireState, type EvidenceOptions, type PublicOperation } from './wire.js';

/** Delay before each attempt, from the previous one (sandbox time): at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS: readonly number[] = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** How long a rotated-out secret is still signed alongside the new one (sandbox time). */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;
/** Default per-attempt timeout (real time). */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookOptions {
  /** Register this URL for every shop (one shared secret, see `secret`). Default: none. */
  url?: string;
  /** Per-attempt timeout in real milliseconds. Default 10 000. */
  attemptTimeoutMs?: number;
  /** undici dispatcher for the attempts (tests). Default: an Agent owned and closed by the sandbox. */
  dispatcher?: Dispatcher;
  /** Where delivery problems are logged (never secrets). Default: nowhere. */
  log?: (line: string) => void;
}

/** `whsec_` + base64 of 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secret of a fixture endpoint that names none: derived from its id, so it is stable across runs. */
export function fixtureSecret(endpointId: string): string {
  return `whsec_${createHash('sha256').update(`paygate-webhook-secret:${endpointId}`).digest('base64')}`;
}

/** `whsec_…abcd`: only the last 4 characters. */
export function maskSecret(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

export function deliveryId(eventId: string, endpointId: string): string {
  return `dlv_${createHash('sha256').update(`${eventId}\u0000${endpointId}`).digest('hex').slice(0, 24)}`;
}

/** The id of the endpoint the `url` option registers for a shop. */
export const optionEndpointId = (shopId: string) => `we_default_${shopId}`;

/** Secrets an attempt at `now` signs with: the current one and rotated-out ones still in their overlap. */
export function activeSecrets(ep: WebhookEndpointRecord, now: number): string[] {
  return [ep.secret, ...ep.previous_secrets.filter((p) => Date.parse(p.expires_at) > now).map((p) => p.secret)];
}

/** Retry-After in milliseconds (delta-seconds only), or 0. */
function retryAfterMs(value: string | string[] | undefined): number {
  const v = Array.isArray(value) ? value[0] : value;
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) * 1000 : 0;
}

export class WebhookOutbox implements CommitHook {
  /** The secret shared by the endpoints of the `url` option (undefined without it). */
  optionSecret: string | undefined;
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly agent: Dispatcher;
  private readonly ownAgent: boolean;
  private readonly aborts = new Set<AbortController>();
  private generation = 0;
  private closed = false;

  constructor(
    private readonly service: GatewayService,
    private readonly evidence: () => EvidenceOptions,
    private readonly opts: WebhookOptions = {},
  ) {
    this.ownAgent = !opts.dispatcher;
    this.agent = opts.dispatcher ?? new Agent({ keepAliveTimeout: 1_000, connections: 16 });
  }

  private get store(): Store {
    return this.service.store;
  }
  private get clock(): SandboxClock {
    return this.service.clock;
  }
  private get world(): WorldIndex {
    return this.service.world;
  }

  /** Active endpoints of a shop, oldest first. */
  endpointsOf(shopId: string): WebhookEndpointRecord[] {
    return [...this.store.state.webhookEndpoints.values()].filter((e) => e.shop_id === shopId && !e.deleted_at);
  }

  /** The JSON body of an event (computed once, at commit time, and sent unchanged on every attempt). */
  render(event: OperationEvent): string {
    const op = { ...event.operation, history: [] } as unknown as PublicOperation;
    const body: WebhookEvent = {
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      data: { operation: toWireState(op, this.world, this.evidence()) },
    };
    return JSON.stringify(body);
  }

  // --- CommitHook -------------------------------------------------------------------------------------------

  extend(changes: readonly StoreChange[]): StoreChange[] {
    const out: StoreChange[] = [];
    const at = iso(this.clock.now());
    for (const ch of changes) {
      if (ch.kind !== 'event') continue;
      const endpoints = this.endpointsOf(ch.event.shop_id);
      if (endpoints.length === 0) continue;
      const payload = this.render(ch.event);
      for (const ep of endpoints) {
        const delivery: WebhookDeliveryRecord = {
          id: deliveryId(ch.event.id, ep.id),
          event_id: ch.event.id,
          event_type: ch.event.type,
          shop_id: ch.event.shop_id,
          endpoint_id: ep.id,
          url: ep.url,
          payload,
          status: 'pending',
          attempts: [],
          round_start: 0,
          next_attempt_at: at,
          created_at: at,
        };
        out.push({ kind: 'webhook_delivery', delivery });
      }
    }
    return out;
  }

  committed(extra: readonly StoreChange[]): void {
    for (const ch of extra) if (ch.kind === 'webhook_delivery' && ch.delivery.status === 'pending') this.arm(ch.delivery);
  }

  seed(): StoreChange[] {
    const at = iso(this.clock.now());
    const out: StoreChange[] = [];
    const state = this.store.state;
    for (const w of this.world.world.webhooks ?? []) {
      if (state.webhookEndpoints.has(w.id)) continue;
      out.push({
        kind: 'webhook_endpoint',
        endpoint: { id: w.id, shop_id: w.shop_id, url: w.url, secret: w.secret ?? fixtureSecret(w.id), previous_secrets: [], source: 'fixture', created_at: at },
      });
    }
    if (this.opts.url) {
      // One secret for every shop, kept across restarts of a file store.
      const stored = this.world.world.shops.map((s) => state.webhookEndpoints.get(optionEndpointId(s.id))).find((e) => e && !e.deleted_at);
      this.optionSecret ??= stored?.secret ?? newSecret();
      for (const shop of this.world.world.shops) {
        const current = state.webhookEndpoints.get(optionEndpointId(shop.id));
        if (current && !current.deleted_at && current.url === this.opts.url && current.secret === this.optionSecret) continue;
        out.push({
          kind: 'webhook_endpoint',
          endpoint: { id: optionEndpointId(shop.id), shop_id: shop.id, url: this.opts.url, secret: this.optionSecret, previous_secrets: [], source: 'option', created_at: at },
        });
      }
    }
    return out;
  }

  resume(): void {
    for (const d of this.store.state.webhookDeliveries.values()) if (d.status === 'pending') this.arm(d);
  }

  reset(): void {
    this.generation++;
    for (const a of this.aborts) a.abort();
  }

  // --- delivery ---------------------------------------------------------------------------------------------

  /** Start the next attempt now if it is due (so idle() sees it at once), else when the sandbox clock gets there. */
  private arm(d: WebhookDeliveryRecord): void {
    const id = d.id;
    const gen = this.generation;
    const at = d.next_attempt_at ? Date.parse(d.next_attempt_at) : this.clock.now();
    if (at <= this.clock.now()) {
      this.start(id);
      return;
    }
    this.clock.schedule(at, () => {
      // Detached: the clock (and so every other timer) never waits for a receiver.
      if (gen === this.generation) this.start(id);
    });
  }

  private start(id: string): void {
    if (this.closed || this.inflight.has(id)) return;
    const p = this.attempt(id)
      .catch((e) => this.opts.log?.(`webhook delivery ${id} failed internally: ${String((e as Error)?.message ?? e)}`))
      .finally(() => this.inflight.delete(id));
    this.inflight.set(id, p);
  }

  /** Resolves when no attempt is in flight (tests: after advancing the clock). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight.values()]);
    await this.store.sync();
  }

  private async attempt(id: string): Promise<void> {
    const gen = this.generation;
    const d = this.store.state.webhookDeliveries.get(id);
    if (!d || d.status !== 'pending') return;
    const ep = this.store.state.webhookEndpoints.get(d.endpoint_id);
    if (!ep || ep.deleted_at) {
      await this.store.commit([{ kind: 'webhook_delivery', delivery: { ...d, status: 'failed', next_attempt_at: null, error: 'endpoint_deleted' } }]);
      return;
    }
    const startedAt = this.clock.now();
    const timestamp = new Date(Math.floor(startedAt / 1000) * 1000);
    const signature = activeSecrets(ep, startedAt)
      .map((s) => signer(s).sign(d.event_id, timestamp, d.payload))
      .join(' ');
    const abort = new AbortController();
    this.aborts.add(abort);
    const timeoutMs = this.opts.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    const timer = setTimeout(() => abort.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    const t0 = performance.now();
    let statusCode: number | undefined;
    let error: string | undefined;
    let retryAfter = 0;
    try {
      const res = await request(ep.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal: abort.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'paygate-webhooks/1',
          'webhook-id': d.event_id,
          'webhook-timestamp': String(timestamp.getTime() / 1000),
          'webhook-signature': signature,
        },
        body: d.payload,
      });
      statusCode = res.statusCode;
      if (statusCode === 429 || statusCode === 503) retryAfter = retryAfterMs(res.headers['retry-after']);
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    } catch (e) {
      const reason = abort.signal.aborted ? abort.signal.reason : e;
      error = String((reason as Error)?.message ?? reason);
      const code = (e as { code?: string })?.code ?? (e as { cause?: { code?: string } })?.cause?.code;
      if (code && !abort.signal.aborted) error = `${code}: ${error}`;
    } finally {
      clearTimeout(timer);
      this.aborts.delete(abort);
    }
    if (this.closed || gen !== this.generation) return;
    const current = this.store.state.webhookDeliveries.get(id);
    if (!current) return;
    const attempt: WebhookAttempt = {
      at: iso(startedAt),
      ...(statusCode !== undefined ? { status_code: statusCode } : {}),
      ...(error !== undefined ? { error } : {}),
      duration_ms: Math.round(performance.now() - t0),
    };
    const attempts = [...current.attempts, attempt];
    const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
    let next: WebhookDeliveryRecord;
    if (ok) {
      next = { ...current, attempts, status: 'succeeded', next_attempt_at: null };
    } else {
      const made = attempts.length - current.round_start;
      if (made >= RETRY_SCHEDULE_MS.length) {
        next = { ...current, attempts, status: 'failed', next_attempt_at: null };
      } else {
        const delay = Math.max(RETRY_SCHEDULE_MS[made]!, retryAfter);
        next = { ...current, attempts, status: 'pending', next_attempt_at: iso(this.clock.now() + delay) };
      }
    }
    await this.store.commit([{ kind: 'webhook_delivery', delivery: next }]);
    if (next.status === 'pending') this.arm(next);
  }

  // --- controls ---------------------------------------------------------------------------------------------

  async register(shopId: string, url: string): Promise<WebhookEndpointRecord> {
    const endpoint: WebhookEndpointRecord = {
      id: `we_${randomBytes(8).toString('hex')}`,
      shop_id: shopId,
      url,
      secret: newSecret(),
      previous_secrets: [],
      source: 'api',
      created_at: iso(this.clock.now()),
    };
    await this.service.commit([{ kind: 'webhook_endpoint', endpoint }]);
    return endpoint;
  }

  endpoint(shopId: string, id: string): WebhookEndpointRecord | undefined {
    const ep = this.store.state.webhookEndpoints.get(id);
    return ep && ep.shop_id === shopId && !ep.deleted_at ? ep : undefined;
  }

  async rotate(ep: WebhookEndpointRecord): Promise<WebhookEndpointRecord> {
    const now = this.clock.now();
    const kept = ep.previous_secrets.filter((p) => Date.parse(p.expires_at) > now);
    const next: WebhookEndpointRecord = {
      ...ep,
      secret: newSecret(),
      previous_secrets: [...kept, { secret: ep.secret, expires_at: iso(now + SECRET_OVERLAP_MS) }],
    };
    await this.service.commit([{ kind: 'webhook_endpoint', endpoint: next }]);
    return next;
  }

  async remove(ep: WebhookEndpointRecord): Promise<void> {
    await this.service.commit([{ kind: 'webhook_endpoint', endpoint: { ...ep, deleted_at: iso(this.clock.now()) } }]);
  }

  deliveries(shopId: string, filter: { failed?: boolean; event_id?: string } = {}): WebhookDeliveryRecord[] {
    return [...this.store.state.webhookDeliveries.values()].filter(
      (d) => d.shop_id === shopId && (!filter.failed || d.status === 'failed') && (!filter.event_id || d.event_id === filter.event_id),
    );
  }

  /** Start a new round of attempts, at once, for the matching deliveries (same webhook-id and body). */
  async redeliver(shopId: string, filter: { failed?: boolean; event_id?: string }): Promise<WebhookDeliveryRecord[]> {
    const at = iso(this.clock.now());
    const chosen = this.deliveries(shopId, filter)
      .filter((d) => !d.error)
      .map((d) => ({ ...d, status: 'pending' as const, round_start: d.attempts.length, next_attempt_at: at }));
    if (chosen.length === 0) return [];
    await this.service.commit(chosen.map((delivery) => ({ kind: 'webhook_delivery' as const, delivery })));
    for (const d of chosen) this.arm(d);
    return chosen;
  }

  /** Abort attempts in flight and stop scheduling; nothing more is written. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const a of this.aborts) a.abort(new Error('sandbox closing'));
    await Promise.allSettled([...this.inflight.values()]);
    if (this.ownAgent) await (this.agent as Agent).destroy().catch(() => undefined);
  }
}

const signers = new Map<string, Webhook>();

/** One Webhook signer per secret (decoding the secret once, not per attempt). */
function signer(secret: string): Webhook {
  let w = signers.get(secret);
  if (!w) {
    if (signers.size > 1000) signers.clear();
    w = new Webhook(secret);
    signers.set(secret, w);
  }
  return w;
}
