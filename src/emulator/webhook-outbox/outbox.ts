// Webhooks of the sandbox: endpoint registration, the durable outbox (one delivery record per event × endpoint,
// written in the same commit as the event) and delivery: signed per Standard Webhooks, retried on the sandbox clock,
// every attempt recorded. The `webhook-timestamp` of an attempt is wall time (the clock's realNow), not sandbox time.
// Attempts run detached from requests and timers: a slow receiver never holds anything up. What an outcome makes of
// its delivery is in retry.ts, the records the extend stage adds in extension.ts, the endpoint controls in
// endpoint-controls.ts.
import type { Dispatcher } from 'undici';
import type { OperationEvent } from '../../domain/transitions.js';
import type { WorldIndex } from '../../domain/world.js';
import type { DeliveryAttempt, StoreChange, WebhookDeliveryRecord, WebhookEndpointRecord } from '../../store/state.js';
import type { Store } from '../../store/store.js';
import type { SandboxClock } from '../runtime/clock.js';
import type { Extension, WriteSubscriber } from '../runtime/pipeline.js';
import type { SandboxPart } from '../runtime/service.js';
import { iso } from '../../domain/state.js';
import type { EvidenceOptions } from '../wire.js';
import { outboxRecords, renderEvent } from './extension.js';
import {
  InThreadAttemptRunner,
  WorkerAttemptRunner,
  type AttemptJob,
  type AttemptOutcome,
  type AttemptRunner,
} from './attempt-runner.js';

/** Default per-attempt timeout (real time). */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export interface WebhookOptions {
  /** Register this URL for every shop (one shared secret, see `secret`). Default: none. */
  url?: string;
  /** Per-attempt timeout in real milliseconds. Default 10 000. */
  attemptTimeoutMs?: number;
  /** undici dispatcher for the attempts, which then run on the calling thread (tests). Default: a worker thread with its own Agent. */
  dispatcher?: Dispatcher;
  /** Where delivery problems are logged (never secrets). Default: nowhere. */
  log?: (line: string) => void;
}

export {
  activeSecrets,
  deliveryId,
  fixtureSecret,
  maskSecret,
  newSecret,
  optionEndpointId,
  WebhookLimitError,
} from './records.js';
export type { DeliveryPage, WebhookDelivery } from './deliveries.js';
import { activeSecrets } from './records.js';
import { afterAttempt } from './retry.js';
import {
  activeEndpoints,
  registerEndpoint,
  removeEndpoint,
  rotateEndpoint,
  type EndpointControlDeps,
} from './endpoint-controls.js';

export { RETRY_SCHEDULE_MS } from './retry.js';
export { SECRET_OVERLAP_MS } from './endpoint-controls.js';
import {
  deliveryView,
  endedByRemoval,
  pageDeliveries,
  shopDeliveries,
  type DeliveryFilter,
  type DeliveryPage,
  type WebhookDelivery,
} from './deliveries.js';
import { seedEndpoints } from './seed.js';

/**
 * Attempts that fall due together are handed to the runner together, this long after the first (ms): under load
 * one message (one wake-up of the worker thread) carries the deliveries of many group commits, not one each.
 */
const SEND_BATCH_MS = 10;
/** Most attempts handed to the runner in one message. */
const SEND_BATCH_MAX = 1024;

/** What the outbox works with: the store it reads and records into, the clock, the world, and the service's write path. */
export interface OutboxDeps {
  store: Store;
  clock: SandboxClock;
  world: WorldIndex;
  /** The service's write pipeline (endpoint changes, redeliveries). */
  commit(changes: readonly StoreChange[]): Promise<void>;
}

export class WebhookOutbox implements Extension, SandboxPart {
  /** The secret shared by the endpoints of the `url` option (undefined without it). */
  optionSecret: string | undefined;
  /** Delivery id → its attempt in flight (until the outcome is durable). */
  private readonly inflight = new Map<string, { seq: number; startedAt: number; timestamp: number }>();
  private readonly bySeq = new Map<number, string>();
  /** Attempts due and not yet handed to the runner, oldest first. */
  private outgoing: AttemptJob[] = [];
  private sendTimer: NodeJS.Timeout | undefined;
  private readonly runner: AttemptRunner;
  private seq = 0;
  private recording = 0;
  private idleWaiters: (() => void)[] = [];
  private generation = 0;
  private closed = false;

  private readonly store: Store;
  private readonly clock: SandboxClock;
  private readonly world: WorldIndex;

  constructor(
    private readonly deps: OutboxDeps,
    private readonly evidence: () => EvidenceOptions,
    private readonly opts: WebhookOptions = {},
  ) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.world = deps.world;
    const onOutcomes = (o: AttemptOutcome[]) => this.onOutcomes(o);
    this.runner = opts.dispatcher
      ? new InThreadAttemptRunner(onOutcomes, opts.dispatcher)
      : new WorkerAttemptRunner(onOutcomes, (e) => this.onCrash(e));
  }

  /** Active endpoints of a shop, oldest first. */
  endpointsOf(shopId: string): WebhookEndpointRecord[] {
    return activeEndpoints(this.store.state, shopId);
  }

  /** The JSON body of an event (computed once, at commit time, and sent unchanged on every attempt). */
  render(event: OperationEvent): string {
    return renderEvent(event, this.world, this.evidence());
  }

  // --- the pipeline's extend stage and its webhook scheduler; seed, resume, reset ---------------------------

  extend(changes: readonly StoreChange[]): StoreChange[] {
    return outboxRecords(changes, {
      endpointsOf: (shop) => this.endpointsOf(shop),
      render: (event) => this.render(event),
      now: () => iso(this.clock.now()),
    });
  }

  /** The pipeline's subscriber: new deliveries are due at once (next_attempt_at is the commit's time, and the
   * sandbox clock never goes back). */
  readonly scheduler: WriteSubscriber = ({ extra }) => {
    for (const ch of extra)
      if (ch.kind === 'webhook_delivery' && ch.delivery.status === 'pending') this.start(ch.delivery.id);
  };

  seed(): StoreChange[] {
    const seeded = seedEndpoints(
      this.store.state,
      this.world.data,
      this.opts.url,
      this.optionSecret,
      iso(this.clock.now()),
    );
    this.optionSecret = seeded.optionSecret;
    return seeded.changes;
  }

  resume(): void {
    for (const d of this.store.state.webhookDeliveries.values()) if (d.status === 'pending') this.arm(d);
  }

  reset(): void {
    this.generation++;
    this.runner.abortAll('sandbox reset');
    this.outgoing = [];
    this.inflight.clear();
    this.bySeq.clear();
    this.wakeIdle();
  }

  // --- delivery ---------------------------------------------------------------------------------------------
  // The event loop only decides and records: which attempt is due, with which secrets and timestamp; the runner
  // signs and POSTs (a worker thread by default) and hands the outcomes back in batches, each batch recorded in one
  // commit. An attempt in flight is in `inflight` until its outcome is durable (idle() waits for that).

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
    const d = this.store.state.webhookDeliveries.get(id);
    if (!d || d.status !== 'pending') return;
    const ep = this.store.state.webhookEndpoints.get(d.endpoint_id);
    if (!ep || ep.deleted_at) {
      // Never sent to the URL of a removed endpoint (a store from before removals ended its deliveries at once).
      this.record([{ kind: 'webhook_delivery', delivery: endedByRemoval(d) }], []);
      return;
    }
    const startedAt = this.clock.now();
    // Transport metadata, for the receiver's replay check: wall time (fresh per attempt), whatever the sandbox clock says.
    const timestamp = Math.floor(this.clock.realNow() / 1000);
    const seq = ++this.seq;
    this.inflight.set(id, { seq, startedAt, timestamp });
    this.bySeq.set(seq, id);
    this.outgoing.push({
      seq,
      url: ep.url,
      webhook_id: d.event_id,
      timestamp,
      body: this.store.state.webhookPayloads.get(d.event_id) ?? '',
      secrets: activeSecrets(ep, startedAt),
      timeout_ms: this.opts.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    });
    // Every attempt that falls due in this turn (all the deliveries of one group commit) goes in one message.
    this.sendTimer ??= setTimeout(() => this.send(), SEND_BATCH_MS);
  }

  /** Hand the due attempts to the runner, a message's worth at a time. */
  private send(): void {
    this.sendTimer = undefined;
    if (this.closed || this.outgoing.length === 0) return;
    this.runner.send(
      this.outgoing.length <= SEND_BATCH_MAX ? this.outgoing.splice(0) : this.outgoing.splice(0, SEND_BATCH_MAX),
    );
    if (this.outgoing.length > 0) this.sendTimer = setTimeout(() => this.send(), SEND_BATCH_MS);
  }

  /** Record a batch of outcomes in one commit (one delivery row each, the attempt appended), then arm the retries. */
  private onOutcomes(outcomes: readonly AttemptOutcome[]): void {
    if (this.closed) return;
    const changes: StoreChange[] = [];
    const done: string[] = [];
    const retry: WebhookDeliveryRecord[] = [];
    const now = this.clock.now();
    for (const o of outcomes) {
      const id = this.bySeq.get(o.seq);
      if (id === undefined) continue; // from before a reset
      this.bySeq.delete(o.seq);
      const f = this.inflight.get(id)!;
      done.push(id);
      const current = this.store.state.webhookDeliveries.get(id);
      if (!current) continue;
      const { next, retry: again } = afterAttempt(current, f, o, now);
      if (again) retry.push(next);
      changes.push({ kind: 'webhook_delivery', delivery: next });
    }
    this.record(changes, done, retry);
  }

  /** Commit `changes`; once durable, take `done` out of flight and arm `retry`. */
  private record(changes: StoreChange[], done: readonly string[], retry: readonly WebhookDeliveryRecord[] = []): void {
    const gen = this.generation;
    this.recording++;
    const written = changes.length > 0 ? this.store.commit(changes) : Promise.resolve();
    written
      .then(
        () => {
          if (gen !== this.generation || this.closed) return;
          for (const id of done) this.inflight.delete(id);
          for (const d of retry) this.arm(d);
        },
        (e: unknown) => {
          for (const id of done) this.inflight.delete(id);
          this.opts.log?.(`webhook delivery results could not be stored: ${String((e as Error)?.message ?? e)}`);
        },
      )
      .finally(() => {
        this.recording--;
        this.wakeIdle();
      });
  }

  /** The runner died with attempts in flight: record each as a failed attempt (retried on schedule). */
  private onCrash(e: unknown): void {
    this.opts.log?.(`webhook delivery worker failed: ${String((e as Error)?.message ?? e)}`);
    this.onOutcomes(
      [...this.inflight.values()].map((f) => ({ seq: f.seq, error: 'delivery worker crashed', duration_ms: 0 })),
    );
  }

  private wakeIdle(): void {
    if (this.inflight.size > 0 || this.recording > 0) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when no attempt is in flight and every outcome is recorded (tests: after advancing the clock). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0 || this.recording > 0) await new Promise<void>((r) => this.idleWaiters.push(r));
    await this.store.sync();
  }

  // --- controls ---------------------------------------------------------------------------------------------

  /** The endpoint controls' view of the outbox: its state, the sandbox time and the service's pipeline. */
  private get controls(): EndpointControlDeps {
    return { state: () => this.store.state, now: () => this.clock.now(), commit: (c) => this.deps.commit(c) };
  }

  register(shopId: string, url: string): Promise<WebhookEndpointRecord> {
    return registerEndpoint(this.controls, shopId, url);
  }

  endpoint(shopId: string, id: string): WebhookEndpointRecord | undefined {
    const ep = this.store.state.webhookEndpoints.get(id);
    return ep && ep.shop_id === shopId && !ep.deleted_at ? ep : undefined;
  }

  rotate(ep: WebhookEndpointRecord): Promise<WebhookEndpointRecord> {
    return rotateEndpoint(this.controls, ep);
  }

  remove(ep: WebhookEndpointRecord): Promise<void> {
    return removeEndpoint(this.controls, ep);
  }

  /** A delivery's attempts so far, oldest first. */
  attemptsOf(deliveryId: string): readonly DeliveryAttempt[] {
    return this.store.state.webhookDeliveries.get(deliveryId)?.attempts ?? [];
  }

  /** Every matching delivery of a shop, oldest first, with its endpoint's URL and its attempts (in-process use). */
  deliveries(shopId: string, filter: DeliveryFilter = {}): WebhookDelivery[] {
    const state = this.store.state;
    return shopDeliveries(state, shopId, filter).map((d) => deliveryView(state, d));
  }

  /** One page of a shop's matching deliveries, newest first, after `cursor` (throws UnknownCursorError). */
  page(shopId: string, filter: DeliveryFilter, limit: number, cursor?: string): DeliveryPage {
    return pageDeliveries(this.store.state, shopId, filter, limit, cursor);
  }

  /**
   * Start a new round of attempts, at once, for the matching deliveries (same webhook-id and body). Deliveries of a
   * removed endpoint are not taken.
   */
  async redeliver(shopId: string, filter: DeliveryFilter): Promise<WebhookDelivery[]> {
    const state = this.store.state;
    const at = iso(this.clock.now());
    const chosen: WebhookDeliveryRecord[] = [];
    for (const d of shopDeliveries(state, shopId, filter)) {
      const ep = state.webhookEndpoints.get(d.endpoint_id);
      if (d.error || !ep || ep.deleted_at) continue;
      chosen.push({ ...d, status: 'pending', round_start: this.attemptsOf(d.id).length, next_attempt_at: at });
    }
    if (chosen.length === 0) return [];
    await this.deps.commit(chosen.map((delivery) => ({ kind: 'webhook_delivery' as const, delivery })));
    for (const d of chosen) this.arm(d);
    return chosen.map((d) => deliveryView(state, d));
  }

  /** Abort attempts in flight and stop scheduling; nothing more is written. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.sendTimer);
    this.outgoing = [];
    await this.runner.close().catch(() => undefined);
    this.inflight.clear();
    this.bySeq.clear();
    this.wakeIdle();
  }
}
