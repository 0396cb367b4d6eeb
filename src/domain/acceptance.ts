// A provider's acceptance of a create (spec §4.1): what acceptance adds to an operation (the receipt requirement,
// inbound requisites, the provider's expiry, a payout's reserve), and the end of an admitting create's acceptance
// wait — accepted, or rejected (too slow, its pool slot closed, or no longer enough funds). Pure, like create.ts.
import { claimOf } from './operation.js';
import type { Destination, OperationKind, OperationRecord } from './operation.js';
import type { DomainContext, StateChange } from './state.js';
import type { ProviderDef, ShopDef } from './world.js';
import { accounts, posting } from './ledger.js';
import { MAGIC_EXPIRY_MS, SLOW_ACCEPTANCE_MS, TIMEOUT_ACCEPTANCE_MS, type MagicTag } from './magic.js';
import { money, ZERO } from './money.js';
import { claimEnded, movedTo, type Moved } from './lifecycle.js';
import { allocateRequisites } from './requisites.js';
import { eventFor, move, type OperationEvent } from './transitions.js';
import { iso } from './state.js';

/** The gateway waits this long for a provider to accept a create (spec §4.1). */
export const ACCEPTANCE_WAIT_MS = 15_000;

/** Whether the shop's balance, less `q.settlement`, stays within its overdraft limit. */
export function fundsSuffice(
  ctx: DomainContext,
  shop: ShopDef,
  q: { settlement: string; settlement_currency: string },
): boolean {
  const balance = ctx.state.accountTotal(accounts.balance(shop.id), q.settlement_currency);
  const limit = money(shop.overdraft_limits[q.settlement_currency] ?? '0');
  return balance.minus(money(q.settlement)).greaterThanOrEqualTo(limit.negated());
}

/** The operation's change, with its event when it has one. */
export function withEvent(op: OperationRecord): StateChange[] {
  const event = eventFor(op);
  return event
    ? [
        { kind: 'operation', op },
        { kind: 'event', event },
      ]
    : [{ kind: 'operation', op }];
}

/** What acceptance adds: the receipt requirement, inbound requisites for a payment, the provider's expiry. */
export function acceptedFields(
  ctx: DomainContext,
  op: { id: string; type: OperationKind; method: string; magic: readonly MagicTag[]; claim?: { payout_id: string } },
  provider: ProviderDef,
): { requires_receipt: boolean; destination?: Destination; expires_at?: string } {
  if (op.type !== 'payment') return { requires_receipt: false };
  // A pool payment's requisites are the destination of the payout it pays into.
  const destination = op.claim
    ? { ...(ctx.state.operation(op.claim.payout_id)?.destination ?? {}) }
    : allocateRequisites(op.id, ctx.world.methods.get(op.method)!, provider, ctx.world.banks);
  const out: { requires_receipt: boolean; destination?: Destination; expires_at?: string } = {
    requires_receipt: provider.requires_receipt || op.magic.includes('receipt'),
    destination,
  };
  const expiryMs = op.magic.includes('expire') ? MAGIC_EXPIRY_MS : provider.expiry_ms;
  if (expiryMs) out.expires_at = iso(ctx.now + expiryMs);
  return out;
}

/** The operation, its event, and for a payout the reserve that moves its settlement amount to `reserved`. */
export function acceptedChanges(op: OperationRecord, event: OperationEvent | undefined, at: string): StateChange[] {
  const changes: StateChange[] = [{ kind: 'operation', op }];
  if (event) changes.push({ kind: 'event', event });
  if (op.type === 'payout') {
    changes.push({
      kind: 'posting',
      posting: posting({
        id: `${op.id}:reserve`,
        shopId: op.shop_id,
        operationId: op.id,
        kind: 'payout_reserved',
        source: accounts.balance(op.shop_id),
        destination: accounts.reserved(op.shop_id),
        currency: op.settlement_currency,
        amount: money(op.settlement_amount),
        at,
      }),
    });
  }
  return changes;
}

/** An admitting create's provider accepted: move to pending / awaiting_confirmation. */
function accept(ctx: DomainContext, op: OperationRecord, provider: ProviderDef, cause: string): Moved {
  const now = iso(ctx.now);
  const fields = acceptedFields(ctx, op, provider);
  const moved = move(op, fields.requires_receipt ? 'awaiting_confirmation' : 'pending', now, cause, fields);
  return movedTo(ctx, moved.op, acceptedChanges(moved.op, moved.event, now));
}

/**
 * The acceptance wait of an admitting create is over (sandbox clock reached accept_at): the provider
 * accepted, or it was slower than the 15 s wait and the create is rejected. No-op when the admission
 * was already decided (for example cancelled first).
 */
export function finishAdmission(ctx: DomainContext, opId: string): Moved | undefined {
  const op = ctx.state.operation(opId);
  if (!op || op.status !== 'admitting') return undefined;
  const provider = op.provider_id ? ctx.world.providers.get(op.provider_id) : undefined;
  const latency = provider ? effectiveLatency(provider, op.magic) : Infinity;
  const now = iso(ctx.now);
  if (!provider || latency > ACCEPTANCE_WAIT_MS) {
    const moved = move(op, 'rejected', now, 'provider did not accept within 15 s', {
      rejected_at: now,
      reject_reason: 'provider_timeout',
    });
    return movedTo(ctx, moved.op, [...withEvent(moved.op), ...claimEnded(ctx, moved.op, ZERO)]);
  }
  const claim = claimOf(op);
  if (claim && ctx.state.operation(claim.payout_id)?.status !== 'pending') {
    // The payout slot closed while the payment waited: the pool has nothing to pay into.
    const moved = move(op, 'rejected', now, 'the matched payout closed before acceptance', {
      rejected_at: now,
      reject_reason: 'no_provider_accepted',
    });
    return movedTo(ctx, moved.op, withEvent(moved.op));
  }
  const shop = ctx.world.shops.get(op.shop_id)!;
  if (op.type === 'payout') {
    const q = { settlement: op.settlement_amount, settlement_currency: op.settlement_currency };
    if (!fundsSuffice(ctx, shop, q)) {
      const moved = move(op, 'rejected', now, 'insufficient funds at acceptance', {
        rejected_at: now,
        reject_reason: 'insufficient_funds',
      });
      return movedTo(ctx, moved.op, withEvent(moved.op));
    }
  }
  return accept(ctx, op, provider, 'provider accepted');
}

function effectiveLatency(provider: ProviderDef, magic: readonly MagicTag[]): number {
  if (magic.includes('timeout')) return TIMEOUT_ACCEPTANCE_MS;
  if (magic.includes('slow')) return SLOW_ACCEPTANCE_MS;
  return provider.acceptance_latency_ms;
}
