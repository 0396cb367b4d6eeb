// One operation object of an answer on its own (spec §2.3, §2.4, §4.4): the presence rules, the settlement
// formula, and the receipt evidence of a state read.
import { Decimal } from 'decimal.js';
import { isObject, shown, type CheckContext } from './context.js';

const TERMINAL = new Set(['completed', 'cancelled', 'rejected']);
const LINK_ENDPOINTS = new Set(['payment.link', 'payment.flexible_link']);
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

export const isTerminalStatus = (s: unknown): boolean => typeof s === 'string' && TERMINAL.has(s);

/** A decimal string as a Decimal, or undefined when it is not one (the format rules report that). */
export const dec = (v: unknown): Decimal | undefined =>
  typeof v === 'string' && DECIMAL.test(v) ? new Decimal(v) : undefined;

const has = (o: Record<string, unknown>, k: string) => o[k] !== undefined;

/** Presence rules of §2.3 on one operation object. */
export function checkPresence(ctx: CheckContext, op: Record<string, unknown>): void {
  const found = { operationId: typeof op.operation_id === 'string' ? op.operation_id : undefined };
  const status = op.status;
  const actual = dec(op.actual_amount);
  const recorded = has(op, 'recorded_amount');
  if (recorded !== has(op, 'recorded_currency'))
    ctx.report('presence.recorded', 'recorded_amount and recorded_currency together', `only one of them`, found);
  else if (recorded && (status === 'pending' || actual?.isZero()))
    ctx.report(
      'presence.recorded',
      'no recorded_* while pending or while actual_amount is zero',
      `recorded_amount ${shown(op.recorded_amount)} with status ${shown(status)}, actual_amount ${shown(op.actual_amount)}`,
      found,
    );
  if ((status === 'manual_check') !== has(op, 'manual_check_reason'))
    ctx.report(
      'presence.manual_check_reason',
      'manual_check_reason exactly while status is manual_check',
      `status ${shown(status)}, manual_check_reason ${shown(op.manual_check_reason)}`,
      found,
    );
  if (has(op, 'payment_url') && !LINK_ENDPOINTS.has(ctx.endpoint?.id ?? ''))
    ctx.report(
      'presence.payment_url',
      'no payment_url outside the link endpoints',
      `payment_url ${shown(op.payment_url)}`,
      found,
    );
  if (has(op, 'fx_source') !== has(op, 'fx_rate'))
    ctx.report(
      'presence.fx_pair',
      'fx_source and fx_rate together',
      `fx_source ${shown(op.fx_source)}, fx_rate ${shown(op.fx_rate)}`,
      found,
    );
  const bank = has(op, 'bankname');
  const details = has(op, 'bankname_details');
  if ((details && !bank) || (bank && !details && op.method === 'WT_RUB_PHONE'))
    ctx.report(
      'presence.bankname_details',
      'bankname_details with bankname on WT_RUB_PHONE, never without bankname',
      `method ${shown(op.method)}, bankname ${shown(op.bankname)}, bankname_details ${shown(op.bankname_details)}`,
      found,
    );
  const confirmation = op.external_confirmation;
  if (
    (status === 'awaiting_confirmation' || status === 'manual_check') &&
    !(isObject(confirmation) && confirmation.required === true)
  )
    ctx.report(
      'presence.external_confirmation',
      `external_confirmation { required: true } on a ${status} operation`,
      `external_confirmation ${shown(confirmation)}`,
      found,
    );
  if (ctx.endpoint?.id !== 'operation.state' && (has(op, 'receipts') || has(op, 'receipt_evidence_status')))
    ctx.report(
      'presence.state_only',
      'no receipts or receipt_evidence_status outside get_operation_state',
      'them present',
      found,
    );
}

/** settlement_amount = amount ∓ commission (payment −, payout +) in settlement_currency (§2.3, §4.4). */
export function checkSettlement(ctx: CheckContext, op: Record<string, unknown>): void {
  const status = op.status;
  if (status === 'cancelled' || status === 'rejected') return;
  const gross =
    status === 'completed'
      ? (dec(op.recorded_amount) ?? (dec(op.actual_amount)?.isZero() ? new Decimal(0) : undefined))
      : (dec(op.fx_rate) ?? (op.fx_source === undefined ? dec(op.expected_amount) : undefined));
  const commission = dec(op.commission_amount);
  const settlement = dec(op.settlement_amount);
  if (!gross || !commission || !settlement) return;
  const payout = op.type === 'payout';
  const want = payout ? gross.plus(commission) : gross.minus(commission);
  if (!want.equals(settlement)) {
    const base = status === 'completed' ? 'the captured amount' : 'the expected amount';
    ctx.report(
      'money.settlement',
      `settlement_amount ${want.toFixed(2)} (${base} ${gross.toFixed(2)} ${payout ? '+' : '−'} commission ${commission.toFixed(2)})`,
      `settlement_amount ${shown(op.settlement_amount)}`,
      { operationId: op.operation_id as string },
    );
  }
}

const EVIDENCE = new Set(['not_ready', 'partial', 'complete', 'unavailable']);

/** The receipt evidence of a state read (§2.4, §4.6). */
export function checkEvidence(ctx: CheckContext, op: Record<string, unknown>): void {
  const found = { operationId: typeof op.operation_id === 'string' ? op.operation_id : undefined };
  const receipts = Array.isArray(op.receipts) ? (op.receipts as unknown[]).filter(isObject) : [];
  const ev = op.receipt_evidence_status;
  const terminal = isTerminalStatus(op.status);
  if (receipts.length > 0 && op.status !== 'completed')
    ctx.report(
      'evidence.before_completed',
      'no receipts before the operation is completed',
      `${receipts.length} receipts with status ${shown(op.status)}`,
      found,
    );
  if (typeof ev !== 'string' || !EVIDENCE.has(ev))
    ctx.report(
      'evidence.status',
      'receipt_evidence_status one of not_ready, partial, complete, unavailable',
      shown(ev),
      found,
    );
  else if ((ev === 'not_ready') !== !terminal)
    ctx.report(
      'evidence.status',
      `receipt_evidence_status ${terminal ? 'not not_ready on a terminal operation' : 'not_ready while mutable'}`,
      `${ev} with status ${shown(op.status)}`,
      found,
    );
  else if (ev === 'unavailable' && receipts.length > 0)
    ctx.report('evidence.status', 'no receipts while evidence is unavailable', `${receipts.length} receipts`, found);
  if (ev === 'unavailable' && isObject(ctx.x.request.body) && ctx.x.request.body.operation_id !== undefined)
    ctx.report(
      'evidence.unavailable_by_id',
      'a 503 when evidence cannot be materialized on a read by operation_id',
      '200 with receipt_evidence_status unavailable',
      found,
    );
  for (let i = 1; i < receipts.length; i++) {
    const a = receipts[i - 1]!;
    const b = receipts[i]!;
    const ta = Date.parse(String(a.completed_at));
    const tb = Date.parse(String(b.completed_at));
    if (ta > tb || (ta === tb && String(a.id) > String(b.id))) {
      ctx.report(
        'evidence.order',
        'receipts ordered by completed_at, then id',
        `item ${i} (${shown(a.completed_at)}, ${shown(a.id)}) before item ${i + 1} (${shown(b.completed_at)}, ${shown(b.id)})`,
        found,
      );
      break;
    }
  }
  const actual = dec(op.actual_amount);
  if ((ev === 'complete' || ev === 'partial') && receipts.length > 0 && actual) {
    let sum = new Decimal(0);
    for (const r of receipts) sum = typeof r.amount === 'number' ? sum.plus(new Decimal(String(r.amount))) : sum;
    if (!sum.equals(actual))
      ctx.report(
        'evidence.sum',
        `receipts adding up to actual_amount ${actual.toFixed(2)}`,
        `a sum of ${sum.toFixed(2)}`,
        found,
      );
  }
}
