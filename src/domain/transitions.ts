// Applying a move to an operation: checks the transition table, stamps history, and emits the event
// that is written in the same store commit as the move.
import type { HistoryEntry, OperationRecord, Status } from './operation.js';
import { canMove } from './state-table.js';
import { DomainError } from './errors.js';

/** A webhook event: written in the same commit as the transition that caused it. */
export type OperationEvent = {
  /** Deterministic: `evt_<operation_id>_<history index>`. */
  id: string;
  shop_id: string;
  operation_id: string;
  type: `operation.${Exclude<Status, 'admitting'>}`;
  created_at: string;
  /** Snapshot of the operation at this moment (history omitted): what the webhook body is rendered from, in the
   * commit that makes the event. It is not stored (see StoredEvent). */
  operation: Omit<OperationRecord, 'history'>;
};

/**
 * An event as the store keeps it: without the operation's snapshot. Nothing reads the snapshot after the commit that
 * renders it into the webhook body (stored with each delivery), and it was most of the store: about 760 of an
 * event's 980 bytes, a copy of the operation per status it passes through.
 */
export type StoredEvent = Omit<OperationEvent, 'operation'>;

export function storedEvent(e: OperationEvent): StoredEvent {
  return { id: e.id, shop_id: e.shop_id, operation_id: e.operation_id, type: e.type, created_at: e.created_at };
}

type StatusFields<S extends Status> = Omit<Extract<OperationRecord, { status: S }>, keyof OperationRecord | 'status'> &
  Partial<
    Pick<OperationRecord, 'actual_amount' | 'settlement_amount' | 'commission_amount' | 'destination' | 'expires_at'>
  >;

export function eventFor(op: OperationRecord): OperationEvent | undefined {
  if (op.status === 'admitting') return undefined;
  const { history, ...snapshot } = op;
  return {
    id: `evt_${op.id}_${history.length - 1}`,
    shop_id: op.shop_id,
    operation_id: op.id,
    type: `operation.${op.status}`,
    created_at: op.updated_at,
    operation: snapshot,
  };
}

/**
 * What a terminal status that captured nothing (cancelled, rejected — a failed payout's reserve has gone back) shows:
 * settlement_amount "settles to the captured amount at terminal" (spec §2.3), so it and the commission are zero.
 */
export const SETTLED_TO_NOTHING = { settlement_amount: '0.00', commission_amount: '0.00' } as const;

/**
 * Move `op` to `to`. Throws `invalid_state` if the table has no such move. A move to cancelled or rejected settles
 * the settlement and commission to zero (`SETTLED_TO_NOTHING`).
 */
export function move<S extends Status>(
  op: OperationRecord,
  to: S,
  at: string,
  cause: string,
  fields: StatusFields<S>,
): { op: OperationRecord; event: OperationEvent | undefined } {
  if (!canMove(op.type, op.status, to)) {
    throw new DomainError('invalid_state', `a ${op.type} in status ${op.status} cannot move to ${to}`);
  }
  const entry: HistoryEntry = { at, from: op.status, to, cause };
  const base = stripStatusFields(op);
  const settled = to === 'cancelled' || to === 'rejected' ? SETTLED_TO_NOTHING : undefined;
  const next = {
    ...base,
    ...settled,
    ...fields,
    status: to,
    updated_at: at,
    history: [...op.history, entry],
  } as unknown as OperationRecord;
  return { op: next, event: eventFor(next) };
}

function stripStatusFields(op: OperationRecord): Record<string, unknown> {
  const {
    accept_at: _a,
    manual_check_reason: _m,
    completed_at: _c,
    cancelled_at: _x,
    cancel_reason: _r,
    rejected_at: _j,
    reject_reason: _jr,
    ...rest
  } = op as OperationRecord & Record<string, unknown>;
  return rest;
}
