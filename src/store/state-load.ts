// Loading the state's three large collections (operations, postings, events) one entity at a time, as a store
// reads them: from its snapshot (as text, or as a handle to the text left in the snapshot file) and its journal.
import { claimOf, poolOf, uploadsOf, type OperationRecord } from '../domain/operation.js';
import type { Posting } from '../domain/ledger.js';
import { storedEvent, type OperationEvent } from '../domain/transitions.js';
import { TIMER_STATUSES } from '../domain/effects.js';
import type { Entity } from './persistence.js';
import type { Packed } from './packed-map.js';
import type { SandboxState } from './state.js';
import { upsert, type EntityMaps, type LoadTarget, type SnapshotSource } from './snapshot.js';
import { captureState } from './state-capture.js';

/** The collections kept in PackedMaps, their texts in the snapshot file where it can. */
export const PACKED = ['operations', 'postings', 'events'] as const;
/** A stored event longer than this carries the copy of the operation events had before (theirs are ~220 bytes). */
const OLD_EVENT = 400;

/**
 * One stored operation, posting or event, loaded: `v` is its object, its JSON text or a handle to its text in
 * the snapshot file (`text`, when given, is that text). Operations are indexed from their decoded form.
 */
export function loadPacked(
  state: SandboxState,
  c: (typeof PACKED)[number],
  id: string,
  v: Packed<Entity>,
  text?: string,
  view?: string,
  fresh = false,
): void {
  const decode = <T>(): T =>
    (typeof v === 'object' ? v : JSON.parse(text ?? (typeof v === 'string' ? v : state.cold.text(v)))) as T;
  const stored = typeof v === 'object' ? JSON.stringify(v) : v;
  if (c === 'operations') {
    const seen = view === undefined ? undefined : (JSON.parse(view) as OperationRecord & { full?: 1 });
    const op = seen === undefined || seen.full ? decode<OperationRecord>() : seen;
    op.id = id;
    // What the service's start reads (timers), kept until it has: operationsWithStatus gives these, not decodes.
    if (TIMER_STATUSES.has(op.status)) state.loadViews.set(id, op);
    else state.loadViews.delete(id);
    const prev = fresh ? undefined : state.operations.get(id);
    state.operationIndex.put(op, prev);
    state.operations.setText(id, stored, fresh);
    for (const u of uploadsOf(op)) state.fileOwner.set(u.file_id, id);
    if (poolOf(op) !== undefined || claimOf(op) !== undefined) state.pools.put(op);
  } else if (c === 'postings') {
    if (!fresh && state.postings.has(id)) {
      // Append-only: the one loaded first is the same.
      if (typeof v === 'number') state.cold.free(v);
      return;
    }
    state.totals.apply(decode<Posting>());
    state.postings.setText(id, stored, fresh);
  } else if (typeof stored === 'number' ? state.cold.lengthOf(stored) > OLD_EVENT : stored.includes('"operation":{')) {
    // An event written before events stopped carrying a copy of the operation loses it here (see StoredEvent).
    state.events.setText(id, JSON.stringify(storedEvent(decode<OperationEvent>())));
    if (typeof v === 'number') state.cold.free(v);
  } else {
    state.events.setText(id, stored, fresh);
  }
}

/**
 * Loading a store into the state as it is read: operations, postings and events go straight in (their texts left in
 * the snapshot file), the other collections are gathered and loaded by `finish` (their order matters: endpoints
 * before deliveries). `capture` gives the loaded state as a snapshot source (a compaction on open).
 */
export function stateTarget(state: SandboxState): LoadTarget & { capture(): SnapshotSource; finish(): void } {
  const rest: EntityMaps = new Map();
  const packed: ReadonlySet<string> = new Set(PACKED);
  const finish = () => {
    state.loadMaps(rest);
    rest.clear();
  };
  return {
    cold: { texts: state.cold, collections: packed, read: new Set(['operations', 'postings']) },
    put(c, id, v, text, view, fresh) {
      if (packed.has(c)) loadPacked(state, c as (typeof PACKED)[number], id, v, text, view, fresh);
      else upsert(rest, c, v as Entity | string, id);
    },
    capture() {
      finish();
      return captureState(state, new Map());
    },
    finish,
  };
}

/** What an operation's load view keeps beyond the index fields when it is in a status with a timer (timersOf). */
const TIMER_FIELDS = ['accept_at', 'expires_at', 'provider_id', 'pool_id', 'magic', 'updated_at'] as const;

/**
 * An operation's load view: the fields loading reads (the listing index, idempotency, the timers of TIMER_STATUSES),
 * written beside the operation in the snapshot so that loading decodes this small object instead of the whole
 * operation. `full: 1` when loading needs the whole (uploads, a pool, a claim: other indexes read them).
 */
export function loadView(op: OperationRecord): Record<string, unknown> {
  const v: Record<string, unknown> = {
    shop_id: op.shop_id,
    merchant_operation_id: op.merchant_operation_id,
    created_at: op.created_at,
    expected_amount: op.expected_amount,
    status: op.status,
    type: op.type,
    method: op.method,
    client_id: op.client_id,
  };
  if (uploadsOf(op).length > 0 || poolOf(op) !== undefined || claimOf(op) !== undefined) v.full = 1;
  else if (TIMER_STATUSES.has(op.status)) {
    const fields = op as unknown as Record<string, unknown>;
    for (const k of TIMER_FIELDS) if (fields[k] !== undefined) v[k] = fields[k];
    v.history = op.history.slice(-1);
  }
  return v;
}
