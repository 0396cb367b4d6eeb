// Human views of the gateway's resources: an operation (with receipts), an amount selection, balances,
// availability and recommendations; and of the sandbox's controls: clock, operation list and history, evidence,
// keys, reset. Labels are the wire field names, so they map one to one onto --json.
import type {
  AmountSelection,
  AvailabilityResponse,
  BalanceRow,
  CancelOperationResponse,
  Operation,
  RecommendationsResponse,
} from '../contract/index.js';
import type { ClockState, IssuedKey, KeyInfo, ListOperationsResponse, OperationDetails } from '../contract/sandbox.js';
import { out, status as colourStatus } from './colors.js';
import { amount, dim, keyValue, statusCell, table, type Cell } from './render.js';

type Row = readonly [string, Cell | undefined] | undefined;

/** The rows every operation view starts with: identity, status and the two amounts. */
function headRows(op: Operation, merchantOperationId: Cell | undefined): Row[] {
  return [
    ['operation_id', op.operation_id],
    merchantOperationId !== undefined ? ['merchant_operation_id', merchantOperationId] : undefined,
    ['type', op.type],
    ['status', statusCell(op.status)],
    op.manual_check_reason ? ['manual_check_reason', statusCell(op.manual_check_reason)] : undefined,
    ['method', op.method],
    ['expected_amount', amount(op.expected_amount, op.currency)],
    ['actual_amount', amount(op.actual_amount, op.currency)],
  ];
}

/** An operation as aligned key/value rows; `merchantOperationId` is shown when the CLI knows it. */
export function operationView(op: Operation, merchantOperationId?: { id: string; generated: boolean }): string {
  const rows: Row[] = [
    ...headRows(
      op,
      merchantOperationId &&
        (merchantOperationId.generated ? { text: `${merchantOperationId.id} (generated)`, style: (s) => s.replace('(generated)', out.dim('(generated)')) } : merchantOperationId.id),
    ),
    ['commission_amount', amount(op.commission_amount, op.settlement_currency)],
    ['settlement_amount', amount(op.settlement_amount, op.settlement_currency)],
    op.recorded_amount !== undefined ? ['recorded_amount', amount(op.recorded_amount, op.recorded_currency ?? '')] : undefined,
    op.fx_rate !== undefined ? ['fx_rate', `${op.fx_rate}${op.fx_source ? ` (${op.fx_source})` : ''}`] : undefined,
    op.number !== undefined ? ['number', op.number] : undefined,
    op.name !== undefined ? ['name', op.name] : undefined,
    op.bankname !== undefined ? ['bankname', op.bankname_details ? `${op.bankname} (${op.bankname_details})` : op.bankname] : undefined,
    op.external_confirmation
      ? [
          'external_confirmation',
          op.external_confirmation.required ? `required: ${op.external_confirmation.methods.join(', ') || '—'}` : 'not required',
        ]
      : undefined,
    op.expires_at !== undefined ? ['expires_at', op.expires_at] : undefined,
    op.payment_url !== undefined ? ['payment_url', op.payment_url === null ? dim('null (no hosted page for this shop)') : op.payment_url] : undefined,
    op.receipt_evidence_status !== undefined ? ['receipt_evidence_status', statusCell(op.receipt_evidence_status)] : undefined,
  ];
  const blocks = [keyValue(rows)];
  const receipts = receiptsBlock(op);
  if (receipts) blocks.push(receipts);
  return blocks.join('\n\n');
}

/** Why a state read carries no receipts, by its receipt_evidence_status. */
const NO_RECEIPTS: Record<string, string> = {
  not_ready: 'none yet: receipts appear once the operation is completed',
  unavailable: 'none: receipt evidence is unavailable (read by operation_id answers 503 evidence_unavailable)',
  complete: 'none: the operation ended without a completed contribution',
};

/**
 * The receipts of a get_operation_state answer (id, amount, completed_at, receipt_url or —). Only a state read
 * carries `receipts`; an operation returned by a create or a control has none, and shows no block.
 */
function receiptsBlock(op: Operation): string | undefined {
  if (!op.receipts) return undefined;
  if (op.receipts.length === 0) {
    const why = NO_RECEIPTS[op.receipt_evidence_status ?? ''] ?? 'none';
    return `${out.bold('receipts')}\n${out.dim(why)}`;
  }
  const rows = op.receipts.map((r): Cell[] => [r.id, amount(r.amount.toFixed(2), op.currency), r.completed_at, r.receipt_url ?? dim('—')]);
  return `${out.bold('receipts')}\n${table(['id', 'amount', 'completed_at', 'receipt_url'], rows)}`;
}

/** The amount_selection / rejected answer of a flexible link. */
export function amountSelectionView(sel: AmountSelection, merchantOperationId?: { id: string; generated: boolean }): string {
  return keyValue([
    ['operation_id', sel.operation_id],
    merchantOperationId ? ['merchant_operation_id', `${merchantOperationId.id}${merchantOperationId.generated ? ' (generated)' : ''}`] : undefined,
    ['status', statusCell(sel.status)],
    ['method', sel.method],
    ['recommended_amount', amount(sel.recommended_amount, sel.currency)],
    ['payment_url', sel.payment_url === null ? dim('null') : sel.payment_url],
    sel.expires_at !== undefined ? ['expires_at', sel.expires_at] : undefined,
  ]);
}

export function cancelView(res: CancelOperationResponse): string {
  return `${keyValue([['outcome', statusCell(res.outcome)]])}\n\n${operationView(res.operation)}`;
}

export function balancesView(rows: readonly BalanceRow[]): string {
  if (rows.length === 0) return out.dim('no balances');
  return table(
    ['currency', 'balance', 'reserved', 'current_minus'],
    rows.map((r) => [r.currency, amount(r.balance, r.currency), amount(r.reserved, r.currency), amount(r.current_minus, r.currency)]),
  );
}

function intervalsTable(res: AvailabilityResponse): string {
  if (res.intervals.length === 0) return out.dim('no available intervals');
  return table(
    ['min_amount', 'max_amount'],
    res.intervals.map((i) => [amount(i.min_amount, res.currency), amount(i.max_amount, res.currency)]),
  );
}

function availabilityHeader(res: AvailabilityResponse): string {
  return keyValue([
    ['method', res.method],
    ['currency', res.currency],
    ['coverage', { text: res.coverage, style: (s) => (res.coverage === 'full' ? out.green(s) : res.coverage === 'partial' ? out.yellow(s) : out.red(s)) }],
    ['truncated', String(res.truncated)],
    ['evaluated_at', res.evaluated_at],
  ]);
}

export function availabilityView(res: AvailabilityResponse): string {
  return `${availabilityHeader(res)}\n\n${out.bold('intervals')}\n${intervalsTable(res)}`;
}

export function recommendationsView(res: RecommendationsResponse): string {
  const recs =
    res.recommendations.length === 0
      ? out.dim('no recommendations')
      : table(
          ['amount', 'delta'],
          res.recommendations.map((r) => [amount(r.amount, res.currency), amount(r.delta.startsWith('-') ? r.delta : `+${r.delta}`, res.currency)]),
        );
  return `${availabilityHeader(res)}\n\n${out.bold('recommendations')}\n${recs}\n\n${out.bold('intervals')}\n${intervalsTable(res)}`;
}

// ---- sandbox controls ----

/** `GET /sandbox/clock` and the answer of `POST /sandbox/clock/advance`. */
export function clockView(clock: ClockState): string {
  return keyValue([
    ['now', clock.now],
    ['frozen', clock.frozen ? `true ${out.dim('(stands still until `paygate sandbox time advance`)')}` : `false ${out.dim('(follows real time)')}`],
    ['pending_timers', String(clock.pending_timers)],
  ]);
}

/** A status change, `pending → completed`, each status coloured by meaning (`—` when there was none before). */
function transitionCell(from: string | null, to: string): Cell {
  return { text: `${from ?? '—'} → ${to}`, style: (t) => t.replace(/[a-z_]+/g, (w) => colourStatus(w)) };
}

/** The shop's operations, newest first, and how many of the matching total are shown. */
export function operationListView(res: ListOperationsResponse, offset = 0): string {
  const shown = res.operations.length;
  const count =
    shown === 0
      ? out.dim(`0 of ${res.total}${offset > 0 ? ` (offset ${offset})` : ''}`)
      : `${shown} of ${res.total}${offset > 0 ? ` (from #${offset + 1})` : ''}`;
  if (shown === 0) return `${out.dim('no operations')}\n${count}`;
  const rows = res.operations.map((op): Cell[] => [
    op.operation_id,
    op.type,
    statusCell(op.status),
    op.method,
    amount(op.expected_amount, op.currency),
    amount(op.actual_amount, op.currency),
  ]);
  return `${table(['operation_id', 'type', 'status', 'method', 'expected_amount', 'actual_amount'], rows)}\n\n${count}`;
}

/** `paygate operation history`: a summary of the operation, its status transitions in order, and its receipt uploads. */
export function historyView(d: OperationDetails): string {
  const op = d.operation;
  const summary = keyValue([
    ...headRows(op, d.merchant_operation_id),
    ['receipt_evidence_status', statusCell(op.receipt_evidence_status)],
    ['created_at', d.created_at],
  ]);
  const history =
    d.history.length === 0
      ? out.dim('no transitions')
      : table(
          ['at', 'from → to', 'cause'],
          d.history.map((h): Cell[] => [h.at, transitionCell(h.from, h.to), h.cause]),
        );
  const uploads =
    d.uploads.length === 0
      ? out.dim('no receipt uploads')
      : table(
          ['uploaded_at', 'filename', 'size', 'amount', 'review.rule', 'review.to', 'review.reason'],
          d.uploads.map((u): Cell[] => [
            u.uploaded_at,
            u.filename,
            { text: `${u.size} B`, align: 'right' },
            u.amount !== undefined ? amount(u.amount, op.currency) : dim('—'),
            u.review.rule,
            statusCell(u.review.to),
            u.review.reason ?? dim('—'),
          ]),
        );
  return [summary, `${out.bold('history')}\n${history}`, `${out.bold('uploads')}\n${uploads}`].join('\n\n');
}

/** `GET|PUT /sandbox/evidence`. */
export function evidenceView(state: { available: boolean }): string {
  return keyValue([
    [
      'available',
      state.available
        ? { text: `true ${out.dim('(receipts and signed receipt links are served)')}`, style: (t) => t.replace('true', out.green('true')) }
        : {
            text: `false ${out.dim('(a state read by operation_id answers 503 evidence_unavailable; by merchant_operation_id, receipt_evidence_status unavailable)')}`,
            style: (t) => t.replace('false', out.red('false')),
          },
    ],
  ]);
}

const maskedKey = (k: KeyInfo): string => `****${k.last4}`;

/** `GET /sandbox/keys`: every key, masked to its last 4 characters. */
export function keysView(keys: readonly KeyInfo[]): string {
  if (keys.length === 0) return out.dim('no keys');
  return table(
    ['id', 'shop_id', 'key', 'status', 'label', 'created_at', 'revoked_at'],
    keys.map((k): Cell[] => [
      k.id,
      k.shop_id,
      maskedKey(k),
      statusCell(k.revoked ? 'revoked' : 'active'),
      k.label ?? dim('—'),
      k.created_at,
      k.revoked_at ?? dim('—'),
    ]),
  );
}

/** One key (revoke's answer). */
export function keyView(k: KeyInfo): string {
  return keyValue([
    ['id', k.id],
    ['shop_id', k.shop_id],
    ['key', maskedKey(k)],
    ['status', statusCell(k.revoked ? 'revoked' : 'active')],
    k.label !== undefined ? ['label', k.label] : undefined,
    ['created_at', k.created_at],
    k.revoked_at !== undefined ? ['revoked_at', k.revoked_at] : undefined,
  ]);
}

/** A freshly issued key: the plaintext, labelled as shown once (only its hash is kept). */
export function issuedKeyView(k: IssuedKey): string {
  const kv = keyValue([
    ['id', k.id],
    ['shop_id', k.shop_id],
    k.label !== undefined ? ['label', k.label] : undefined,
    ['created_at', k.created_at],
    ['api_key', { text: `${k.api_key}  (shown once)`, style: (t) => t.replace(k.api_key, out.yellow.bold(k.api_key)).replace('(shown once)', out.bold('(shown once)')) }],
  ]);
  return `${kv}\n\n${out.bold('This API key is shown once:')} only its SHA-256 hash is kept, so store it now.`;
}

/** `POST /sandbox/reset`. */
export function resetView(res: { reset: boolean; now: string }): string {
  return `${out.green('sandbox reset to its fixtures')}: every operation, posting and issued key is forgotten and pending timers are dropped\n\n${keyValue([['now', res.now]])}`;
}
