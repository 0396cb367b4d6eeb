// Generates scenarios/state-machine/*.yaml: one scenario per non-trivial cell of the state table
// (src/domain/state-table.ts, docs/state-machine.md) — every move into a new status and every refusal — each driven
// through the public API and the sandbox controls only. library.test.ts checks the committed files are these
// (UPDATE_SCENARIOS=1 rewrites them) and runs them all.
import type { OperationKind, Status } from '../../src/domain/operation.js';
import { COMMAND_TEXT, COMMANDS, STATE_TABLE, type Cell, type Command } from '../../src/domain/state-table.js';

const HEADER =
  '# Generated from src/domain/state-table.ts by test/scenarios/state-machine-library.ts; do not edit.\n# UPDATE_SCENARIOS=1 npx vitest run test/scenarios/library.test.ts regenerates it.\n';

function create(
  kind: OperationKind,
  tag: string,
  opts: { id?: string; moid?: string; background?: boolean } = {},
): string {
  const call = kind === 'payment' ? 'payment.create' : 'payout.create';
  const number = kind === 'payout' ? ', number: "2200700000000004"' : '';
  return [
    `  - id: ${opts.id ?? 'op'}`,
    `    call: ${call}`,
    `    with: { merchant_operation_id: "${opts.moid ?? '${{ vars.moid }}'}", client_id: "walker${tag}", method: WT_RUB_C2C, amount: "1500.00", currency: RUB${number} }`,
    ...(opts.background ? ['    background: true'] : []),
  ].join('\n');
}

const step = (call: string, withText: string, expect?: string, name?: string) =>
  [
    `  - call: ${call}`,
    ...(name ? [`    name: ${JSON.stringify(name)}`] : []),
    ...(withText ? [`    with: { ${withText} }`] : []),
    ...(expect ? [`    expect: ${expect}`] : []),
  ].join('\n');

const OP = 'id: "${{ steps.op.operation_id }}"';

/** Steps that bring a fresh operation of `kind` into `status` (admitting: a create still waiting, id known). */
function reach(kind: OperationKind, status: Status, command: Command): string[] {
  if (status === 'admitting') {
    const tag = command === 'accept_timeout' ? '+timeout' : command === 'accept_receipt' ? '+slow+receipt' : '+slow';
    return [
      // The operation_id is a name-based UUID of shop and merchant_operation_id: learn it, forget the operation, and
      // create it again behind a slow provider, so the commands below can name an operation that is still admitting.
      create(kind, '', { id: 'first' }),
      step('sandbox.reset', '', undefined, 'forget it; the same merchant_operation_id gives the same operation_id'),
      create(kind, tag, { background: true }),
      step(
        'operation.state',
        'merchant_operation_id: "${{ vars.moid }}"',
        '{ status: 404, code: operation_not_found }',
        'still admitting: not readable yet',
      ),
    ];
  }
  const tag =
    status === 'awaiting_confirmation' || status === 'manual_check'
      ? '+receipt'
      : status === 'rejected'
        ? '+reject'
        : '';
  const out = [
    `${create(kind, tag)}\n    expect: { body: { status: ${status === 'manual_check' || status === 'completed' || status === 'cancelled' ? (tag ? 'awaiting_confirmation' : 'pending') : status} } }`,
  ];
  if (status === 'manual_check')
    out.push(
      step(
        'payment.confirm',
        'operation_id: "${{ steps.op.operation_id }}", receipt: ../../fixtures/receipts/fake-photoshop.pdf',
        '{ body: { status: manual_check } }',
      ),
    );
  if (status === 'completed')
    out.push(
      kind === 'payment'
        ? step('operations.pay', OP, '{ body: { status: completed } }')
        : step('operations.settle', `${OP}, outcome: completed`, '{ body: { status: completed } }'),
    );
  if (status === 'cancelled')
    out.push(
      step('operation.cancel', 'operation_id: "${{ steps.op.operation_id }}"', '{ body: { outcome: cancelled } }'),
    );
  return out;
}

const ID_OF = (status: Status) =>
  status === 'admitting' ? '${{ steps.first.operation_id }}' : '${{ steps.op.operation_id }}';

/** The request of a command, addressed to the operation. */
function command(c: Command, status: Status, expect: string): string {
  const id = ID_OF(status);
  switch (c) {
    case 'cancel':
      return step('operation.cancel', 'merchant_operation_id: "${{ vars.moid }}", reason: walk', expect);
    case 'cancel_by_id':
      return step('operation.cancel', `operation_id: "${id}", reason: walk`, expect);
    case 'pay':
      return step('operations.pay', `id: "${id}"`, expect);
    case 'receipt_ok':
      return step('payment.confirm', `operation_id: "${id}", receipt: ../../fixtures/receipts/ok-1500.pdf`, expect);
    case 'receipt_suspicious':
      return step(
        'payment.confirm',
        `operation_id: "${id}", receipt: ../../fixtures/receipts/mismatch-1499.pdf`,
        expect,
      );
    case 'approve':
    case 'decline':
      return step('operations.review', `id: "${id}", decision: ${c}`, expect);
    case 'settle_completed':
    case 'settle_failed':
      return step(
        'operations.settle',
        `id: "${id}", outcome: ${c === 'settle_completed' ? 'completed' : 'failed'}`,
        expect,
      );
    default:
      throw new Error(`no request for ${c}`);
  }
}

/** The steps of one cell: the command, and what must hold after it. */
function act(kind: OperationKind, status: Status, c: Command, cell: Cell): string[] {
  const refused = cell.startsWith('!');
  if (c === 'accept' || c === 'accept_receipt' || c === 'accept_timeout') {
    const by = c === 'accept_timeout' ? '15s' : '10s';
    return [
      step('clock.advance', `by: ${by}`, undefined, 'the provider answers'),
      `  - await: op\n    expect: { body: { status: ${cell} }, operation_status: ${cell} }`,
    ];
  }
  if (c === 'expire')
    return [`  - wait_for: { status: ${cell} }\n    expect: { operation: { status: ${cell}, actual_amount: "0.00" } }`];
  if (!refused) return [command(c, status, `{ operation_status: ${cell} }`)];
  const code = cell.slice(1);
  if (status !== 'admitting') return [command(c, status, `{ code: ${code}, operation_status: ${status} }`)];
  // Refused while admitting: once the provider answers, the create goes on as if nothing had been asked.
  return [
    command(c, status, `{ code: ${code} }`),
    step('clock.advance', 'by: 10s', undefined, 'the provider answers'),
    '  - await: op\n    expect: { body: { status: pending } }',
  ];
}

function scenario(kind: OperationKind, status: Status, c: Command, cell: Cell): string {
  const outcome = cell.startsWith('!') ? `refused with ${cell.slice(1)}` : `→ ${cell}`;
  const lines = [
    HEADER,
    `name: "state table: ${kind} ${status} × ${c} ${outcome}"`,
    `description: "${COMMAND_TEXT[c].replace(/"/g, "'")}"`,
    'tags: [state-machine]',
    'variables:',
    '  moid: ${{ unique.walk }}',
    'steps:',
    ...reach(kind, status, c),
    ...act(kind, status, c, cell),
  ];
  return `${lines.join('\n')}\n`;
}

/** Whether a cell is worth a scenario: a move, or a refusal (not "no change"). */
const nonTrivial = (cell: Cell) => cell !== '=';

/** file name → YAML text, one per non-trivial cell. */
export function stateMachineScenarios(): Map<string, string> {
  const out = new Map<string, string>();
  for (const kind of ['payment', 'payout'] as const) {
    for (const [status, row] of Object.entries(STATE_TABLE[kind]) as [Status, Record<Command, Cell>][]) {
      for (const c of COMMANDS) {
        const cell = row[c];
        if (!cell || !nonTrivial(cell)) continue;
        out.set(`${kind}-${status.replace(/_/g, '-')}--${c.replace(/_/g, '-')}.yaml`, scenario(kind, status, c, cell));
      }
    }
  }
  return out;
}
