// Human output: aligned key/value blocks and tables (padEnd/padStart), amounts right-aligned with their currency.
// Widths are measured on plain text; colour is applied after padding so escape codes never skew alignment.
import { out, status as colourStatus } from './colors.js';

export interface Amount {
  value: string;
  currency: string;
}

/** A value cell: plain text, a coloured text, or an amount (aligned on its number, currency after it). */
export type Cell =
  string | { text: string; style?: (s: string) => string; align?: 'left' | 'right' } | { amount: Amount };

export const amount = (value: string, currency: string): Cell => ({ amount: { value, currency } });
export const styled = (text: string, style: (s: string) => string): Cell => ({ text, style });
export const statusCell = (s: string): Cell => ({ text: s, style: (t) => t.replace(s, colourStatus(s)) });
export const dim = (text: string): Cell => ({ text, style: (t) => out.dim(t) });

/**
 * A count with thousands separators, for reading: `10000` → `10,000`. Amounts are never grouped: every view prints
 * them as the API writes them (`1000000.00 RUB`), so a value can be pasted back into a flag.
 */
export function groupedCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A signed difference as the API writes amounts: `+300.00`, `-4700.00`; zero has no sign (`0.00`). */
export function signedAmount(value: string): string {
  if (!/^[-+]?\d+(\.\d+)?$/.test(value)) return value;
  if (/^[-+]?0+(\.0+)?$/.test(value)) return value.replace(/^[-+]/, '');
  return value.startsWith('-') || value.startsWith('+') ? value : `+${value}`;
}

interface Laid {
  text: string;
  style?: (s: string) => string;
  align: 'left' | 'right';
}

/** Lay out one column: amounts get their numbers right-aligned and currencies left-aligned after them. */
function layColumn(cells: Cell[]): Laid[] {
  const amounts = cells.flatMap((c) => (typeof c === 'object' && 'amount' in c ? [c.amount] : []));
  const numWidth = Math.max(0, ...amounts.map((a) => a.value.length));
  const curWidth = Math.max(0, ...amounts.map((a) => a.currency.length));
  return cells.map((c): Laid => {
    if (typeof c === 'string') return { text: c, align: 'left' };
    if ('amount' in c) {
      const { value, currency } = c.amount;
      const neg = value.startsWith('-') || value.startsWith('−');
      return {
        text: `${value.padStart(numWidth)} ${currency.padEnd(curWidth)}`,
        align: 'right',
        ...(neg ? { style: (s: string) => out.red(s) } : {}),
      };
    }
    return { text: c.text, align: c.align ?? 'left', ...(c.style ? { style: c.style } : {}) };
  });
}

function paint(l: Laid, width: number, last: boolean): string {
  let padded = l.align === 'right' ? l.text.padStart(width) : last ? l.text : l.text.padEnd(width);
  if (l.style) padded = l.style(padded);
  return padded;
}

/** Rows of `label  value`, labels padded to one width; undefined rows are skipped. */
export function keyValue(rows: ReadonlyArray<readonly [string, Cell | undefined] | undefined>): string {
  const kept = rows.filter((r): r is readonly [string, Cell] => r !== undefined && r[1] !== undefined);
  const labelWidth = Math.max(0, ...kept.map(([k]) => k.length));
  const values = layColumn(kept.map(([, v]) => v));
  const amountWidth = Math.max(0, ...values.filter((v) => v.align === 'right').map((v) => v.text.length));
  return kept
    .map(([k], i) => {
      const v = values[i]!;
      const text = v.align === 'right' ? paint(v, amountWidth, true) : paint(v, 0, true);
      return `${out.bold(k.padEnd(labelWidth))}  ${text.trimEnd()}`;
    })
    .join('\n');
}

/** A table with a bold header row; columns holding amounts are right-aligned. */
export function table(headers: readonly string[], rows: readonly Cell[][]): string {
  const columns = headers.map((_, c) => layColumn(rows.map((r) => r[c] ?? '')));
  const widths = headers.map((h, c) => Math.max(h.length, ...columns[c]!.map((l) => l.text.length)));
  const rightCol = columns.map((col) => col.length > 0 && col.every((l) => l.align === 'right'));
  const last = headers.length - 1;
  const head = headers
    .map((h, c) => {
      const w = widths[c]!;
      return out.bold(rightCol[c] ? h.padStart(w) : c === last ? h : h.padEnd(w));
    })
    .join('  ');
  const body = rows.map((_, r) =>
    headers
      .map((__, c) => paint(columns[c]![r]!, widths[c]!, c === last))
      .join('  ')
      .trimEnd(),
  );
  return [head.trimEnd(), ...body].join('\n');
}

let wrote = false;
/** The command printed data on stdout: under `--json` an error then goes to stderr only (stdout stays one document). */
export function wroteStdout(): boolean {
  return wrote;
}

/** Print a block followed by a newline on stdout. */
export function print(text: string): void {
  wrote = true;
  process.stdout.write(`${text}\n`);
}

/** `--json`: exactly the response body, 2-space indented. */
export function printJson(body: unknown): void {
  wrote = true;
  process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
}

/** A note for the user on stderr (never part of the data on stdout). */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}
