// `paygate ops show`: one operation explained for support staff — a summary with the outcome and its reason, the
// timeline (the request, each transition with its cause, each receipt with the amount found, each webhook attempt,
// each injected fault, in time order), then the receipts, the webhook deliveries and the ledger postings.
import type { OperationDetails } from '../contract/sandbox.js';
import { out, status as colourStatus } from './colors.js';
import { faultEventsView } from './fault-views.js';
import { amount, dim, keyValue, statusCell, table, type Cell } from './render.js';
import { shortTime } from './support-views.js';

interface Moment {
  at: string;
  /**
   * Order among moments of the same instant (a frozen sandbox clock makes many): the request, the move that created
   * it, a fault, a receipt, the move the receipt caused, the webhooks.
   */
  rank: number;
  what: Cell;
  detail: Cell;
}

function requestMoment(d: OperationDetails): Moment {
  return {
    at: d.created_at,
    rank: 0,
    what: 'request',
    detail: `create ${d.operation.type} ${d.operation.expected_amount} ${d.operation.currency} by ${d.operation.method} (shop ${d.shop_id}, client ${d.client_id}, merchant_operation_id ${d.merchant_operation_id})`,
  };
}

function transitionMoments(d: OperationDetails): Moment[] {
  return d.history.map((h) => ({
    at: h.at,
    rank: h.from === null ? 1 : 4,
    what: 'transition',
    detail: {
      text: `${h.from ?? '—'} → ${h.to}  (${h.cause})`,
      style: (t) =>
        t.replace(/^([a-z_—]+) → ([a-z_]+)/, (_m, a: string, b: string) => `${colourStatus(a)} → ${colourStatus(b)}`),
    },
  }));
}

function uploadMoments(d: OperationDetails): Moment[] {
  return d.uploads.map((u) => ({
    at: u.uploaded_at,
    rank: 3,
    what: 'receipt',
    detail: `${u.filename}: ${u.amount !== undefined ? `${u.amount} ${d.operation.currency} found` : 'no amount found'} → ${u.review.to} (${u.review.rule}${u.review.reason ? `, ${u.review.reason}` : ''})`,
  }));
}

function webhookMoments(d: OperationDetails): Moment[] {
  return d.webhooks.flatMap((w) =>
    w.attempts.map((a, i) => ({
      at: a.at,
      rank: 5,
      what: 'webhook',
      detail: {
        text: `${w.event_type} attempt ${i + 1} → ${a.status_code !== undefined ? a.status_code : (a.error ?? 'no answer')} (${a.duration_ms} ms) ${w.url}`,
        style: (t: string) => (a.status_code !== undefined && a.status_code < 300 ? t : out.yellow(t)),
      },
    })),
  );
}

function faultMoments(d: OperationDetails): Moment[] {
  return (d.faults ?? []).map((f) => ({
    at: f.at,
    rank: 2,
    what: 'fault',
    detail: {
      text: `${f.endpoint}: ${f.kind === 'status' ? `${f.status} ${f.code}` : f.kind === 'latency' ? `+${f.latency_ms} ms` : f.kind === 'drift' ? `drift ${f.drift}` : 'response dropped'} (${f.fault_id})`,
      style: (t) => out.red(t),
    },
  }));
}

/** Everything that happened to the operation, in time order. */
export function timeline(d: OperationDetails): string {
  const moments = [
    requestMoment(d),
    ...faultMoments(d),
    ...uploadMoments(d),
    ...transitionMoments(d),
    ...webhookMoments(d),
  ]
    .map((m, i) => ({ m, i }))
    .sort((x, y) => (x.m.at < y.m.at ? -1 : x.m.at > y.m.at ? 1 : x.m.rank - y.m.rank || x.i - y.i))
    .map(({ m }): Cell[] => [shortTime(m.at), m.what, m.detail]);
  return table(['at', 'what', 'detail'], moments);
}

/** What the status means for support staff, in a few words. */
function outcome(d: OperationDetails): string {
  const s = d.operation.status;
  const why = d.reason ? `: ${d.reason}` : '';
  if (s === 'completed') {
    return d.operation.actual_amount === d.operation.expected_amount
      ? `completed for the expected amount${why}`
      : `completed for ${d.operation.actual_amount} ${d.operation.currency} (expected ${d.operation.expected_amount})${why}`;
  }
  if (s === 'rejected' || s === 'cancelled') return `ended ${s}${why}`;
  if (s === 'manual_check')
    return `waiting for a reviewer (${d.operation.manual_check_reason ?? 'potential_fake'})${why}`;
  return `not finished: ${s}${why}`;
}

function summary(d: OperationDetails): string {
  const op = d.operation;
  return keyValue([
    ['operation_id', op.operation_id],
    ['shop_id', d.shop_id],
    ['merchant_operation_id', d.merchant_operation_id],
    ['client_id', d.client_id],
    ['type', op.type],
    ['method', op.method],
    ['status', statusCell(op.status)],
    ['outcome', outcome(d)],
    ['expected_amount', amount(op.expected_amount, op.currency)],
    ['actual_amount', amount(op.actual_amount, op.currency)],
    ['commission_amount', amount(op.commission_amount, op.settlement_currency)],
    ['settlement_amount', amount(op.settlement_amount, op.settlement_currency)],
    ['created_at', d.created_at],
    ['updated_at', d.updated_at],
    op.expires_at !== undefined ? ['expires_at', op.expires_at] : undefined,
    ['receipt_evidence_status', statusCell(op.receipt_evidence_status)],
  ]);
}

function receiptsBlock(d: OperationDetails): string {
  if (d.uploads.length === 0) return out.dim('no receipts uploaded');
  return table(
    ['uploaded_at', 'filename', 'size', 'amount found', 'rule', 'outcome', 'reason'],
    d.uploads.map((u): Cell[] => [
      shortTime(u.uploaded_at),
      u.filename,
      { text: `${u.size} B`, align: 'right' },
      u.amount !== undefined ? amount(u.amount, d.operation.currency) : dim('none'),
      u.review.rule,
      statusCell(u.review.to),
      u.review.reason ?? dim('—'),
    ]),
  );
}

function webhooksBlock(d: OperationDetails): string {
  if (d.webhooks.length === 0)
    return out.dim('no webhook deliveries (no endpoint registered for the shop, or no event yet)');
  return table(
    ['event_type', 'url', 'status', 'attempts', 'next_attempt_at'],
    d.webhooks.map((w): Cell[] => [
      w.event_type,
      w.url,
      {
        text: w.status,
        style: (t) => (w.status === 'succeeded' ? out.green(t) : w.status === 'failed' ? out.red(t) : out.yellow(t)),
      },
      { text: String(w.attempts.length), align: 'right' },
      w.next_attempt_at ? shortTime(w.next_attempt_at) : w.error ? dim(w.error) : dim('—'),
    ]),
  );
}

function postingsBlock(d: OperationDetails): string {
  if (d.postings.length === 0) return out.dim('no ledger postings (no money moved)');
  return table(
    ['at', 'kind', 'source', 'destination', 'amount'],
    d.postings.map((p): Cell[] => [shortTime(p.at), p.kind, p.source, p.destination, amount(p.amount, p.currency)]),
  );
}

/** `paygate ops show`. */
export function opsShowView(d: OperationDetails): string {
  const blocks = [
    summary(d),
    `${out.bold('timeline')}\n${timeline(d)}`,
    `${out.bold('receipts')}\n${receiptsBlock(d)}`,
    `${out.bold('webhooks')}\n${webhooksBlock(d)}`,
    `${out.bold('postings')}\n${postingsBlock(d)}`,
  ];
  if (d.faults && d.faults.length > 0) blocks.push(`${out.bold('injected faults')}\n${faultEventsView(d.faults)}`);
  return blocks.join('\n\n');
}
