// Human views of the gateway's resources: an operation (with receipts), an amount selection, balances,
// availability and recommendations. Labels are the wire field names, so they map one to one onto --json.
import type {
  AmountSelection,
  AvailabilityResponse,
  BalanceRow,
  CancelOperationResponse,
  Operation,
  RecommendationsResponse,
} from '../contract/index.js';
import { out } from './colors.js';
import { amount, dim, keyValue, statusCell, table, type Cell } from './render.js';

type Row = readonly [string, Cell | undefined] | undefined;

/** An operation as aligned key/value rows; `merchantOperationId` is shown when the CLI knows it. */
export function operationView(op: Operation, merchantOperationId?: { id: string; generated: boolean }): string {
  const rows: Row[] = [
    ['operation_id', op.operation_id],
    merchantOperationId
      ? ['merchant_operation_id', merchantOperationId.generated ? { text: `${merchantOperationId.id} (generated)`, style: (s) => s.replace('(generated)', out.dim('(generated)')) } : merchantOperationId.id]
      : undefined,
    ['type', op.type],
    ['status', statusCell(op.status)],
    op.manual_check_reason ? ['manual_check_reason', statusCell(op.manual_check_reason)] : undefined,
    ['method', op.method],
    ['expected_amount', amount(op.expected_amount, op.currency)],
    ['actual_amount', amount(op.actual_amount, op.currency)],
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
    op.receipt_evidence_status !== undefined ? ['receipt_evidence_status', op.receipt_evidence_status] : undefined,
  ];
  const blocks = [keyValue(rows)];
  if (op.receipts && op.receipts.length > 0) {
    blocks.push(
      out.bold('receipts'),
      table(
        ['id', 'amount', 'completed_at', 'receipt_url'],
        op.receipts.map((r) => [r.id, amount(r.amount.toFixed(2), op.currency), r.completed_at, r.receipt_url ?? dim('null')]),
      ),
    );
  }
  return blocks.join('\n\n');
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
