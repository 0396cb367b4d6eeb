// What the domain may read of the stored state, and the changes it asks the store to write.
import type { Decimal } from 'decimal.js';
import type { OperationRecord } from './operation.js';
import type { Posting } from './ledger.js';
import type { OperationEvent } from './transitions.js';
import type { WorldIndex } from './world.js';
import type { PoolWindow } from './pool.js';
import type { LinkRecord } from './links.js';

export interface StateView {
  operation(id: string): OperationRecord | undefined;
  operationByMoid(shopId: string, merchantOperationId: string): OperationRecord | undefined;
  /** Running total of an account in a currency (credit-natural: credits positive). */
  accountTotal(account: string, currency: string): Decimal;
  /** The open payout slots of one pool and method. */
  poolWindow(poolId: string, method: string): PoolWindow | undefined;
  /** What a pool payout's matched payments claim and have paid. */
  poolUsage(payoutId: string): { claimed: Decimal; paid: Decimal };
  /** A flexible link by its operation_id. */
  link(id: string): LinkRecord | undefined;
}

export type StateChange =
  | { kind: 'operation'; op: OperationRecord }
  | { kind: 'posting'; posting: Posting }
  | { kind: 'event'; event: OperationEvent }
  | { kind: 'link'; link: LinkRecord };

export interface DomainContext {
  world: WorldIndex;
  state: StateView;
  /** Sandbox time, epoch milliseconds. */
  now: number;
}

let lastMs = NaN;
let lastIso = '';
let prevMs = NaN;
let prevIso = '';
/**
 * RFC 3339 of an epoch-ms time. The last two are remembered: one command stamps the same time several times, and a
 * create alternates between now and its expiry (one slot would miss on every call).
 */
export function iso(ms: number): string {
  if (ms === lastMs) return lastIso;
  if (ms === prevMs) return prevIso;
  prevMs = lastMs;
  prevIso = lastIso;
  lastMs = ms;
  lastIso = new Date(ms).toISOString();
  return lastIso;
}
