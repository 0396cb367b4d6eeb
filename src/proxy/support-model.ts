// What the proxy keeps of the traffic for the support views (`paygate ops …`, `paygate logs tail` pointed at it):
// a bounded model per operation — its latest fields as the gateway answered them, its shop (the key's fingerprint),
// the statuses seen with when and how (and the violations found on it) — and the request log, built from the
// exchanges (no secret in them). Listeners hear each change and each logged request, for the streams.
import { Operation, OperationState, type Operation as WireOperation } from '../contract/operations.js';
import { OperationRow } from '../contract/sandbox.js';
import type { Exchange, Violation } from '../conformance/types.js';

/** How many operations the model keeps (the least recently seen go first), and requests the log keeps. */
export const OPERATIONS_KEPT = 10_000;
export const REQUESTS_KEPT = 2000;
/** Status moves kept per operation (past it the second-oldest goes: the first sighting stays), and violations. */
const TIMELINE_KEPT = 200;

export interface TimelineEntry {
  at: string;
  from: string | null;
  to: string;
  cause: string;
}

export interface SeenOperation {
  id: string;
  shop: string;
  merchantOperationId: string;
  clientId: string;
  firstSeen: string;
  lastChanged: string;
  /** The fields of the operation object, each the latest value that was valid for it. */
  fields: Partial<WireOperation>;
  /** The status moves seen (violations are not here: the support view merges them in, `timelineOf`). */
  timeline: TimelineEntry[];
  /** The violations seen on it, oldest first (at most TIMELINE_KEPT: the newest). */
  violations: Violation[];
  /** The cause of the last status change. */
  reason: string | null;
  /** receipts and receipt_evidence_status of the last state read, when valid. */
  state?: Pick<OperationState, 'receipts' | 'receipt_evidence_status'>;
}

export interface LogEntry {
  id: string;
  at: string;
  shop_id: string;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  error_code: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What each gateway endpoint's answer tells of an operation. */
const SEEN_ON: Record<string, string> = {
  '/v1/payment': 'create answered',
  '/v1/payment/link': 'create answered',
  '/v1/payment/link/flexible': 'create answered',
  '/v1/payout': 'create answered',
  '/v1/get_operation_state': 'seen on state read',
  '/v1/cancel_operation': 'cancel answered',
  '/v1/confirm_payment': 'receipt upload answered',
  '/proxy/webhooks': 'announced by webhook',
};
const CREATES = new Set(['/v1/payment', '/v1/payment/link', '/v1/payment/link/flexible', '/v1/payout']);

/** The operation an answer carries: the body, or its `operation` (a cancel's answer). */
function operationIn(body: unknown): Record<string, unknown> | undefined {
  const op = isObject(body) && isObject(body.operation) ? body.operation : body;
  return isObject(op) && typeof op.operation_id === 'string' ? op : undefined;
}

const FIELDS = Operation.shape;
type FieldName = keyof typeof FIELDS;

/** The fields of `raw` that are valid for the operation object (an invalid one is left out: its violation says why). */
function validFields(raw: Record<string, unknown>): Partial<WireOperation> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(FIELDS) as FieldName[]) {
    if (raw[name] !== undefined && FIELDS[name].safeParse(raw[name]).success) out[name] = raw[name];
  }
  return out as Partial<WireOperation>;
}

const StateFields = OperationState.pick({ receipts: true, receipt_evidence_status: true });

/** receipts and receipt_evidence_status of a state read's answer, when both are valid. */
function stateFields(raw: Record<string, unknown>): SeenOperation['state'] {
  const r = StateFields.safeParse(raw);
  return r.success ? r.data : undefined;
}

const SECRET_PARAMS = new Set(['k', 'sig', 'signature', 'token']);

/** Path and query as the request log shows them: secret-bearing query values masked. */
function loggedPath(x: Exchange): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(x.request.query)) q.set(k, SECRET_PARAMS.has(k.toLowerCase()) ? '***' : v);
  const search = q.toString();
  return search ? `${x.request.path}?${search}` : x.request.path;
}

/** The request-log entry of an exchange. */
export function logEntryOf(x: Exchange): LogEntry {
  const body = x.response.body;
  const code = x.response.status >= 400 && isObject(body) && typeof body.code === 'string' ? body.code : null;
  return {
    id: x.response.headers['x-request-id'] ?? `proxy_${x.seq}`,
    at: x.startedAt,
    shop_id: x.credential ?? '',
    method: x.request.method,
    path: loggedPath(x),
    status: x.response.status,
    latency_ms: x.durationMs,
    error_code: code,
  };
}

/** A violation as a line: rule, section, endpoint, exchange, expected; got. */
export const violationText = (v: Violation): string =>
  `${v.rule} (${v.section}, ${v.endpoint}, exchange #${v.exchange}): ${v.expected}; ${v.got}`;

/** Where the model put a violation: the operation, its status then, and when (the exchange's start). */
export interface Placed {
  id: string;
  status: string;
  at: string;
}

export class SupportModel {
  /** Each violation's operation, looked up in O(1) (a violation on no operation seen is not here). */
  readonly #placed = new WeakMap<Violation, Placed>();
  /** By operation_id, least recently seen first. */
  readonly operations = new Map<string, SeenOperation>();
  readonly requests: LogEntry[] = [];
  readonly operationListeners = new Set<(op: SeenOperation) => void>();
  readonly requestListeners = new Set<(e: LogEntry) => void>();

  /** Take in one exchange and the violations found on it. */
  observe(x: Exchange, violations: readonly Violation[]): void {
    const entry = logEntryOf(x);
    this.requests.push(entry);
    if (this.requests.length > REQUESTS_KEPT) this.requests.shift();
    for (const l of this.requestListeners) l(entry);
    const changed = new Set<SeenOperation>();
    const seen = this.seeOperation(x);
    if (seen?.changed) changed.add(seen.op);
    for (const v of violations) {
      const op = v.operationId !== undefined ? this.operations.get(v.operationId.toLowerCase()) : seen?.op;
      if (!op) continue;
      this.#placed.set(v, { id: op.id, status: op.fields.status ?? 'pending', at: x.startedAt });
      op.violations.push(v);
      if (op.violations.length > TIMELINE_KEPT) op.violations.shift();
      changed.add(op);
    }
    for (const op of changed) for (const l of this.operationListeners) l(op);
  }

  /** Each operation's listing row as last made, with what it was made from: made again once one of those changed. */
  readonly #rows = new WeakMap<SeenOperation, { from: readonly unknown[]; row: OperationRow | undefined }>();

  /** The listing row of an operation, or undefined when the proxy never saw a valid value of a required field. */
  rowOf(op: SeenOperation): OperationRow | undefined {
    // `fields` is a new object whenever an answer is merged in; the other inputs are compared as values.
    const from = [op.fields, op.shop, op.merchantOperationId, op.clientId, op.firstSeen, op.lastChanged, op.reason];
    const kept = this.#rows.get(op);
    if (kept && kept.from.every((v, i) => v === from[i])) return kept.row;
    const row = parsedRow(op);
    this.#rows.set(op, { from, row });
    return row;
  }

  /** Where the violation was put (undefined: on no operation the model saw). */
  placeOf(v: Violation): Placed | undefined {
    return this.#placed.get(v);
  }

  /**
   * An operation's timeline as the support view shows it: its status moves and, as entries of their own (`from` =
   * `to` = the status then, cause `violation <rule> (…)`), the violations seen on it, in the order they were seen.
   */
  timelineOf(op: SeenOperation): TimelineEntry[] {
    const moves = op.timeline;
    const seen = op.violations.map((v) => {
      const at = this.#placed.get(v);
      const status = at?.status ?? 'pending';
      return { at: at?.at ?? v.at ?? '', from: status, to: status, cause: `violation ${violationText(v)}` };
    });
    const out: TimelineEntry[] = [];
    let i = 0;
    let j = 0;
    while (i < moves.length || j < seen.length)
      out.push(j >= seen.length || (i < moves.length && moves[i]!.at <= seen[j]!.at) ? moves[i++]! : seen[j++]!);
    return out;
  }

  /** The operation of a 2xx answer: its fields merged in, a status it moved to on its timeline. */
  private seeOperation(x: Exchange): { op: SeenOperation; changed: boolean } | undefined {
    if (x.response.status < 200 || x.response.status >= 300) return undefined;
    const raw = operationIn(x.response.body);
    if (!raw) return undefined;
    const id = (raw.operation_id as string).toLowerCase();
    const req = isObject(x.request.body) ? x.request.body : {};
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    let op = this.operations.get(id);
    if (op) this.operations.delete(id);
    else {
      op = {
        id,
        shop: x.credential ?? '',
        merchantOperationId: CREATES.has(x.request.path) ? str(req.merchant_operation_id) : '',
        clientId: CREATES.has(x.request.path) ? str(req.client_id) : '',
        firstSeen: x.startedAt,
        lastChanged: x.startedAt,
        fields: {},
        timeline: [],
        violations: [],
        reason: null,
      };
    }
    this.operations.set(id, op);
    if (this.operations.size > OPERATIONS_KEPT) this.operations.delete(this.operations.keys().next().value!);
    if (!op.merchantOperationId && typeof req.merchant_operation_id === 'string')
      op.merchantOperationId = req.merchant_operation_id;
    const fields = validFields(raw);
    const before = op.fields.status ?? null;
    const changed = JSON.stringify({ ...op.fields, ...fields }) !== JSON.stringify(op.fields);
    op.fields = { ...op.fields, ...fields };
    if (changed) op.lastChanged = x.startedAt;
    const after = op.fields.status;
    if (after !== undefined && after !== before) {
      const cause = `${SEEN_ON[x.request.path] ?? `${x.request.method} ${x.request.path} answered`} (exchange #${x.seq})`;
      this.push(op, { at: x.startedAt, from: before, to: after, cause });
      op.reason = cause;
    }
    const state = stateFields(raw);
    if (state) op.state = state;
    return { op, changed: changed || after !== before };
  }

  private push(op: SeenOperation, e: TimelineEntry): void {
    op.timeline.push(e);
    if (op.timeline.length > TIMELINE_KEPT) op.timeline.splice(1, 1);
  }
}

function parsedRow(op: SeenOperation): OperationRow | undefined {
  const r = OperationRow.safeParse({
    ...op.fields,
    shop_id: op.shop,
    merchant_operation_id: op.merchantOperationId,
    client_id: op.clientId,
    created_at: op.firstSeen,
    updated_at: op.lastChanged,
    reason: op.reason,
  });
  return r.success ? r.data : undefined;
}
