// Human views of the support staff's reads (`paygate ops list | watch`, `paygate logs tail`, `paygate balances
// --all-shops`): the operation table with its next-page hint, one line per operation change and per logged request,
// the CSV of operation rows, and every shop's balances. `paygate ops show` is in ops-show-view.ts.
import { stringify } from 'csv-stringify/sync';
import type { SandboxOperationRow, SandboxRequestLogEntry } from '../client/resources/sandbox-support.js';
import type { AllBalances } from '../contract/support.js';
import type { z } from 'zod';
import { out, status as colourStatus } from './colors.js';
import { amount, dim, groupedCount, statusCell, table, type Cell } from './render.js';

/** A timestamp to the second (`2026-01-01T09:30:00Z`): still RFC 3339, so it can be pasted into --since. */
export function shortTime(ts: string): string {
  return ts.replace(/\.\d+Z$/, 'Z');
}

/** The operation table, newest first: who, when, what, how much, where it stands and why. */
export function opsTable(rows: readonly SandboxOperationRow[]): string {
  return table(
    [
      'created',
      'updated',
      'shop',
      'merchant_operation_id',
      'client_id',
      'type',
      'method',
      'amount',
      'actual',
      'status',
      'reason',
    ],
    rows.map((r): Cell[] => [
      shortTime(r.created_at),
      shortTime(r.updated_at),
      r.shop_id,
      r.merchant_operation_id,
      r.client_id,
      r.type,
      r.method,
      amount(r.expected_amount, r.currency),
      amount(r.actual_amount, r.currency),
      statusCell(r.status),
      r.reason ?? dim('—'),
    ]),
  );
}

/** `12 of 340`, `50 shown, more match` (no total: counting would have meant a scan). */
export function countLine(shown: number, total: number | undefined, more: boolean): string {
  if (total !== undefined) return `${groupedCount(shown)} of ${groupedCount(total)}`;
  return more ? `${groupedCount(shown)} shown, more match` : `${groupedCount(shown)} shown`;
}

/** One page: the table (or "no operations"), how many of how many, and the command for the next page. */
export function opsPageView(
  page: { operations: readonly SandboxOperationRow[]; total?: number | undefined; has_more: boolean },
  nextCommand: string | undefined,
): string {
  const count = countLine(page.operations.length, page.total, page.has_more);
  if (page.operations.length === 0) return `${out.dim('no operations match')}\n${out.dim(count)}`;
  const lines = [opsTable(page.operations), '', count];
  if (nextCommand) lines.push(`${out.bold('more:')} ${nextCommand}`);
  return lines.join('\n');
}

/** The CSV columns of `ops list --csv`: the row's fields, money as the API writes it. */
export const CSV_COLUMNS = [
  'operation_id',
  'shop_id',
  'merchant_operation_id',
  'client_id',
  'type',
  'method',
  'status',
  'expected_amount',
  'actual_amount',
  'currency',
  'settlement_amount',
  'settlement_currency',
  'commission_amount',
  'created_at',
  'updated_at',
  'reason',
] as const;

/** Rows as RFC 4180 CSV (CRLF line ends, fields quoted when they hold a comma, quote or line break), with the header row first when `header`. */
export function csvRows(rows: readonly SandboxOperationRow[], header: boolean): string {
  const records = rows.map((r) => CSV_COLUMNS.map((c) => (r[c] ?? '') as string));
  return stringify(records, { header, columns: [...CSV_COLUMNS], record_delimiter: 'windows' });
}

/** One change of a watched operation: when, which, how much, the move (from the status last seen) and why. */
export function changeLine(row: SandboxOperationRow, previous: string | undefined): string {
  const move =
    previous !== undefined && previous !== row.status
      ? `${colourStatus(previous)} → ${colourStatus(row.status)}`
      : colourStatus(row.status);
  const money =
    row.actual_amount !== '0.00' && row.actual_amount !== row.expected_amount
      ? `${row.expected_amount} ${row.currency} (paid ${row.actual_amount})`
      : `${row.expected_amount} ${row.currency}`;
  const reason = row.reason ? `  ${out.dim(`(${row.reason})`)}` : '';
  return `${shortTime(row.updated_at)}  ${row.shop_id}  ${row.merchant_operation_id}  ${row.type} ${row.method}  ${money}  ${move}${reason}  ${out.dim(row.operation_id)}`;
}

/** A status code coloured by class. */
function statusCode(s: number): string {
  const t = String(s);
  if (s >= 500) return out.red.bold(t);
  if (s >= 400) return out.red(t);
  if (s >= 300) return out.yellow(t);
  return out.green(t);
}

/** One logged request: time, shop, method, path, status, latency, error code, request id. */
export function logLine(e: SandboxRequestLogEntry): string {
  return [
    e.at,
    (e.shop_id || '-').padEnd(9),
    e.method.padEnd(6),
    e.path.padEnd(34),
    statusCode(e.status),
    `${e.latency_ms.toFixed(2)} ms`.padStart(10),
    e.error_code ? out.red(e.error_code.padEnd(22)) : out.dim('-'.padEnd(22)),
    out.dim(e.id),
  ]
    .join('  ')
    .trimEnd();
}

/** `paygate balances --all-shops`: every shop's rows, shop by shop. */
export function allBalancesView(res: z.infer<typeof AllBalances>): string {
  if (res.shops.length === 0) return out.dim('no shops');
  const rows = res.shops.flatMap((s) =>
    s.balances.length === 0
      ? [[s.shop_id, s.name, dim('no balances'), '', '', ''] as Cell[]]
      : s.balances.map((b, i): Cell[] => [
          i === 0 ? s.shop_id : '',
          i === 0 ? s.name : '',
          b.currency,
          amount(b.balance, b.currency),
          amount(b.reserved, b.currency),
          amount(b.current_minus, b.currency),
        ]),
  );
  return table(['shop_id', 'name', 'currency', 'balance', 'reserved', 'current_minus'], rows);
}
