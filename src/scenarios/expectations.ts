// Checking what a step expected against what came back: HTTP status, error code, response fields (values and
// matchers), balances (after, and as a per-currency delta, in exact decimals) and the webhook events it caused.
// Each check returns the mismatches it found; none means it held.
import { Decimal } from 'decimal.js';
import type { Expect, Matcher } from './format.js';
import type { ReceivedEvent } from './receiver.js';
import { getPath } from './template.js';

export interface Mismatch {
  /** What was checked, e.g. `status`, `body.status`, `balance_delta.RUB.balance`, `webhooks`. */
  what: string;
  expected: unknown;
  actual: unknown;
  note?: string;
}

export const ABSENT = '(absent)';

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b as object, k) &&
        deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** One field against its matcher. */
export function checkField(what: string, path: string, matcher: Matcher, root: unknown): Mismatch | undefined {
  const { found, value } = getPath(root, path.split('.'));
  const actual = found ? value : ABSENT;
  if (matcher !== null && typeof matcher === 'object') {
    if ('absent' in matcher) return found ? { what, expected: ABSENT, actual } : undefined;
    if ('present' in matcher) return found ? undefined : { what, expected: '(present)', actual };
    if ('matches' in matcher) {
      const ok = found && value !== undefined && new RegExp(matcher.matches).test(asText(value));
      return ok ? undefined : { what, expected: `matches /${matcher.matches}/`, actual };
    }
    if ('length' in matcher) {
      const len = Array.isArray(value) || typeof value === 'string' ? value.length : undefined;
      return len === matcher.length
        ? undefined
        : ({
            what,
            expected: `length ${matcher.length}`,
            actual,
            note: len === undefined ? undefined : `length ${len}`,
          } as Mismatch);
    }
    return found && deepEqual(value, matcher.equals) ? undefined : { what, expected: matcher.equals, actual };
  }
  return found && deepEqual(value, matcher) ? undefined : { what, expected: matcher, actual };
}

export function checkFields(prefix: string, fields: Record<string, Matcher> | undefined, root: unknown): Mismatch[] {
  if (!fields) return [];
  return Object.entries(fields).flatMap(([path, m]) => checkField(`${prefix}.${path}`, path, m, root) ?? []);
}

/** Status (default: the endpoint's success status unless an error `code` is expected) and error code. */
export function checkStatus(expect: Expect | undefined, okStatus: number, status: number, body: unknown): Mismatch[] {
  const out: Mismatch[] = [];
  if (expect?.status !== undefined) {
    if (status !== expect.status) out.push({ what: 'status', expected: expect.status, actual: status });
  } else if (expect?.code !== undefined) {
    if (status < 400) out.push({ what: 'status', expected: 'an error status (4xx or 5xx)', actual: status });
  } else if (status !== okStatus) out.push({ what: 'status', expected: okStatus, actual: status });
  if (expect?.code !== undefined) {
    const code = getPath(body, ['code']);
    if (!code.found || code.value !== expect.code)
      out.push({ what: 'code', expected: expect.code, actual: code.found ? code.value : ABSENT });
  }
  return out;
}

export type BalanceRows = Map<string, Record<string, string>>;

export function balanceRows(body: unknown): BalanceRows {
  const rows = (body as { balances?: { currency: string }[] } | undefined)?.balances ?? [];
  return new Map(rows.map((r) => [r.currency, r as unknown as Record<string, string>]));
}

function dec(v: unknown): Decimal | undefined {
  try {
    return typeof v === 'string' || typeof v === 'number' ? new Decimal(v) : undefined;
  } catch {
    return undefined;
  }
}

const signed = (d: Decimal): string =>
  d.isPositive() && !d.isZero() ? `+${d.toFixed(2)}` : d.isZero() ? '0.00' : d.toFixed(2);

/** Balance figures after the step, compared as exact decimals. */
export function checkBalances(expect: Expect['balances'], after: BalanceRows): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [cur, figures] of Object.entries(expect ?? {})) {
    for (const [name, want] of Object.entries(figures)) {
      const got = after.get(cur)?.[name];
      const w = dec(want);
      const g = dec(got);
      if (!w)
        out.push({
          what: `balances.${cur}.${name}`,
          expected: want,
          actual: got ?? ABSENT,
          note: 'the expected value is not a decimal',
        });
      else if (!g || !g.eq(w)) out.push({ what: `balances.${cur}.${name}`, expected: want, actual: got ?? ABSENT });
    }
  }
  return out;
}

/** How much each figure moved during the step, compared as exact decimals. */
export function checkBalanceDelta(
  expect: Expect['balance_delta'],
  before: BalanceRows,
  after: BalanceRows,
): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [cur, figures] of Object.entries(expect ?? {})) {
    for (const [name, want] of Object.entries(figures)) {
      const w = dec(want);
      const b = dec(before.get(cur)?.[name]);
      const a = dec(after.get(cur)?.[name]);
      const what = `balance_delta.${cur}.${name}`;
      if (!w) out.push({ what, expected: want, actual: '?', note: 'the expected delta is not a decimal' });
      else if (!a || !b) out.push({ what, expected: signed(w), actual: ABSENT, note: `no ${cur} row in the balances` });
      else if (!a.minus(b).eq(w))
        out.push({
          what,
          expected: signed(w),
          actual: signed(a.minus(b)),
          note: `${name} ${b.toFixed(2)} → ${a.toFixed(2)}`,
        });
    }
  }
  return out;
}

/** The events a step caused, oldest first (by the time the status changed, then by arrival). */
export function orderEvents(events: ReceivedEvent[]): ReceivedEvent[] {
  return [...events].sort((x, y) => x.event.created_at.localeCompare(y.event.created_at) || x.seq - y.seq);
}

export function checkWebhooks(expected: string[] | undefined, events: ReceivedEvent[]): Mismatch[] {
  if (expected === undefined) return [];
  const out: Mismatch[] = [];
  const types = events.map((e) => e.event.type);
  if (!deepEqual(types, expected)) out.push({ what: 'webhooks', expected, actual: types });
  for (const e of events) {
    if (!e.verified)
      out.push({ what: `webhook ${e.event.id}`, expected: 'a valid signature', actual: e.error ?? 'not verified' });
  }
  return out;
}
