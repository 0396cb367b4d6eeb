// Human views of the sandbox's controls: the clock, the operation list, evidence, keys,
// reset. Labels are the wire field names, so they map one to one onto --json. The gateway's resources are in
// src/cli/views.ts.
import type { ClockState, IssuedKey, KeyInfo, ListOperationsResponse } from '../contract/sandbox.js';
import { out } from './colors.js';
import { amount, dim, keyValue, statusCell, table, type Cell } from './render.js';

/** `GET /sandbox/clock` and the answer of `POST /sandbox/clock/advance`. */
export function clockView(clock: ClockState): string {
  return keyValue([
    ['now', clock.now],
    [
      'frozen',
      clock.frozen
        ? `true ${out.dim('(stands still until `paygate sandbox time advance`)')}`
        : `false ${out.dim('(follows real time)')}`,
    ],
    ['pending_timers', String(clock.pending_timers)],
  ]);
}

/** The shop's operations, newest first, and how many of the matching total are shown. */
export function operationListView(res: ListOperationsResponse, offset = 0): string {
  const shown = res.operations.length;
  // No total when counting would have meant checking more than 20,000 operations.
  const of = res.total !== undefined ? ` of ${res.total}` : res.has_more ? ' shown, more match' : ' shown';
  const count =
    shown === 0
      ? out.dim(`0${of}${offset > 0 ? ` (offset ${offset})` : ''}`)
      : `${shown}${of}${offset > 0 ? ` (from #${offset + 1})` : ''}`;
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

/** `GET|PUT /sandbox/evidence`. */
export function evidenceView(state: { available: boolean }): string {
  return keyValue([
    [
      'available',
      state.available
        ? {
            text: `true ${out.dim('(receipts and signed receipt links are served)')}`,
            style: (t) => t.replace('true', out.green('true')),
          }
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
    k.scopes !== undefined ? ['scopes', k.scopes.join(', ')] : undefined,
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
    k.scopes !== undefined ? ['scopes', k.scopes.join(', ')] : undefined,
    ['created_at', k.created_at],
    [
      'api_key',
      {
        text: `${k.api_key}  (shown once)`,
        style: (t) =>
          t.replace(k.api_key, out.yellow.bold(k.api_key)).replace('(shown once)', out.bold('(shown once)')),
      },
    ],
  ]);
  return `${kv}\n\n${out.bold('This API key is shown once:')} only its SHA-256 hash is kept, so store it now.`;
}

/** `POST /sandbox/reset`. */
export function resetView(res: { reset: boolean; now: string }): string {
  return `${out.green('sandbox reset to its fixtures')}: every operation, posting and issued key is forgotten and pending timers are dropped\n\n${keyValue([['now', res.now]])}`;
}
