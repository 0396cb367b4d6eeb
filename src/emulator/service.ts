// The gateway service: runs domain commands against the store and the sandbox clock. It owns the timers of
// in-flight work (provider acceptance, payout settlement) and recovers them after a restart.
import { createHash } from 'node:crypto';
import type { CreateParams } from '../domain/create.js';
import type { BalanceFigures } from '../domain/ledger.js';
import type { OperationKind, OperationRecord } from '../domain/operation.js';
import type { DomainContext } from '../domain/state.js';
import type { WorldIndex } from '../domain/world.js';
import type { Store } from '../store/store.js';
import type { ApiKeyRecord, StoreChange } from '../store/state.js';
import type { SandboxClock } from './clock.js';
import type { PublicOperation } from './wire.js';
import { finishAdmission, planCreate } from '../domain/create.js';
import { DomainError } from '../domain/errors.js';
import { accounts, balanceRow } from '../domain/ledger.js';
import { openingPostings, settlePayout } from '../domain/lifecycle.js';
import { iso } from '../domain/state.js';

export function hashApiKey(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export type OperationRef = { operation_id: string } | { merchant_operation_id: string };

export type AuthResult = { ok: true; shopId: string; keyId: string } | { ok: false; reason: 'missing' | 'invalid' };

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export class GatewayService {
  private readonly admissions = new Map<string, Deferred>();

  constructor(
    readonly world: WorldIndex,
    readonly store: Store,
    readonly clock: SandboxClock,
  ) {}

  get state() {
    return this.store.state;
  }

  ctx(): DomainContext {
    return { world: this.world, state: this.store.state, now: this.clock.now() };
  }

  /** Seed what the fixtures add (keys, opening balances) and re-arm the timers of in-flight operations. */
  async init(): Promise<void> {
    const at = iso(this.clock.now());
    const changes: StoreChange[] = [];
    for (const k of this.world.world.api_keys) {
      if (this.state.keys.has(k.id)) continue;
      const key: ApiKeyRecord = {
        id: k.id,
        shop_id: k.shop_id,
        hash: hashApiKey(k.key),
        last4: k.key.slice(-4),
        revoked: k.revoked,
        created_at: at,
        ...(k.label ? { label: k.label } : {}),
        ...(k.revoked ? { revoked_at: at } : {}),
      };
      changes.push({ kind: 'key', key });
    }
    for (const shop of this.world.world.shops) {
      for (const ch of openingPostings(shop.id, shop.opening_balances, at)) {
        if (ch.kind === 'posting' && !this.state.postings.has(ch.posting.id)) changes.push(ch);
      }
    }
    if (changes.length > 0) await this.store.commit(changes);
    for (const op of this.state.operations.values()) this.arm(op);
  }

  authenticate(token: string | null | undefined): AuthResult {
    if (token === null || token === undefined || token === '') return { ok: false, reason: 'missing' };
    const key = this.state.keyByTokenHash(hashApiKey(token));
    if (!key || key.revoked) return { ok: false, reason: 'invalid' };
    return { ok: true, shopId: key.shop_id, keyId: key.id };
  }

  /** Create a payment or payout; resolves once the outcome is durable (after the provider's acceptance wait). */
  async create(shopId: string, kind: OperationKind, params: CreateParams): Promise<PublicOperation> {
    const plan = planCreate(this.ctx(), shopId, kind, params);
    if (plan.kind === 'replay') {
      await this.settled(plan.op.id);
      return this.publicOperation(plan.op.id);
    }
    const durable = this.store.commit(plan.changes);
    this.arm(plan.op);
    await durable;
    await this.settled(plan.op.id);
    return this.publicOperation(plan.op.id);
  }

  /** Read an operation of this shop; 404 for another shop's, an unknown one, or a create still in flight. */
  async get(shopId: string, ref: OperationRef): Promise<PublicOperation> {
    const op = 'operation_id' in ref ? this.state.operation(ref.operation_id.toLowerCase()) : this.state.operationByMoid(shopId, ref.merchant_operation_id);
    if (!op || op.shop_id !== shopId || op.status === 'admitting') {
      throw new DomainError('operation_not_found', 'operation not found');
    }
    await this.store.sync();
    return op;
  }

  balances(shopId: string): BalanceFigures[] {
    return this.world.shopCurrencies(shopId).map((currency) =>
      balanceRow(currency, this.state.accountTotal(accounts.balance(shopId), currency), this.state.accountTotal(accounts.reserved(shopId), currency)),
    );
  }

  private publicOperation(id: string): PublicOperation {
    const op = this.state.operation(id)!;
    if (op.status === 'admitting') throw new Error(`operation ${id} is still admitting`);
    return op;
  }

  /** Wait until an admitting create has been decided and written. */
  private async settled(id: string): Promise<void> {
    const op = this.state.operation(id);
    if (op?.status === 'admitting') await this.admission(id).promise;
    else await this.store.sync();
  }

  private admission(id: string): Deferred {
    let d = this.admissions.get(id);
    if (!d) {
      d = deferred();
      this.admissions.set(id, d);
    }
    return d;
  }

  /** Arm the timers an operation in this status needs. */
  private arm(op: OperationRecord): void {
    if (op.status === 'admitting') {
      const d = this.admission(op.id);
      this.clock.schedule(Date.parse(op.accept_at), async () => {
        try {
          const r = finishAdmission(this.ctx(), op.id);
          if (r) {
            await this.store.commit(r.changes);
            this.arm(r.op);
          }
        } finally {
          this.admissions.delete(op.id);
          d.resolve();
        }
      });
      return;
    }
    if (op.type === 'payout' && op.status === 'pending' && op.provider_id) {
      const provider = this.world.providers.get(op.provider_id);
      if (!provider) return;
      const since = Date.parse(op.history.at(-1)?.at ?? op.updated_at);
      this.clock.schedule(since + provider.payout_settlement_ms, async () => {
        const current = this.state.operation(op.id);
        if (!current || current.status !== 'pending') return;
        const outcome = current.magic.includes('fail') ? 'failed' : 'completed';
        const r = settlePayout(this.ctx(), current, outcome, outcome === 'failed' ? 'provider failed the payout' : 'provider settled the payout');
        await this.store.commit(r.changes);
      });
    }
  }
}
