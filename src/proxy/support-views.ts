// The sandbox's support controls, answered by the proxy from what passed through it (support-model.ts), so that
// `paygate ops list | show | watch` and `paygate logs tail` work pointed at the proxy with its admin token:
// GET /sandbox/operations, /sandbox/operations/:id, /sandbox/operations/stream, /sandbox/logs, /sandbox/logs/stream.
// Queries are checked with the contract's own schemas (400 validation_error as the sandbox answers); the answers have
// the contract's shapes (src/contract/sandbox.ts, support.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { money } from '../domain/money.js';
import type { z } from 'zod';
import { Uuid } from '../contract/money.js';
import {
  ListOperationsQuery,
  type ListOperationsResponse,
  type OperationDetails,
  type OperationRow,
} from '../contract/sandbox.js';
import { LogsQuery, LogsStreamQuery, StreamOperationsQuery, supportControls } from '../contract/support.js';
import { sandboxControls } from '../contract/controls.js';
import { type LogEntry, type SeenOperation, type SupportModel } from './support-model.js';
import { serveEventStream, type EventSink, type ProxyStreamGate } from './sse.js';

/** The controls' paths, from the contract. */
const PATHS = {
  list: sandboxControls['operations.list'].path,
  stream: supportControls['operations.stream'].path,
  logs: supportControls['logs.list'].path,
  logStream: supportControls['logs.stream'].path,
};

const TERMINAL = new Set(['completed', 'cancelled', 'rejected']);

/** The control paths answered here. */
export function isSupportPath(path: string): boolean {
  return path === PATHS.logs || path === PATHS.logStream || path === PATHS.list || path.startsWith(`${PATHS.list}/`);
}

/** A support read refused: its status, code and message, as the sandbox answers them. */
export class Refused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The query checked with `schema`, or a 400 saying what is wrong (as the sandbox words it). */
function parseQuery<S extends z.ZodType>(schema: S, search: URLSearchParams): z.output<S> {
  const r = schema.safeParse(Object.fromEntries(search));
  if (r.success) return r.data as z.output<S>;
  const parts = r.error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  throw new Refused(400, 'validation_error', parts.join('; '));
}

type ListQuery = z.output<typeof ListOperationsQuery>;
type Filters = Omit<ListQuery, 'limit' | 'offset' | 'starting_after'>;

function matches(row: OperationRow, f: Partial<Filters>): boolean {
  if (f.status !== undefined && row.status !== f.status) return false;
  if (f.type !== undefined && row.type !== f.type) return false;
  if (f.method !== undefined && row.method !== f.method) return false;
  if (f.client_id !== undefined && row.client_id !== f.client_id) return false;
  if (f.merchant_operation_id !== undefined && row.merchant_operation_id !== f.merchant_operation_id) return false;
  if (f.shop !== undefined && row.shop_id !== f.shop) return false;
  if (f.since !== undefined && Date.parse(row.created_at) < Date.parse(f.since)) return false;
  if (f.until !== undefined && Date.parse(row.created_at) >= Date.parse(f.until)) return false;
  if (f.min_amount !== undefined && money(row.expected_amount).lt(f.min_amount)) return false;
  if (f.max_amount !== undefined && money(row.expected_amount).gt(f.max_amount)) return false;
  return true;
}

/** Every operation with a valid row, newest first (first seen, then id). */
function rows(model: SupportModel): OperationRow[] {
  const out: OperationRow[] = [];
  for (const op of model.operations.values()) {
    const row = model.rowOf(op);
    if (row) out.push(row);
  }
  return out.sort((a, b) =>
    a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : a.operation_id < b.operation_id ? 1 : -1,
  );
}

/** GET /sandbox/operations: a page of the operations seen, filtered (throws Refused). */
export function list(model: SupportModel, search: URLSearchParams): ListOperationsResponse {
  const q = parseQuery(ListOperationsQuery, search);
  const all = rows(model).filter((r) => matches(r, q));
  let start = q.offset;
  if (q.starting_after !== undefined) {
    const i = all.findIndex((r) => r.operation_id === q.starting_after);
    if (i < 0) {
      throw new Refused(
        400,
        'validation_error',
        'starting_after: no such cursor (the operation is gone); list again from the first page',
      );
    }
    start += i + 1;
  }
  const page = all.slice(start, start + q.limit);
  const hasMore = start + q.limit < all.length;
  return {
    total: all.length,
    operations: page,
    has_more: hasMore,
    next_cursor: hasMore ? page.at(-1)!.operation_id : null,
  };
}

/** The operation a support read names: an operation_id, or a merchant_operation_id (shop= when several use it). */
function resolve(
  model: SupportModel,
  ref: { operation_id: string } | { merchant_operation_id: string },
  shop?: string,
): SeenOperation {
  const found =
    'operation_id' in ref
      ? [model.operations.get(ref.operation_id.toLowerCase())].filter((op) => op !== undefined)
      : [...model.operations.values()].filter((op) => op.merchantOperationId === ref.merchant_operation_id);
  const mine = found.filter((op) => shop === undefined || op.shop === shop);
  const shops = new Set(mine.map((op) => op.shop));
  if (shops.size > 1) {
    throw new Refused(
      409,
      'ambiguous_reference',
      `merchant_operation_id is used by several shops (${[...shops].join(', ')}); pass shop=`,
    );
  }
  const op = mine.at(-1);
  if (!op || !model.rowOf(op))
    throw new Refused(404, 'operation_not_found', 'operation not found (the proxy has not seen it)');
  return op;
}

function decoded(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    throw new Refused(400, 'validation_error', 'operation id: not a valid percent-encoded path segment');
  }
}

const refOf = (id: string) => (Uuid.safeParse(id).success ? { operation_id: id } : { merchant_operation_id: id });

/** The operation's details; its history the status moves with its violations (`withViolations`) or without. */
function details(model: SupportModel, op: SeenOperation, withViolations: boolean): OperationDetails {
  const { shop_id, merchant_operation_id, client_id, created_at, updated_at, reason, ...operation } = model.rowOf(op)!;
  return {
    operation: { ...operation, ...(op.state ?? { receipts: [], receipt_evidence_status: 'not_ready' }) },
    shop_id,
    merchant_operation_id,
    client_id,
    created_at,
    updated_at,
    reason,
    history: withViolations ? model.timelineOf(op) : op.timeline,
    uploads: [],
    webhooks: [],
    postings: [],
  };
}

/**
 * GET /sandbox/operations/:id (throws Refused): its history with the violations seen on it, or (the dashboard, which
 * shows them itself) the status moves only.
 */
export function show(
  model: SupportModel,
  id: string,
  search: URLSearchParams,
  withViolations = true,
): OperationDetails {
  const moid = search.get('merchant_operation_id');
  if (id === '-' && moid)
    return details(
      model,
      resolve(model, { merchant_operation_id: moid }, search.get('shop') ?? undefined),
      withViolations,
    );
  if (!Uuid.safeParse(id).success) {
    throw new Refused(
      400,
      'validation_error',
      'operation id must be a UUID (or use /sandbox/operations/-?merchant_operation_id=…)',
    );
  }
  return details(model, resolve(model, { operation_id: id }, search.get('shop') ?? undefined), withViolations);
}

/** The operations stream's feed for `search` (the listing's filters, or `id=` one until terminal); throws Refused. */
export function operationsFeed(model: SupportModel, search: URLSearchParams): (sink: EventSink) => () => void {
  const q = parseQuery(StreamOperationsQuery, search);
  const one = q.id !== undefined ? resolve(model, refOf(q.id), q.shop) : undefined;
  return (sink) => {
    if (one) {
      const row = model.rowOf(one)!;
      sink.send('operation', row);
      if (TERMINAL.has(row.status)) {
        sink.end();
        return () => undefined;
      }
    }
    const listener = (op: SeenOperation) => {
      const row = model.rowOf(op);
      if (!row || (one ? op !== one : !matches(row, q))) return;
      sink.send('operation', row);
      if (one && TERMINAL.has(row.status)) sink.end();
    };
    model.operationListeners.add(listener);
    return () => model.operationListeners.delete(listener);
  };
}

function streamOperations(
  model: SupportModel,
  gate: ProxyStreamGate,
  search: URLSearchParams,
  res: ServerResponse,
): void {
  serveEventStream(gate, 'admin', res, operationsFeed(model, search));
}

type LogFilter = z.output<typeof LogsStreamQuery>;

function logMatches(e: LogEntry, f: Omit<LogFilter, 'backlog'>): boolean {
  if (f.shop !== undefined && e.shop_id !== f.shop) return false;
  if (f.method && e.method !== f.method.toUpperCase()) return false;
  if (f.path && !e.path.startsWith(f.path)) return false;
  if (f.errors === 'true' && e.status < 400) return false;
  if (f.status) {
    const cls = /^([1-5])xx$/i.exec(f.status);
    if (cls ? Math.floor(e.status / 100) !== Number(cls[1]) : String(e.status) !== f.status) return false;
  }
  return true;
}

/** The newest `n` matching entries, newest first. */
export function recent(model: SupportModel, f: Omit<LogFilter, 'backlog'>, n: number): LogEntry[] {
  const out: LogEntry[] = [];
  for (let i = model.requests.length - 1; i >= 0 && out.length < n; i--) {
    if (logMatches(model.requests[i]!, f)) out.push(model.requests[i]!);
  }
  return out;
}

/** The request log's stream feed for `search` (its filters, a backlog first); throws Refused. */
export function logsFeed(model: SupportModel, search: URLSearchParams): (sink: EventSink) => () => void {
  const q = parseQuery(LogsStreamQuery, search);
  return (sink) => {
    for (const e of recent(model, q, q.backlog).reverse()) sink.send('request', e, e.id);
    const listener = (e: LogEntry) => {
      if (logMatches(e, q)) sink.send('request', e, e.id);
    };
    model.requestListeners.add(listener);
    return () => model.requestListeners.delete(listener);
  };
}

function streamLogs(model: SupportModel, gate: ProxyStreamGate, search: URLSearchParams, res: ServerResponse): void {
  serveEventStream(gate, 'admin', res, logsFeed(model, search));
}

/** Answer one support control (the caller checked the admin token). */
export function serveSupport(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  model: SupportModel,
  gate: ProxyStreamGate,
): void {
  const search = new URL(req.url ?? '/', 'http://proxy').searchParams;
  try {
    if (req.method !== 'GET') throw new Refused(405, 'method_not_allowed', `${path} takes GET`);
    if (path === PATHS.list) return send(res, 200, list(model, search));
    if (path === PATHS.stream) return streamOperations(model, gate, search, res);
    if (path === PATHS.logs) {
      const q = parseQuery(LogsQuery, search);
      return send(res, 200, { requests: recent(model, q, q.limit) });
    }
    if (path === PATHS.logStream) return streamLogs(model, gate, search, res);
    const id = /^\/sandbox\/operations\/([^/]+)$/.exec(path)?.[1];
    if (id !== undefined) return send(res, 200, show(model, decoded(id), search));
    throw new Refused(
      404,
      'not_found',
      `${path}: the proxy answers GET /sandbox/operations[/:id|/stream] and /sandbox/logs[/stream]`,
    );
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    send(res, e.status, { code: e.code, message: e.message });
  }
}
