// What the validator remembers across exchanges, per operation, per idempotency key and per key's balances, and the
// rules that compare an exchange with it (spec §2.2, §2.3, §3, §4.7, §4.8, §5). Bounded: the least recently seen
// entries are forgotten past the cap (CheckerOptions.maxOperations).
import { Decimal } from 'decimal.js';
import { canMove } from '../domain/state-table.js';
import type { Status } from '../domain/operation.js';
import { BoundedMap } from './bounded.js';
import { isObject, shown, type CheckContext } from './context.js';
import { dec } from './operation-check.js';

interface Seen {
  type: string;
  status: string;
  /** The exchange that showed `status`, and when it ended (ms). */
  statusSeq: number;
  statusEnd: number;
  method: unknown;
  currency: unknown;
  expected: unknown;
  credential: string | undefined;
  firstSeq: number;
  cancel?: { outcome: string; seq: number };
}

interface Keyed {
  fingerprint: string;
  operationId: string;
  seq: number;
}

const STATUSES: readonly Status[] = [
  'pending',
  'awaiting_confirmation',
  'manual_check',
  'completed',
  'cancelled',
  'rejected',
];

/** from → every status reachable by one or more moves of the state table, per type. */
const REACH = new Map<string, Set<string>>();
for (const kind of ['payment', 'payout'] as const) {
  for (const from of STATUSES) {
    const seen = new Set<string>();
    const todo: Status[] = [from];
    while (todo.length) {
      const s = todo.pop()!;
      for (const to of STATUSES) if (!seen.has(to) && canMove(kind, s, to)) (seen.add(to), todo.push(to));
    }
    REACH.set(`${kind}:${from}`, seen);
  }
}

const reachable = (type: string, from: string, to: string) =>
  from === to || REACH.get(`${type}:${from}`)?.has(to) === true;

const CREATES = new Set(['payment.create', 'payment.link', 'payout.create', 'payment.flexible_link']);
const IMMUTABLE = ['type', 'method', 'currency', 'expected_amount'] as const;

const scale2 = (v: unknown) =>
  typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? new Decimal(v).toFixed(2) : String(v ?? '');

/** "Same body" as the sandbox decides it: the family, the amounts at scale 2, absent optional = empty (§2.2). */
export function fingerprint(endpoint: string, b: Record<string, unknown>): string {
  const family =
    endpoint === 'payout.create' ? 'payout' : endpoint === 'payment.flexible_link' ? 'flexible' : 'payment';
  const amounts =
    family === 'flexible'
      ? [scale2(b.recommended_amount), scale2(b.min_amount), scale2(b.max_amount)]
      : [scale2(b.amount)];
  const party = [b.currency, b.client_id, b.client_ip, b.number, b.name, b.bankname].map((v) => v ?? '');
  return JSON.stringify([family, b.method, ...amounts, ...party]);
}

export class Tracker {
  private readonly ops: BoundedMap<string, Seen>;
  private readonly keys: BoundedMap<string, Keyed>;
  private readonly currencies: BoundedMap<string, Set<string>>;
  /** Pairs of keys known to be of different shops: one was refused (404) an operation the other created. */
  private readonly otherShops: BoundedMap<string, true>;

  constructor(maxOperations: number) {
    this.ops = new BoundedMap(maxOperations);
    this.keys = new BoundedMap(maxOperations);
    this.currencies = new BoundedMap(Math.max(16, Math.min(maxOperations, 10_000)));
    this.otherShops = new BoundedMap(Math.max(16, Math.min(maxOperations, 10_000)));
  }

  /** A 404 for an operation another key created: the two keys are of different shops (§5). */
  sawNotFound(ctx: CheckContext): void {
    const prev = this.ops.get(this.named(ctx) ?? '');
    const mine = ctx.x.credential;
    if (prev?.credential !== undefined && mine !== undefined && prev.credential !== mine)
      this.otherShops.set(`${prev.credential}\u0000${mine}`, true);
  }

  private keyOf(ctx: CheckContext, moid: string) {
    return `${ctx.x.credential ?? ''}\u0000${moid}`;
  }

  /** The operation an exchange's request names (by operation_id, else by its merchant_operation_id), if known. */
  named(ctx: CheckContext): string | undefined {
    const b = ctx.x.request.body;
    if (isObject(b) && typeof b.operation_id === 'string') return b.operation_id;
    return ctx.moid !== undefined ? this.keys.get(this.keyOf(ctx, ctx.moid))?.operationId : undefined;
  }

  /** An operation object seen in a 2xx answer: its moves, its unchanging fields, whose it is. */
  sawOperation(ctx: CheckContext, op: Record<string, unknown>): void {
    const id = op.operation_id;
    if (typeof id !== 'string' || typeof op.status !== 'string' || typeof op.type !== 'string') return;
    const x = ctx.x;
    const start = Date.parse(x.startedAt);
    const end = start + x.durationMs;
    const prev = this.ops.get(id);
    const found = { operationId: id };
    if (!prev) {
      this.ops.set(id, {
        type: op.type,
        status: op.status,
        statusSeq: x.seq,
        statusEnd: end,
        method: op.method,
        currency: op.currency,
        expected: op.expected_amount,
        credential: x.credential,
        firstSeq: x.seq,
      });
      if (ctx.endpoint && CREATES.has(ctx.endpoint.id)) this.actualAtCreate(ctx, op);
      return;
    }
    if (
      prev.credential !== undefined &&
      x.credential !== undefined &&
      prev.credential !== x.credential &&
      this.otherShops.get(`${prev.credential}\u0000${x.credential}`)
    )
      ctx.report(
        'isolation.foreign_operation',
        `404 for an operation of another shop's key`,
        `${x.response.status} with operation ${id}`,
        { ...found, related: [prev.firstSeq] },
      );
    for (const f of IMMUTABLE) {
      const was = f === 'type' ? prev.type : f === 'expected_amount' ? prev.expected : prev[f];
      if (was !== undefined && op[f] !== undefined && !sameValue(was, op[f]))
        ctx.report('state.immutable_field', `${f} ${shown(was)} as before`, `${f} ${shown(op[f])}`, {
          ...found,
          related: [prev.firstSeq],
        });
    }
    if (prev.expected === undefined) prev.expected = op.expected_amount;
    if (prev.status === op.status) return;
    // An exchange that began before the one that showed the last status ended may have read an older state.
    const concurrent = start < prev.statusEnd;
    if (!reachable(prev.type, prev.status, op.status)) {
      if (!concurrent)
        ctx.report('state.illegal_move', `a status reachable from ${prev.status} (state table, §3)`, `${op.status}`, {
          ...found,
          related: [prev.statusSeq],
        });
      return;
    }
    prev.status = op.status;
    prev.statusSeq = x.seq;
    prev.statusEnd = end;
  }

  /** money.actual_amount: a new operation has processed no money yet (a pool payout may show payers' part). */
  private actualAtCreate(ctx: CheckContext, op: Record<string, unknown>): void {
    const actual = dec(op.actual_amount);
    if (!actual || actual.isZero() || op.status === 'completed') return;
    if (op.type === 'payout' && op.status === 'pending') return;
    ctx.report(
      'money.actual_amount',
      `actual_amount 0.00 on a new ${shown(op.status)} operation`,
      `actual_amount ${shown(op.actual_amount)}`,
      { operationId: op.operation_id as string },
    );
  }

  /** A create's answer against what its key answered before (§2.2). */
  sawCreate(ctx: CheckContext, operationId: string | undefined): void {
    const body = ctx.x.request.body;
    if (ctx.moid === undefined || !isObject(body) || ctx.requestRefused) return;
    const key = this.keyOf(ctx, ctx.moid);
    const fp = fingerprint(ctx.endpoint!.id, body);
    const before = this.keys.get(key);
    const status = ctx.x.response.status;
    if (!before) {
      if (status === 200 && operationId) this.keys.set(key, { fingerprint: fp, operationId, seq: ctx.x.seq });
      return;
    }
    const related = [before.seq];
    if (before.fingerprint === fp) {
      if (status === 412 || (status === 200 && operationId !== before.operationId))
        ctx.report(
          'idempotency.replay',
          `200 with operation ${before.operationId} again`,
          `${status}${operationId ? ` with operation ${operationId}` : ''}`,
          { operationId: before.operationId, related },
        );
    } else if (status >= 200 && status < 300) {
      ctx.report(
        'idempotency.conflict',
        '412: the key was used with a different body',
        `${status}${operationId ? ` with operation ${operationId}` : ''}`,
        { operationId: before.operationId, related },
      );
    }
  }

  /** A cancel's decision against the operation's history (§3, §4.7). */
  sawCancel(ctx: CheckContext, outcome: unknown, op: Record<string, unknown>): void {
    const id = typeof op.operation_id === 'string' ? op.operation_id : undefined;
    const prev = id ? this.ops.get(id) : undefined;
    if (!id || !prev || typeof outcome !== 'string') return;
    const found = { operationId: id };
    if (prev.cancel && prev.cancel.outcome !== outcome)
      ctx.report('cancel.same_decision', `outcome ${prev.cancel.outcome}, as before`, `outcome ${outcome}`, {
        ...found,
        related: [prev.cancel.seq],
      });
    else if (!prev.cancel && outcome === 'cancelled' && (prev.status === 'completed' || prev.status === 'rejected'))
      ctx.report(
        'cancel.already_terminal',
        `outcome already_terminal for a payment seen ${prev.status}`,
        `outcome cancelled`,
        { ...found, related: [prev.statusSeq] },
      );
    if (!prev.cancel) prev.cancel = { outcome, seq: ctx.x.seq };
  }

  /** The type of a known operation (a cancel of a payout is refused). */
  typeOf(id: string | undefined): string | undefined {
    return id ? this.ops.get(id)?.type : undefined;
  }

  /** A balances answer's currencies against those the key saw before (§4.8). */
  sawCurrencies(ctx: CheckContext, currencies: string[]): void {
    const key = ctx.x.credential ?? '';
    const before = this.currencies.get(key);
    const now = new Set(currencies);
    if (before) {
      const gone = [...before].filter((c) => !now.has(c));
      if (gone.length)
        ctx.report(
          'balance.currencies',
          `a row for every currency seen before (${[...before].join(', ')})`,
          `no row for ${gone.join(', ')}`,
        );
      for (const c of now) before.add(c);
    } else this.currencies.set(key, now);
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const da = dec(a);
  const db = dec(b);
  return da !== undefined && db !== undefined && da.equals(db);
}
