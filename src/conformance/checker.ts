// createConformanceChecker: every exchange against the contract (request, answer) and against what earlier
// exchanges showed (per operation, per idempotency key, per key's balances). Pure: no I/O, no clock; its memory is
// bounded (CheckerOptions.maxOperations, maxViolations).
import { Decimal } from 'decimal.js';
import { contextOf, isObject, shown, type CheckContext } from './context.js';
import { checkEvidence, checkPresence, checkSettlement, dec } from './operation-check.js';
import { checkRequest } from './request-check.js';
import { checkResponse } from './response-check.js';
import { BoundedMap, Ring } from './bounded.js';
import { Tracker } from './tracker.js';
import type { ConformanceChecker, Exchange, Violation } from './types.js';
import { checkWebhook } from './webhook-check.js';

export interface CheckerOptions {
  /**
   * How many operations (and as many idempotency keys) the checker remembers; past it the least recently seen are
   * forgotten, and a later exchange about one of them is checked as if it were the first. Default 10,000.
   */
  maxOperations?: number;
  /**
   * How many violations the checker keeps (the newest; older ones are counted, per rule too, but forgotten).
   * Default 10,000.
   */
  maxViolations?: number;
}

const OPERATION_ANSWERS = new Set([
  'payment.create',
  'payment.link',
  'payout.create',
  'payment.confirm',
  'operation.state',
]);
const CREATES = new Set(['payment.create', 'payment.link', 'payout.create', 'payment.flexible_link']);

export function createConformanceChecker(options: CheckerOptions = {}): ConformanceChecker {
  const cap = Math.max(1, options.maxOperations ?? 10_000);
  const tracker = new Tracker(cap);
  const newestEvent = new BoundedMap<string, number>(cap);
  const violations = new Ring<Violation>(Math.max(1, options.maxViolations ?? 10_000));
  const byRule = new Map<string, number>();
  const keep = (found: Violation[]) => {
    for (const v of found) {
      violations.push(v);
      byRule.set(v.rule, (byRule.get(v.rule) ?? 0) + 1);
    }
  };
  let exchanges = 0;
  return {
    check(x: Exchange): Violation[] {
      exchanges++;
      const out: Violation[] = [];
      // A CORS preflight is the browser's, not the integration's: no rule speaks of it.
      if (x.request.method === 'OPTIONS') return out;
      const ctx = contextOf(x, out);
      checkRequest(ctx);
      const readable = checkResponse(ctx);
      checkAcross(ctx, tracker, readable);
      keep(out);
      return out;
    },
    checkWebhook(d) {
      exchanges++;
      const out = checkWebhook(d, tracker, newestEvent);
      keep(out);
      return out;
    },
    get violations() {
      return violations.toArray();
    },
    get violationCount() {
      return violations.total;
    },
    violationsByRule: byRule,
    newestViolations: (n) => violations.newest(n),
    get exchanges() {
      return exchanges;
    },
  };
}

/** The rules that read a successful answer, and those that compare it with earlier exchanges. */
function checkAcross(ctx: CheckContext, tracker: Tracker, readable: boolean): void {
  const id = ctx.endpoint?.id ?? '';
  const body = ctx.x.response.body;
  const status = ctx.x.response.status;
  if (CREATES.has(id) && (status === 200 || status === 412)) {
    const opId = isObject(body) && typeof body.operation_id === 'string' ? body.operation_id : undefined;
    tracker.sawCreate(ctx, status === 200 ? opId : undefined);
  }
  if (status === 404 && (id === 'operation.state' || id === 'operation.cancel')) tracker.sawNotFound(ctx);
  if (!readable || !isObject(body)) return;
  if (id === 'balances.list') return checkBalances(ctx, tracker, body);
  if (id === 'payment.flexible_link' && body.expected_amount === undefined) {
    if (body.status === 'rejected' && body.payment_url !== null && body.payment_url !== undefined)
      ctx.report(
        'presence.payment_url',
        'payment_url null on a rejected flexible link',
        `payment_url ${shown(body.payment_url)}`,
      );
    return;
  }
  const op =
    id === 'operation.cancel' ? body.operation : OPERATION_ANSWERS.has(id) || CREATES.has(id) ? body : undefined;
  if (!isObject(op)) return;
  checkOperation(ctx, tracker, op);
  if (id === 'operation.state') checkEvidence(ctx, op);
  if (id === 'operation.cancel') checkCancel(ctx, tracker, body.outcome, op);
}

function checkOperation(ctx: CheckContext, tracker: Tracker, op: Record<string, unknown>): void {
  const id = ctx.endpoint!.id;
  checkPresence(ctx, op);
  checkSettlement(ctx, op);
  if (id === 'operation.state' || id === 'operation.cancel') {
    const named = tracker.named(ctx);
    if (named !== undefined && op.operation_id !== named)
      ctx.report('state.wrong_operation', `operation ${named}`, `operation ${shown(op.operation_id)}`, {
        operationId: named,
      });
  }
  if ((id === 'payment.create' || id === 'payment.link' || id === 'payout.create') && !ctx.requestRefused) {
    const sent = isObject(ctx.x.request.body) ? dec(ctx.x.request.body.amount) : undefined;
    const got = dec(op.expected_amount);
    if (sent && got && !sent.equals(got))
      ctx.report(
        'money.expected_amount',
        `expected_amount ${sent.toFixed(2)} (the amount sent)`,
        `expected_amount ${shown(op.expected_amount)}`,
        { operationId: op.operation_id as string },
      );
  }
  tracker.sawOperation(ctx, op);
}

function checkCancel(ctx: CheckContext, tracker: Tracker, outcome: unknown, op: Record<string, unknown>): void {
  const found = { operationId: typeof op.operation_id === 'string' ? op.operation_id : undefined };
  if (op.type === 'payout' || tracker.typeOf(found.operationId) === 'payout')
    ctx.report('cancel.payout', '412: payouts cannot be cancelled', `200 with outcome ${shown(outcome)}`, found);
  else if (outcome === 'cancelled' && op.status !== 'cancelled')
    ctx.report('cancel.outcome', 'a cancelled payment with outcome cancelled', `status ${shown(op.status)}`, found);
  else if (outcome === 'already_terminal' && !['completed', 'cancelled', 'rejected'].includes(String(op.status)))
    ctx.report(
      'cancel.outcome',
      'a terminal payment with outcome already_terminal',
      `status ${shown(op.status)}`,
      found,
    );
  tracker.sawCancel(ctx, outcome, op);
}

function checkBalances(ctx: CheckContext, tracker: Tracker, body: Record<string, unknown>): void {
  const rows = Array.isArray(body.balances) ? body.balances.filter(isObject) : [];
  const currencies: string[] = [];
  for (const row of rows) {
    const c = String(row.currency);
    if (currencies.includes(c)) ctx.report('balance.currencies', 'one row per currency', `two rows for ${shown(c)}`);
    currencies.push(c);
    const balance = dec(row.balance);
    const reserved = dec(row.reserved);
    const minus = dec(row.current_minus);
    if (!balance || !reserved || !minus) continue;
    const want = Decimal.max(balance.plus(reserved).negated(), 0);
    if (!want.equals(minus))
      ctx.report(
        'balance.formula',
        `${c} current_minus ${want.toFixed(2)} = max(-(${row.balance} + ${row.reserved}), 0)`,
        `current_minus ${shown(row.current_minus)}`,
      );
  }
  tracker.sawCurrencies(ctx, currencies);
}
