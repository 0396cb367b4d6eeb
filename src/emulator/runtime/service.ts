// The gateway service: runs domain commands against the store and the sandbox clock. A command returns its outcome
// (changes and effects, decided by the domain); the service writes the changes through the write pipeline
// (pipeline.ts: admit → extend → write → subscribers), and only once they are written carries the effects out (timers
// on the sandbox clock, the release of a create waiting on its admission): the effect runner (effect-runner.ts) is
// the pipeline's last subscriber. A failed write changes nothing (the store takes it back) and answers 503
// store_unavailable. After a restart the timers are derived again from the stored records. A receipt upload's steps
// are in receipts.ts.
import { createHmac } from 'node:crypto';
import type { CreateParams } from '../../domain/create.js';
import type { BalanceFigures } from '../../domain/ledger.js';
import type { OperationKind, OperationRecord } from '../../domain/operation.js';
import type { DomainContext } from '../../domain/state.js';
import type { WorldIndex } from '../../domain/world.js';
import type { Store } from '../../store/store.js';
import type { StoreChange } from '../../store/state.js';
import type { SandboxClock } from './clock.js';
import type { PublicOperation } from '../wire.js';
import { planCreate, type CreatePlan } from '../../domain/create.js';
import { planConfirm, planFlexible, type FlexibleParams, type LinkRecord } from '../../domain/links.js';
import { evaluateAmounts, type AmountsQuery, type AmountsResult } from '../../domain/amounts.js';
import { generateAmounts } from '../../domain/pool-layout.js';
import { layOutPool } from './pool-layouts.js';
import { hashApiKey, seedChanges } from './seed.js';
import { DEFAULT_READ_SETTINGS, type ReadSettings } from './amount-reads.js';
import {
  cancel,
  payerPays,
  providerSettles,
  reviewerDecides,
  type CancelOutcome,
  type ReviewVerdict,
} from '../../domain/commands.js';
import { TIMER_STATUSES, linkTimersOf, timersOf, type Effect, type Outcome } from '../../domain/effects.js';
import type { Moved } from '../../domain/lifecycle.js';
import type { FileStore } from '../../store/files.js';
import { notFound, storeUnavailable } from './errors.js';
import { EffectRunner } from './effect-runner.js';
import { ReceiptCheckQueue } from '../receipts/queue.js';
import { recordReceipt, type ReceiptFile } from './receipts.js';
import { LiveFeed, WritePipeline } from './pipeline.js';
import { accounts, balanceRow } from '../../domain/ledger.js';
import { iso } from '../../domain/state.js';

export { hashApiKey } from './seed.js';

export type {
  AuthResult,
  LayoutLimits,
  OperationRef,
  ResetSubscriber,
  SandboxPart,
  ServiceDeps,
} from './service-types.js';
import type {
  AuthResult,
  OperationRef,
  ResetSubscriber,
  SandboxPart,
  ServiceDeps,
  LayoutLimits,
} from './service-types.js';

export class GatewayService {
  private readonly effects: EffectRunner;
  /** Told of every transaction the moment it is written (the live views: operation streams, the hosted page). */
  readonly writeListeners = new LiveFeed();
  readonly world: WorldIndex;
  readonly store: Store;
  readonly clock: SandboxClock;
  readonly files: FileStore;
  readonly layoutLimits: LayoutLimits;
  /** Payouts of pool layouts still being laid out, per shop (pool-layouts.ts). */
  readonly layoutsInFlight = new Map<string, number>();
  private readonly linkKey: Buffer;
  private readonly parts: readonly SandboxPart[];
  private readonly pipeline: WritePipeline;
  private readonly resets: readonly ResetSubscriber[];
  /** Receipt checks waiting or running (src/emulator/receipts/queue.ts): this sandbox's own. */
  readonly receiptChecks = new ReceiptCheckQueue();

  constructor(deps: ServiceDeps) {
    const { world, store, clock } = deps;
    this.world = world;
    this.store = store;
    this.clock = clock;
    this.files = deps.files;
    this.linkKey = deps.linkKey;
    this.parts = deps.parts;
    this.layoutLimits = deps.layoutLimits ?? {};
    this.resets = deps.onReset ?? [];
    this.effects = new EffectRunner({ clock, ctx: () => this.ctx(), persist: (o) => this.persist(o) });
    this.pipeline = new WritePipeline({
      store,
      admission: deps.admission,
      extension: deps.extension,
      subscribers: [...deps.subscribers, this.writeListeners.subscriber, (w) => this.effects.run(w.effects)],
    });
  }

  get state() {
    return this.store.state;
  }

  ctx(): DomainContext {
    return { world: this.world, state: this.store.state, now: this.clock.now() };
  }

  /** Seed what the fixtures add (keys, opening balances) and re-arm the timers of in-flight operations. */
  async init(): Promise<void> {
    const changes = seedChanges(this.world, this.state, iso(this.clock.now()));
    for (const part of this.parts) changes.push(...part.seed());
    if (changes.length > 0) await this.commit(changes);
    // Only the operations whose status can have a timer are decoded (found by the index's status column).
    for (const op of this.state.operationsWithStatus(TIMER_STATUSES)) this.effects.run(timersOf(this.world, op));
    for (const link of this.state.links.values()) this.effects.run(linkTimersOf(link));
    if (!this.state.meta.has('pool_layouts')) {
      for (const [i, l] of (this.world.data.pool_layouts ?? []).entries()) {
        await layOutPool(
          this,
          l.shop_id,
          { method: l.method, amounts: l.amounts ?? generateAmounts(l.generate!), batch: `f${i}` },
          false,
        );
      }
      await this.commit([{ kind: 'meta', meta: { id: 'pool_layouts', seeded: true } }]);
    }
    for (const part of this.parts) part.resume();
  }

  /**
   * The one path every change goes through: the write pipeline (admit → extend → write → subscribers). Resolves once
   * written; rejects with an admission's refusal, or with store_unavailable when the write failed: then nothing of
   * it is visible, ever.
   */
  commit(changes: readonly StoreChange[], effects: readonly Effect[] = []): Promise<void> {
    return this.pipeline.write(changes, effects);
  }

  /**
   * Keep where the clock stands in the store (the clock's `after` advance subscriber), so a restart resumes from it
   * (a frozen clock at the same moment). Best effort: a failed write of the position does not undo the advance.
   */
  recordClock(): Promise<void> {
    const now = this.clock.now();
    return this.commit([{ kind: 'meta', meta: { id: 'clock', now, offset: now - Date.now() } }]).catch(() => undefined);
  }

  /** Write an outcome's changes; the moment they are written, carry out its effects. */
  persist(outcome: Outcome): Promise<void> {
    return this.commit(outcome.changes, outcome.effects);
  }

  authenticate(token: string | null | undefined): AuthResult {
    if (token === null || token === undefined || token === '') return { ok: false, reason: 'missing' };
    const key = this.state.keyByTokenHash(hashApiKey(token));
    if (!key || key.revoked) return { ok: false, reason: 'invalid' };
    return { ok: true, shopId: key.shop_id, keyId: key.id, scopes: key.scopes };
  }

  /** Create a payment or payout; resolves once the outcome is durable (after the provider's acceptance wait). */
  create(
    shopId: string,
    kind: OperationKind,
    params: CreateParams,
    opts?: { link?: boolean },
  ): Promise<PublicOperation> {
    // Not an async function returning runCreate's promise (two more ticks per create); a refusal still rejects.
    try {
      return this.runCreate(planCreate(this.ctx(), shopId, kind, params, opts?.link ? { hostedLink: true } : {}));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * POST /v1/payment/link/flexible (spec §4.3): an operation created now (`url`: whether its payment_url carries the
   * k credential), or a link in amount_selection / rejected. Resolves once durable.
   */
  async flexible(
    shopId: string,
    params: FlexibleParams,
  ): Promise<{ op: PublicOperation; url: boolean } | { link: LinkRecord }> {
    const plan = planFlexible(this.ctx(), shopId, params);
    if (plan.kind === 'link') {
      await this.persist(plan);
      return { link: plan.link };
    }
    return { op: await this.runCreate(plan.plan), url: plan.url };
  }

  /** Sandbox control: the payer confirms an amount on a flexible link (the payment is created, or rejected). */
  async confirmLink(shopId: string, id: string, amount: string): Promise<PublicOperation> {
    return this.runCreate(planConfirm(this.ctx(), shopId, id.toLowerCase(), amount));
  }

  /** The k credential of a flexible link's hosted page: an HMAC of the operation_id under the store's link secret. */
  linkCredential(id: string): string {
    return createHmac('sha256', this.linkSecret()).update(id).digest('base64url');
  }

  private linkSecret(): Buffer {
    return this.linkKey;
  }

  /** The amount-read simulation of this replica (sandbox setting, kept in the store). */
  readSettings(): ReadSettings {
    const m = this.state.meta.get('read_settings') as Partial<ReadSettings> | undefined;
    return {
      ...DEFAULT_READ_SETTINGS,
      ...(m ? { read_latency_ms: m.read_latency_ms ?? 0, rate_limit: m.rate_limit ?? true } : {}),
    };
  }

  async setReadSettings(patch: Partial<ReadSettings>): Promise<ReadSettings> {
    const next = { ...this.readSettings(), ...patch };
    await this.commit([{ kind: 'meta', meta: { id: 'read_settings', ...next } }]);
    return next;
  }

  /** Called once when the service stops (its workspace deleted): the streams it feeds end. */
  readonly closeListeners = new Set<() => void>();
  #stopped: Error | undefined;
  get stopped(): boolean {
    return this.#stopped !== undefined;
  }

  /** Stop (a deleted workspace): no timer runs again, creates waiting on an admission reject with `error`, streams end. */
  stop(error: Error): void {
    if (this.#stopped) return;
    this.#stopped = error;
    this.clock.close();
    this.effects.close(error);
    for (const fn of [...this.closeListeners]) fn();
    this.closeListeners.clear();
  }

  /** Read-only amount availability or recommendations (spec §4.9, §4.10); the limits are the caller's job. */
  amounts(shopId: string, q: AmountsQuery): AmountsResult {
    return evaluateAmounts(this.ctx(), shopId, q);
  }

  /** Run a create plan: write it, then carry out its effects, and wait for the outcome. */
  private async runCreate(plan: CreatePlan): Promise<PublicOperation> {
    if (plan.kind === 'refused') throw plan.error;
    if (plan.kind === 'commit') {
      try {
        await this.persist(plan);
      } catch (e) {
        // Replays waiting on it answer now: the create never happened.
        this.effects.run([{ kind: 'resolve_admission', operation_id: plan.op.id }]);
        throw e;
      }
    }
    // A create decided at once was written with its record: that record is the answer (no lookup after the write).
    // It does not wait for the writes other requests queued meanwhile (settled() syncs, which would wait for those
    // too: one more group write per create).
    if (plan.kind === 'commit' && plan.op.status !== 'admitting') return plan.op;
    await this.settled(plan.op.id);
    const op = this.state.operation(plan.op.id);
    // The create this replays was never written, or its admission's outcome could not be written yet.
    if (!op || op.status === 'admitting')
      throw storeUnavailable(new Error('the outcome of this create could not be written'));
    return this.publicOperation(plan.op.id);
  }

  /** Find an operation of this shop, including a create still in flight; never another shop's. */
  find(shopId: string, ref: OperationRef): OperationRecord | undefined {
    const op =
      'operation_id' in ref
        ? this.state.operation(ref.operation_id.toLowerCase())
        : this.state.operationByMoid(shopId, ref.merchant_operation_id);
    return op && op.shop_id === shopId ? op : undefined;
  }

  /** Read an operation of this shop; 404 for another shop's, an unknown one, or a create still in flight. */
  async get(shopId: string, ref: OperationRef): Promise<PublicOperation> {
    await this.store.sync();
    const found = this.find(shopId, ref);
    return this.publicOperation(found?.id);
  }

  /** Cancel a payment (spec §4.7); wins against a create in flight when identified by merchant_operation_id. */
  async cancel(
    shopId: string,
    ref: OperationRef,
    reason: string,
  ): Promise<{ outcome: CancelOutcome; op: PublicOperation }> {
    const op = this.find(shopId, ref);
    if (!op) throw notFound();
    const r = cancel(this.ctx(), op, reason, 'merchant_operation_id' in ref);
    await (r.moved ? this.persist(r.moved) : this.store.sync());
    return { outcome: r.outcome, op: this.publicOperation(op.id) };
  }

  /** Sandbox control: the payer transfers to a pending payment's requisites. */
  async pay(shopId: string, ref: OperationRef, amount?: string): Promise<PublicOperation> {
    return this.command(shopId, ref, (op) => payerPays(this.ctx(), op, amount));
  }

  /** Sandbox control: the provider completes or fails a pending payout. */
  async settle(shopId: string, ref: OperationRef, outcome: 'completed' | 'failed'): Promise<PublicOperation> {
    return this.command(shopId, ref, (op) => providerSettles(this.ctx(), op, outcome));
  }

  /** Sandbox control: a reviewer approves or declines a payment under manual check. */
  async review(
    shopId: string,
    ref: OperationRef,
    decision: 'approve' | 'decline',
    amount?: string,
  ): Promise<PublicOperation> {
    return this.command(shopId, ref, (op) => reviewerDecides(this.ctx(), op, decision, amount));
  }

  /** confirm_payment: store the file, then record the upload and the automatic review's verdict. */
  async uploadReceipt(
    shopId: string,
    operationId: string,
    file: ReceiptFile,
    check: (expectedAmount: string) => Promise<ReviewVerdict>,
  ): Promise<PublicOperation> {
    return this.publicOperation(await recordReceipt(this, shopId, operationId, file, check));
  }

  /** Whether receipt evidence and URL signing are available (a sandbox control turns them off). */
  get evidenceAvailable(): boolean {
    return this.state.meta.get('evidence')?.available !== false;
  }

  async setEvidenceAvailable(available: boolean): Promise<void> {
    await this.commit([{ kind: 'meta', meta: { id: 'evidence', available } }]);
  }

  private async command(
    shopId: string,
    ref: OperationRef,
    fn: (op: OperationRecord) => Moved,
  ): Promise<PublicOperation> {
    const op = this.find(shopId, ref);
    if (!op || op.status === 'admitting') throw notFound();
    await this.persist(fn(op));
    return this.publicOperation(op.id);
  }

  balances(shopId: string): BalanceFigures[] {
    return this.world
      .shopCurrencies(shopId)
      .map((currency) =>
        balanceRow(
          currency,
          this.store.durableTotal(accounts.balance(shopId), currency),
          this.store.durableTotal(accounts.reserved(shopId), currency),
        ),
      );
  }

  /** An operation as a read may show it: its written version (never a change still being written). */
  private publicOperation(id: string | undefined): PublicOperation {
    const op = id === undefined ? undefined : this.store.durable('operations', id, this.state.operation(id));
    // Gone (a reset raced the request) or still admitting: not an operation anyone can see.
    if (!op || op.status === 'admitting') throw notFound();
    return op;
  }

  /** Sandbox reset: forget every operation, posting, event and issued key; re-seed from the fixtures. */
  async reset(): Promise<void> {
    this.clock.clearTimers();
    for (const part of this.parts) part.reset();
    await this.store.clear();
    this.effects.releaseAll();
    for (const s of this.resets) s.reset();
    await this.init();
  }

  /** Wait until an admitting create has been decided and written. */
  private async settled(id: string): Promise<void> {
    await this.store.sync();
    // Not decided yet, even in memory: wait for the decision (released once it is written, or could not be).
    if (this.state.operation(id)?.status === 'admitting') await this.effects.waitForAdmission(id);
    // A decision applied but still being written is waited for here.
    await this.store.sync();
  }
}
