// What can be done to an operation now, and doing it. The buttons offered are the moves the state table allows
// from its status (pay, pay another amount, settle, review approve/decline, cancel) — each a POST form with the
// session's CSRF token — and each calls the same control as the CLI (`sandbox pay`, `sandbox settle`, `sandbox
// review`, `payment cancel`, `sandbox webhooks redeliver`) as the operation's shop. The answer is a 303 back to the
// operation saying what was done, or the page again saying why the control refused (its status and message).
import type { OperationStatus, OperationType } from '../../contract/common.js';
import type { ControlId } from '../../contract/controls.js';
import type { EndpointId } from '../../contract/endpoints.js';
import { cellOf, type Command } from '../../domain/state-table.js';
import { esc } from '../pages/i18n.js';
import { formAllowed, readForm, seeOther } from './forms.js';
import { notFoundPage } from './frame.js';
import { invoke, refusalOf } from './invoke.js';
import { csrfField } from './layout.js';
import { DASH_MESSAGES, dt } from './messages.js';
import type { DashRequest } from './request.js';
import { refused } from './sign-in.js';
import { sandboxOf } from './source.js';

export const ACTIONS = [
  'pay',
  'pay_other',
  'settle_completed',
  'settle_failed',
  'approve',
  'decline',
  'cancel',
] as const;
export type Action = (typeof ACTIONS)[number] | 'redeliver';

/** The state table's command behind each button. */
const COMMAND_OF: Record<(typeof ACTIONS)[number], Command> = {
  pay: 'pay',
  pay_other: 'pay',
  settle_completed: 'settle_completed',
  settle_failed: 'settle_failed',
  approve: 'approve',
  decline: 'decline',
  cancel: 'cancel_by_id',
};

/** The buttons the state table allows for an operation in `status`. */
export function allowedActions(op: { type: OperationType; status: OperationStatus }): Array<(typeof ACTIONS)[number]> {
  return ACTIONS.filter((a) => {
    const cell = cellOf(op, COMMAND_OF[a]);
    return cell !== '=' && !cell.startsWith('!');
  });
}

function actionForm(req: DashRequest, id: string, action: (typeof ACTIONS)[number]): string {
  const { lang } = req;
  let field = '';
  if (action === 'pay_other' || action === 'approve') {
    const label = action === 'approve' ? 'act.approve_amount' : 'act.amount';
    const required = action === 'pay_other' ? ' required' : '';
    field = `<div><label for="amount-${action}">${dt(lang, label)}</label><input id="amount-${action}" name="amount" inputmode="decimal" autocomplete="off"${required}></div>`;
  }
  const danger = action === 'cancel' || action === 'decline' || action === 'settle_failed' ? ' class="danger"' : '';
  return `<form method="post" action="${esc(`${req.base}/operations/${encodeURIComponent(id)}`)}">${csrfField(req)}<input type="hidden" name="action" value="${action}">${field}<button type="submit"${danger} data-action="${action}">${dt(lang, `act.${action}`)}</button></form>`;
}

export function actionsPanel(
  req: DashRequest,
  op: { operation_id: string; type: OperationType; status: OperationStatus },
): string {
  const allowed = allowedActions(op);
  const body = allowed.length
    ? `<p class="muted">${dt(req.lang, 'op.actions.lead')}</p><div class="actions-list">${allowed.map((a) => actionForm(req, op.operation_id, a)).join('')}</div>`
    : `<p>${dt(req.lang, 'op.actions.none')}</p>`;
  return `<section class="panel" aria-labelledby="h-actions"><h2 id="h-actions">${dt(req.lang, 'op.actions')}</h2>${body}</section>`;
}

/** The control an action calls, with its params and body. */
function callOf(
  action: Action,
  id: string,
  form: URLSearchParams,
): { id: ControlId | EndpointId; params?: Record<string, string>; body: unknown } {
  const amount = form.get('amount')?.trim() || undefined;
  switch (action) {
    case 'pay':
      return { id: 'operations.pay', params: { id }, body: {} };
    case 'pay_other':
      return { id: 'operations.pay', params: { id }, body: { amount: amount ?? '' } };
    case 'settle_completed':
    case 'settle_failed':
      return { id: 'operations.settle', params: { id }, body: { outcome: action.slice('settle_'.length) } };
    case 'approve':
    case 'decline':
      return { id: 'operations.review', params: { id }, body: { decision: action, ...(amount ? { amount } : {}) } };
    case 'cancel':
      return { id: 'operation.cancel', body: { operation_id: id } };
    case 'redeliver':
      return { id: 'webhooks.redeliver', body: { event_id: form.get('event_id') ?? '' } };
  }
}

const isAction = (a: string | null): a is Action =>
  a === 'redeliver' || (ACTIONS as readonly string[]).includes(a ?? '');

/** What a refused action tells the operation's page: the action and the control's answer. */
export interface ActionOutcome {
  notice: string;
  status: number;
}

/**
 * POST <dashboard>/operations/:id: the CSRF rules first (403, nothing done), then the control. A success is a 303
 * back to the page (`?done=<action>`); a refusal renders the page with the control's status and message.
 */
export async function actOnOperation(
  req: DashRequest,
  render: (req: DashRequest, outcome?: ActionOutcome) => Promise<string>,
): Promise<string> {
  const form = await readForm(req.event);
  if (!formAllowed(req, form)) return refused(req);
  const id = (req.event.context.params?.id ?? '').toLowerCase();
  const ctx = sandboxOf(req);
  const op = ctx.service.state.operation(id);
  if (!op || op.status === 'admitting' || (req.shop !== undefined && op.shop_id !== req.shop)) return notFoundPage(req);
  const action = form!.get('action');
  if (!isAction(action))
    return render(req, {
      status: 400,
      notice: dt(req.lang, 'act.refused', { action: String(action), message: 'no such action' }),
    });
  const call = callOf(action, op.id, form!);
  const label = DASH_MESSAGES[req.lang][`act.${action}`];
  try {
    await invoke(ctx, call.id, {
      shopId: op.shop_id,
      ...(call.params ? { params: call.params } : {}),
      body: call.body,
    });
  } catch (e) {
    const r = refusalOf(e);
    if (!r) throw e;
    req.event.context.errorCode = r.code;
    return render(req, {
      status: r.status,
      notice: dt(req.lang, 'act.refused', { action: label, message: `${r.code}: ${r.message}` }),
    });
  }
  return seeOther(req.event, `${req.base}/operations/${encodeURIComponent(op.id)}?done=${action}`);
}
