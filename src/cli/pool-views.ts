// Human views of the sandbox's pool and flexible-link controls (`paygate sandbox pool …`, `paygate sandbox links …`):
// a layout's result, the pool windows with their first slots and totals, the amount-read settings, and a link as the
// payer sees it. Labels are the wire field names, so they map one to one onto --json. Amounts are printed as the API
// writes them (`25000.00`); counts are grouped (`10,000 payouts`).
import type { Operation } from '../contract/index.js';
import type { LinkInfo, PoolLayoutResponse, PoolState, ReadSettings } from '../contract/sandbox.js';
import { out } from './colors.js';
import { amount, dim, groupedCount, keyValue, statusCell, table, type Cell } from './render.js';
import { operationView } from './views.js';

/** `1,234` */
const count = (n: number): string => groupedCount(n);

/** Sum of decimal strings with at most 2 decimals, exactly (in cents), as a scale-2 string. */
function sum(values: readonly string[]): string {
  let cents = 0n;
  for (const v of values) {
    const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(v);
    if (!m) continue;
    const c = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'));
    cents += m[1] ? -c : c;
  }
  const neg = cents < 0n;
  const abs = neg ? -cents : cents;
  return `${neg ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** `paygate sandbox pool layout`: how many payouts became slots, and the first and last in matching order. */
export function layoutView(res: PoolLayoutResponse, method: string): string {
  const kv = keyValue([
    [
      'created',
      `${count(res.created)} payout${res.created === 1 ? '' : 's'} ${out.dim('(slots of the pool, in matching order)')}`,
    ],
    ['rejected', res.rejected === 0 ? '0' : { text: `${count(res.rejected)}`, style: (t) => out.yellow(t) }],
    ['first_operation_id', res.first_operation_id ?? dim('—')],
    ['last_operation_id', res.last_operation_id ?? dim('—')],
  ]);
  const lines = [kv, ''];
  if (res.rejected > 0) {
    lines.push(
      `${out.yellow(`${count(res.rejected)} amount${res.rejected === 1 ? ' was' : 's were'} rejected`)} by the ordinary create rules (outside the route's limits, or beyond the balance plus overdraft):`,
      '  see them with `paygate sandbox operations --type payout --status rejected`.',
    );
  }
  lines.push(
    `See the slots with \`paygate sandbox pool show --method ${method}\` (admin token); payments of shops routed to this pool now match them.`,
  );
  return lines.join('\n');
}

/** One pool window: its rules and totals, then its first slots in matching order. */
function windowBlock(w: PoolState['pools'][number]): string {
  const head = `${out.bold(w.pool_id)}  ${w.method}  ${w.currency}`;
  const kv = keyValue([
    ['min_piece', amount(w.min_piece, w.currency)],
    ['min_remainder', amount(w.min_remainder, w.currency)],
    ['slots', `${count(w.slots)} open`],
    ['free_total', amount(w.free_total, w.currency)],
  ]);
  if (w.first.length === 0) {
    const why =
      w.slots === 0
        ? 'no open slots: lay out payouts with `paygate sandbox pool layout`'
        : 'no slots listed (--limit 0)';
    return `${head}\n${kv}\n\n${out.dim(why)}`;
  }
  const rows = w.first.map((s, i): Cell[] => [
    String(i + 1),
    s.payout_id,
    s.shop_id,
    amount(s.amount, w.currency),
    amount(s.claimed, w.currency),
    amount(s.paid, w.currency),
    amount(s.free, w.currency),
  ]);
  const shown = w.first.length;
  const total = (field: 'amount' | 'claimed' | 'paid' | 'free'): Cell =>
    amount(sum(w.first.map((s) => s[field])), w.currency);
  rows.push([
    '',
    { text: shown < w.slots ? `total of these ${count(shown)}` : 'total', style: (t) => out.bold(t) },
    '',
    total('amount'),
    total('claimed'),
    total('paid'),
    total('free'),
  ]);
  const foot =
    shown < w.slots
      ? `first ${count(shown)} of ${count(w.slots)} open slots, in matching order; --limit shows more (up to 1,000)`
      : `all ${count(shown)} open slot${shown === 1 ? '' : 's'}, in matching order`;
  return `${head}\n${kv}\n\n${table(['#', 'payout_id', 'shop_id', 'amount', 'claimed', 'paid', 'free'], rows)}\n${out.dim(foot)}`;
}

/** `paygate sandbox pool show`: every window (pool × method) with its totals, then totals across windows (when several). */
export function poolStateView(state: PoolState, method?: string): string {
  if (state.pools.length === 0) {
    return `${out.dim(method ? `no pool window for ${method}` : 'no pool windows')}: a window appears once a payout is routed to a pool.\nLay one out with \`paygate sandbox pool layout --method WT_RUB_C2C --count 100 --min 500.00 --max 50000.00\` and a pool shop's API key.`;
  }
  const blocks = state.pools.map(windowBlock);
  if (state.pools.length === 1) return blocks[0]!;
  const byCurrency = new Map<string, string[]>();
  for (const w of state.pools) byCurrency.set(w.currency, [...(byCurrency.get(w.currency) ?? []), w.free_total]);
  const slots = state.pools.reduce((n, w) => n + w.slots, 0);
  const free = [...byCurrency].map(([cur, totals]) => `${sum(totals)} ${cur}`).join(', ');
  const total = keyValue([
    ['windows', count(state.pools.length)],
    ['slots', `${count(slots)} open`],
    ['free_total', free],
  ]);
  return `${blocks.join('\n\n')}\n\n${out.bold('total')}\n${total}`;
}

/** `paygate sandbox pool settings`: the amount-read simulation, with what each value does. */
export function readSettingsView(s: ReadSettings): string {
  const latency =
    s.read_latency_ms === 0
      ? {
          text: '0 (reads answer at once)',
          style: (t: string) => t.replace('(reads answer at once)', out.dim('(reads answer at once)')),
        }
      : {
          text: `${s.read_latency_ms} (each availability / recommendations read holds the replica's read slot for ${s.read_latency_ms / 1000} s of sandbox time; reads over 2 s answer 503 read_timeout)`,
          style: (t: string) => t.replace(/ \(.*\)$/, (m) => out.dim(m)),
        };
  const rate = s.rate_limit
    ? {
        text: 'on (5 reads per second per shop; the 6th gets 429 rate_limited)',
        style: (t: string) => t.replace('on', out.green('on')),
      }
    : { text: 'off (lifted: no per-shop read limit)', style: (t: string) => t.replace('off', out.yellow('off')) };
  return keyValue([
    ['read_latency_ms', latency],
    ['rate_limit', rate],
  ]);
}

/** What the payer (or the merchant) can do next with a link in this status. */
function linkNext(l: LinkInfo): string {
  switch (l.status) {
    case 'amount_selection': {
      const bounds =
        l.min_amount !== null || l.max_amount !== null
          ? `${l.min_amount ?? 'the route minimum'} … ${l.max_amount ?? 'the route maximum'} ${l.currency}`
          : "the route's limits";
      return `The payer has not picked an amount yet (within ${bounds}). Act as the payer${l.expires_at ? ' before expires_at' : ''}:\n  paygate sandbox links confirm ${l.operation_id} --amount <amount>`;
    }
    case 'expired':
      return 'The link expired with no choice: nothing was created and a confirmation is refused (409). The merchant must create a new link.';
    case 'rejected':
      return 'Nothing was available when the link was created: there is no amount to confirm.';
    case 'confirmed':
      return `The payer confirmed ${l.confirmed_amount ?? ''} ${l.currency}: the payment exists under this operation_id; see it with \`paygate state ${l.operation_id}\`.`;
  }
}

/** `paygate sandbox links show`: a flexible link as the sandbox keeps it, and the next step. */
export function linkView(l: LinkInfo): string {
  const kv = keyValue([
    ['operation_id', l.operation_id],
    ['merchant_operation_id', l.merchant_operation_id],
    ['status', statusCell(l.status)],
    ['method', l.method],
    ['recommended_amount', amount(l.recommended_amount, l.currency)],
    ['min_amount', l.min_amount === null ? dim("— (none: the route's limits)") : amount(l.min_amount, l.currency)],
    ['max_amount', l.max_amount === null ? dim("— (none: the route's limits)") : amount(l.max_amount, l.currency)],
    ['expires_at', l.expires_at ?? dim('—')],
    ['confirmed_amount', l.confirmed_amount === null ? dim('—') : amount(l.confirmed_amount, l.currency)],
    ['created_at', l.created_at],
  ]);
  return `${kv}\n\n${linkNext(l)}`;
}

/** `paygate sandbox links confirm`: the payment created for the chosen amount, with the existing operation view. */
export function confirmedLinkView(op: Operation): string {
  const note =
    op.status === 'rejected'
      ? `${out.red('rejected:')} the pool could no longer take ${op.expected_amount} ${op.currency} (taken in the meantime); the payment exists, rejected.`
      : `The payer confirmed ${op.expected_amount} ${op.currency}: the payment was created under the link's operation_id.`;
  return `${operationView(op)}\n\n${note}`;
}
