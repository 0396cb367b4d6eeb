// Human views of the gateway's resources: an operation (with receipts), an amount selection, balances,
// availability and recommendations, an operation's history. Labels are the wire field names, so they map one to one onto --json. The views of
// the sandbox's controls are in src/cli/sandbox-views.ts (re-exported here).
import type {
  AmountSelection,
  AvailabilityResponse,
  BalanceRow,
  CancelOperationResponse,
  LinkOperation,
  Operation,
  OperationState,
  RecommendationsResponse,
} from '../contract/index.js';
import type { OperationDetails } from '../contract/sandbox.js';
import { out, status as colourStatus } from './colors.js';
import { faultEventsView } from './fault-views.js';
import { amount, dim, keyValue, signedAmount, statusCell, table, type Cell } from './render.js';

type Row = readonly [string, Cell | undefined] | undefined;

/** An operation as any endpoint returns it: a link's carries payment_url, a state read's its receipts. */
type AnyOperation = Operation &
  Partial<Pick<LinkOperation, 'payment_url'> & Pick<OperationState, 'receipts' | 'receipt_evidence_status'>>;

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
export function operationView(op: AnyOperation, merchantOperationId?: { id: string; generated: boolean }): string {
  const rows: Row[] = [
    ...headRows(
      op,
      merchantOperationId &&
        (merchantOperationId.generated
          ? {
              text: `${merchantOperationId.id} (generated)`,
              style: (s) => s.replace('(generated)', out.dim('(generated)')),
            }
          : merchantOperationId.id),
    ),
    ['commission_amount', amount(op.commission_amount, op.settlement_currency)],
    ['settlement_amount', amount(op.settlement_amount, op.settlement_currency)],
    op.recorded_amount !== undefined
      ? ['recorded_amount', amount(op.recorded_amount, op.recorded_currency ?? '')]
      : undefined,
    op.fx_rate !== undefined ? ['fx_rate', `${op.fx_rate}${op.fx_source ? ` (${op.fx_source})` : ''}`] : undefined,
    op.number !== undefined ? ['number', op.number] : undefined,
    op.name !== undefined ? ['name', op.name] : undefined,
    op.bankname !== undefined
      ? ['bankname', op.bankname_details ? `${op.bankname} (${op.bankname_details})` : op.bankname]
      : undefined,
    op.external_confirmation
      ? [
          'external_confirmation',
          op.external_confirmation.required
            ? `required: ${op.external_confirmation.methods.join(', ') || '—'}`
            : 'not required',
        ]
      : undefined,
    op.expires_at !== undefined ? ['expires_at', op.expires_at] : undefined,
    op.payment_url !== undefined
      ? ['payment_url', op.payment_url === null ? dim('null (no hosted page for this shop)') : op.payment_url]
      : undefined,
    op.receipt_evidence_status !== undefined
      ? ['receipt_evidence_status', statusCell(op.receipt_evidence_status)]
      : undefined,
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
function receiptsBlock(op: AnyOperation): string | undefined {
  if (!op.receipts) return undefined;
  if (op.receipts.length === 0) {
    const why = NO_RECEIPTS[op.receipt_evidence_status ?? ''] ?? 'none';
    return `${out.bold('receipts')}\n${out.dim(why)}`;
  }
  const rows = op.receipts.map((r): Cell[] => [
    r.id,
    amount(r.amount.toFixed(2), op.currency),
    r.completed_at,
    r.receipt_url ?? dim('—'),
  ]);
  return `${out.bold('receipts')}\n${table(['id', 'amount', 'completed_at', 'receipt_url'], rows)}`;
}

/**
 * The amount_selection / rejected answer of a flexible link, and what it means: no payment exists yet (the payer
 * picks an amount on payment_url before expires_at), or nothing was available and nothing was created.
 */
export function amountSelectionView(
  sel: AmountSelection,
  merchantOperationId?: { id: string; generated: boolean },
): string {
  const selecting = sel.status === 'amount_selection';
  const kv = keyValue([
    ['operation_id', sel.operation_id],
    merchantOperationId
      ? ['merchant_operation_id', `${merchantOperationId.id}${merchantOperationId.generated ? ' (generated)' : ''}`]
      : undefined,
    ['status', statusCell(sel.status)],
    ['method', sel.method],
    ['recommended_amount', amount(sel.recommended_amount, sel.currency)],
    [
      'payment_url',
      sel.payment_url === null ? dim(selecting ? 'null' : 'null (nothing was created)') : sel.payment_url,
    ],
    sel.expires_at !== undefined ? ['expires_at', sel.expires_at] : undefined,
  ]);
  const next = selecting
    ? `${out.bold('No payment exists yet:')} the pool cannot take ${sel.recommended_amount} ${sel.currency} now, but has other amounts within the bounds.\n` +
      `Send the payer to payment_url to pick one${sel.expires_at ? ` before expires_at` : ''}; until then the state read and cancel answer 404.\n` +
      `In the sandbox, act as the payer: \`paygate sandbox links confirm ${sel.operation_id} --amount <amount>\` (see \`paygate availability\`).`
    : `${out.bold('Nothing is available')} in the pool within the bounds: no payment and no link were created.\n` +
      `See what is payable with \`paygate availability\`, then create the link again with other bounds.`;
  return `${kv}\n\n${next}`;
}

/**
 * The flexible link's other outcome: a payment created at once, for recommended_amount — the pool could take it
 * (payment_url with its `k` credential), or the shop has no flexible-link opt-in (an ordinary payment, no URL).
 */
export function flexibleOperationView(
  op: LinkOperation,
  merchantOperationId?: { id: string; generated: boolean },
): string {
  const what = `${op.expected_amount} ${op.currency}`;
  const next =
    op.status === 'rejected'
      ? `${out.bold('Payment created, rejected:')} no provider took ${what}; see what is payable with \`paygate availability\`.`
      : op.payment_url
        ? `${out.bold('Payment created')} for ${what}: the pool can take it now; send the payer to payment_url.`
        : `${out.bold('Payment created')} for ${what}, with no payment_url (this shop has no flexible-link opt-in or no hosted page): the payer pays the requisites above.`;
  return `${operationView(op, merchantOperationId)}\n\n${next}`;
}

export function cancelView(res: CancelOperationResponse): string {
  return `${keyValue([['outcome', statusCell(res.outcome)]])}\n\n${operationView(res.operation)}`;
}

export function balancesView(rows: readonly BalanceRow[]): string {
  if (rows.length === 0) return out.dim('no balances');
  return table(
    ['currency', 'balance', 'reserved', 'current_minus'],
    rows.map((r) => [
      r.currency,
      amount(r.balance, r.currency),
      amount(r.reserved, r.currency),
      amount(r.current_minus, r.currency),
    ]),
  );
}

/** What the CLI asked for, shown above an availability or recommendations answer (it is not in the answer). */
export interface AmountsRequest {
  min_amount?: string | undefined;
  max_amount?: string | undefined;
  amount?: string | undefined;
}

/** `lo … hi CUR`, or one amount when both ends are equal. */
function rangeText(lo: string, hi: string, currency: string): string {
  return lo === hi ? `${lo} ${currency}` : `${lo} … ${hi} ${currency}`;
}

/**
 * The intervals as `min … max` rows, both ends right-aligned on their own column; a single-point interval is one
 * amount. Both ends are inclusive.
 */
function intervalsBlock(res: AvailabilityResponse): string {
  const n = res.intervals.length;
  const title = `${out.bold('intervals')} ${out.dim(n === 0 ? '' : `(${n}, both ends inclusive)`)}`.trimEnd();
  if (n === 0) {
    return `${title}\n${out.dim('no payable amounts in this range (an empty answer is not a refusal: a payment may still be created)')}`;
  }
  const lows = res.intervals.map((i) => i.min_amount);
  const highs = res.intervals.map((i) => i.max_amount);
  const lw = Math.max(...lows.map((l) => l.length));
  const hw = Math.max(...highs.map((h) => h.length));
  const rows = res.intervals.map((i, k) =>
    i.min_amount === i.max_amount
      ? `  ${lows[k]!.padStart(lw)} ${res.currency}`
      : `  ${lows[k]!.padStart(lw)} ${out.dim('…')} ${highs[k]!.padStart(hw)} ${res.currency}`,
  );
  return `${title}\n${rows.join('\n')}`;
}

const COVERAGE: Record<string, { note: string; paint: (s: string) => string }> = {
  full: {
    note: "every provider of the shop's payin route is a pool: the intervals are every amount payable now",
    paint: (s) => out.green(s),
  },
  partial: {
    note: 'some providers of the route are not pools: amounts they take are not listed',
    paint: (s) => out.yellow(s),
  },
  none: {
    note: 'no provider of the route is a pool: nothing is listed (a payment may still be created)',
    paint: (s) => out.red(s),
  },
};

function availabilityHeader(res: AvailabilityResponse, req: AmountsRequest = {}): string {
  const coverage = COVERAGE[res.coverage];
  return keyValue([
    ['method', res.method],
    ['currency', res.currency],
    req.min_amount !== undefined && req.max_amount !== undefined
      ? ['range', rangeText(req.min_amount, req.max_amount, res.currency)]
      : undefined,
    req.amount !== undefined ? ['amount', `${req.amount} ${res.currency}`] : undefined,
    [
      'coverage',
      coverage
        ? {
            text: `${res.coverage} (${coverage.note})`,
            style: (t) =>
              t
                .replace(res.coverage, coverage.paint(res.coverage))
                .replace(`(${coverage.note})`, out.dim(`(${coverage.note})`)),
          }
        : res.coverage,
    ],
    [
      'truncated',
      res.truncated
        ? {
            text: 'true (a scan limit or the 200-interval cap cut the list: more amounts may be payable)',
            style: (t) => t.replace('true', out.yellow.bold('true')),
          }
        : {
            text: 'false (the list is complete)',
            style: (t) => t.replace('(the list is complete)', out.dim('(the list is complete)')),
          },
    ],
    ['evaluated_at', res.evaluated_at],
  ]);
}

/** `paygate availability`: coverage, truncation, then the intervals as `min … max` rows. */
export function availabilityView(res: AvailabilityResponse, req?: AmountsRequest): string {
  return `${availabilityHeader(res, req)}\n\n${intervalsBlock(res)}`;
}

/** `paygate recommend`: the suggestions with signed deltas (`+300.00`, `-4700.00`), then the intervals. */
export function recommendationsView(res: RecommendationsResponse, req?: AmountsRequest): string {
  const n = res.recommendations.length;
  const recs =
    n === 0
      ? out.dim('no recommendations: nothing payable near this amount within the bounds')
      : table(
          ['#', 'amount', 'delta'],
          res.recommendations.map((r, k): Cell[] => [
            String(k + 1),
            amount(r.amount, res.currency),
            amount(signedAmount(r.delta), res.currency),
          ]),
        );
  const title = `${out.bold('recommendations')}${n > 0 ? ` ${out.dim('(best first; delta = amount − requested amount)')}` : ''}`;
  return `${availabilityHeader(res, req)}\n\n${title}\n${recs}\n\n${intervalsBlock(res)}`;
}

/** A status change, `pending → completed`, each status coloured by meaning (`—` when there was none before). */
function transitionCell(from: string | null, to: string): Cell {
  return { text: `${from ?? '—'} → ${to}`, style: (t) => t.replace(/[a-z_]+/g, (w) => colourStatus(w)) };
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
  const blocks = [summary, `${out.bold('history')}\n${history}`, `${out.bold('uploads')}\n${uploads}`];
  // Injected faults (paygate sandbox faults) the operation met, when there are any.
  if (d.faults && d.faults.length > 0) blocks.push(`${out.bold('injected faults')}\n${faultEventsView(d.faults)}`);
  return blocks.join('\n\n');
}

export {
  clockView,
  evidenceView,
  issuedKeyView,
  keysView,
  keyView,
  operationListView,
  resetView,
} from './sandbox-views.js';
