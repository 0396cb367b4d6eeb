// The state machine, as one table: for every operation type, status and command, the resulting status, "no change",
// or the refusal code. It drives the domain — move() allows exactly the moves it lists and every command asks it
// first whether it applies — docs/state-machine.md is generated from it, and a test executes every cell through
// the public API.
import type { OperationKind, OperationRecord, Status } from './operation.js';
import { DomainError, type DomainErrorCode } from './errors.js';

export const COMMANDS = [
  'accept',
  'accept_receipt',
  'accept_timeout',
  'cancel',
  'cancel_by_id',
  'pay',
  'receipt_ok',
  'receipt_suspicious',
  'approve',
  'decline',
  'expire',
  'settle_completed',
  'settle_failed',
] as const;
export type Command = (typeof COMMANDS)[number];

export const COMMAND_TEXT: Record<Command, string> = {
  accept: 'provider accepts (acceptance wait over)',
  accept_receipt: 'provider accepts on a route that requires a receipt',
  accept_timeout: 'provider slower than the 15 s wait',
  cancel: 'POST /v1/cancel_operation by merchant_operation_id',
  cancel_by_id: 'POST /v1/cancel_operation by operation_id',
  pay: 'payer transfers (sandbox control `pay`)',
  receipt_ok: 'receipt uploaded, automatic check passes',
  receipt_suspicious: 'receipt uploaded, automatic check doubts it',
  approve: 'reviewer approves (sandbox control `review --approve`)',
  decline: 'reviewer declines (sandbox control `review --decline`)',
  expire: 'sandbox clock passes expires_at',
  settle_completed: 'provider completes the payout (control, or its settlement delay)',
  settle_failed: 'provider fails the payout (control, or `+fail`)',
};

/** A status, `=` for "no change", or an error code (the HTTP status is in the emulator's table). */
export type Cell = Status | '=' | `!${string}`;

const TIMER_EVENTS: readonly Command[] = ['accept', 'accept_receipt', 'accept_timeout', 'expire'];

/** Unlisted commands are refused with invalid_state; timer events that do not apply change nothing. */
function row(cells: Partial<Record<Command, Cell>>, refusal: Cell = '!invalid_state'): Record<Command, Cell> {
  const out = {} as Record<Command, Cell>;
  for (const c of COMMANDS) out[c] = cells[c] ?? (TIMER_EVENTS.includes(c) ? '=' : refusal);
  return out;
}

const terminalPayment = (cancel: Cell) => row({ cancel, cancel_by_id: cancel });

export const STATE_TABLE: Record<OperationKind, Partial<Record<Status, Record<Command, Cell>>>> = {
  payment: {
    // A create still waiting for acceptance does not exist yet for anything but a cancel by merchant_operation_id.
    admitting: row(
      { accept: 'pending', accept_receipt: 'awaiting_confirmation', accept_timeout: 'rejected', cancel: 'cancelled' },
      '!operation_not_found',
    ),
    pending: row({ cancel: 'cancelled', cancel_by_id: 'cancelled', pay: 'completed', expire: 'rejected' }),
    awaiting_confirmation: row({
      cancel: 'cancelled',
      cancel_by_id: 'cancelled',
      receipt_ok: 'completed',
      receipt_suspicious: 'manual_check',
      expire: 'rejected',
    }),
    manual_check: row({
      cancel: '!not_cancellable',
      cancel_by_id: '!not_cancellable',
      approve: 'completed',
      decline: 'rejected',
    }),
    completed: terminalPayment('='),
    cancelled: terminalPayment('='),
    rejected: terminalPayment('='),
  },
  payout: {
    // Payout routes never require a receipt: accepted is pending either way.
    admitting: row(
      { accept: 'pending', accept_receipt: 'pending', accept_timeout: 'rejected', cancel: '!payout_not_cancellable' },
      '!operation_not_found',
    ),
    pending: row({
      cancel: '!payout_not_cancellable',
      cancel_by_id: '!payout_not_cancellable',
      settle_completed: 'completed',
      settle_failed: 'rejected',
    }),
    completed: row({ cancel: '!payout_not_cancellable', cancel_by_id: '!payout_not_cancellable' }),
    rejected: row({ cancel: '!payout_not_cancellable', cancel_by_id: '!payout_not_cancellable' }),
  },
};

/** The cell of `command` for an operation in its current status (a status the table does not list refuses it). */
export function cellOf(op: Pick<OperationRecord, 'type' | 'status'>, command: Command): Cell {
  return STATE_TABLE[op.type][op.status]?.[command] ?? '!invalid_state';
}

/**
 * Whether `command` applies to `op`: its target status, or '=' for "no change". A refusal throws the table's code,
 * with `why` as the message (what is wrong and what to do instead).
 */
export function nextStatus(
  op: Pick<OperationRecord, 'type' | 'status'>,
  command: Command,
  why?: () => string,
): Status | '=' {
  const cell = cellOf(op, command);
  if (!cell.startsWith('!')) return cell as Status | '=';
  const code = cell.slice(1) as DomainErrorCode;
  throw new DomainError(
    code,
    why?.() ??
      (code === 'operation_not_found'
        ? 'operation not found'
        : `a ${op.type} in status ${op.status} does not take ${command}`),
  );
}

/** Every move some command makes, by type: from → the statuses it can reach. Nothing else may happen. */
const TARGETS: Record<OperationKind, Map<Status, Set<Status>>> = { payment: new Map(), payout: new Map() };
for (const kind of ['payment', 'payout'] as const) {
  for (const [from, cells] of Object.entries(STATE_TABLE[kind])) {
    const to = new Set(Object.values(cells!).filter((c): c is Status => c !== '=' && !c.startsWith('!')));
    TARGETS[kind].set(from as Status, to);
  }
}

export function canMove(kind: OperationKind, from: Status, to: Status): boolean {
  return TARGETS[kind].get(from)?.has(to) === true;
}

/** The table as Markdown (docs/state-machine.md embeds it between markers). */
export function renderStateTable(): string {
  const out: string[] = [];
  for (const kind of ['payment', 'payout'] as const) {
    const rows = STATE_TABLE[kind];
    const used = COMMANDS.filter((c) => Object.values(rows).some((r) => r![c] !== '!invalid_state' && r![c] !== '='));
    out.push(
      `### ${kind}`,
      '',
      `| status | ${used.map((c) => `\`${c}\``).join(' | ')} |`,
      `|---|${used.map(() => '---').join('|')}|`,
    );
    for (const [status, row] of Object.entries(rows)) {
      const cell = (c: Cell) => (c === '=' ? '·' : c.startsWith('!') ? `✗ ${c.slice(1)}` : `**${c}**`);
      out.push(`| ${status} | ${used.map((c) => cell(row![c])).join(' | ')} |`);
    }
    out.push('');
  }
  out.push('Commands:', '', ...COMMANDS.map((c) => `- \`${c}\`: ${COMMAND_TEXT[c]}`), '');
  return out.join('\n');
}
