// Where the dashboard's pages read from: a small data source — the operations (list, one, their stream), the request
// log (list, stream), who a credential is, and what exists (its sections and whether it has controls). The sandbox's
// own (`sandboxSource`) runs the sandbox's controls in process (invoke.ts, events.ts); the proxy's
// (src/proxy/dashboard.ts) reads what passed through `paygate proxy`. What differs is told by the source itself
// (its words, sections, panels, whether it has controls and violations), never by asking which one it is. Pages that need the sandbox's own state (Balances, Clock, Pool, Webhook
// endpoints, Workspaces) and every action read the sandbox's context (`sandboxOf`): they exist on the sandbox only.
import type { ListOperationsResponse, OperationDetails } from '../../contract/sandbox.js';
import type { RequestLogList } from '../../contract/support.js';
import type { z } from 'zod';
import type { RouteContext } from '../context.js';
import type { DashKey } from './messages.js';
import { streamControl } from './events.js';
import { invoke, refusalOf } from './invoke.js';
import type { DashRequest } from './request.js';
import { SECTIONS, type Section } from './sections.js';
import { SESSION_COOKIE } from './session.js';

/** A read's answer, or the refusal (status, code, message) a page shows. */
export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; code: string; message: string };

export type RequestLog = z.infer<typeof RequestLogList>;

/** A conformance violation the proxy saw (its checker's Violation, as the dashboard shows it). */
export interface ViolationRow {
  at: string | null;
  rule: string;
  section: string;
  endpoint: string;
  /** What was expected; what came. */
  message: string;
  operation_id: string | null;
  exchange: number;
}

/** The newest violations asked for, newest first, and how many there are in all. */
export interface ViolationRows {
  rows: readonly ViolationRow[];
  total: number;
}

/** A panel of an operation's page below its state diagram. */
export type OperationPanel = 'timeline' | 'violations' | 'receipts' | 'postings' | 'webhooks' | 'faults';

/** The words that differ with what the dashboard looks at (the sandbox itself, or the traffic a proxy passed). */
export interface SourceLabels {
  /** The sign-in form's lead, its field's label, and its refusal of a wrong credential. */
  readonly signInLead: DashKey;
  readonly signInLabel: DashKey;
  readonly signInWrong: DashKey;
  /** The footer's line saying what this is. */
  readonly footer: DashKey;
  /** The heading of an operation's record beside its fields. */
  readonly record: DashKey;
}

export interface DashSource {
  /** Its words: what it is, who signs in. */
  readonly labels: SourceLabels;
  /** The panels of an operation's page below its diagram, in order. */
  readonly operationPanels: readonly OperationPanel[];
  /** The sandbox's context: only the sandbox's own pages and the actions use it (undefined on the proxy). */
  readonly ctx: RouteContext | undefined;
  /** The session cookie's name: the sandbox's and the proxy's differ (a browser ignores the port). */
  readonly cookie: string;
  /** The sections offered, in the navigation's order (a section not here answers 404). */
  readonly sections: readonly Section[];
  /** Whether actions are offered (buttons on an operation, redeliver): false on the proxy. */
  readonly controls: boolean;
  /** The public URL of the app's root (its origin and path prefix); undefined: the request's own origin, no prefix. */
  publicRoot(): string | undefined;
  /** Whether the credential is an admin token this app takes (compared in constant time). */
  isAdmin(credential: string): boolean;
  /** The shop whose API key `credential` is, or undefined (the proxy takes no shop key). */
  shopOfKey(credential: string): string | undefined;
  /** The shops the admin may filter by. */
  shops(): readonly string[];
  /** operations.list in the scope of `shop` (undefined: every shop). */
  list(shop: string | undefined, query: Record<string, string | undefined>): Promise<Answer<ListOperationsResponse>>;
  /** operations.show: one operation (a refusal when there is none the session may see). */
  show(shop: string | undefined, id: string): Promise<Answer<OperationDetails>>;
  /** logs.list: the newest `limit` requests. */
  logs(shop: string | undefined, limit: number): Promise<Answer<RequestLog>>;
  /** The newest `limit` violations seen (all, or those on one operation; none on the sandbox), and their count. */
  violations(limit: number, operationId?: string): ViolationRows;
  /** GET <dashboard>/events: the operations stream (the page's filters, or `id=`) as the request's answer. */
  operationStream(req: DashRequest): Promise<unknown>;
  /** GET <dashboard>/requests/events: the request log's stream as the request's answer. */
  logStream(req: DashRequest): Promise<unknown>;
}

/** The sandbox's context of a page that exists on the sandbox only. */
export function sandboxOf(req: DashRequest): RouteContext {
  const ctx = req.d.source.ctx;
  if (!ctx) throw new Error('a sandbox page was reached on a dashboard with no sandbox');
  return ctx;
}

/** Run the control `id` with the session's scope; its answer or its refusal. */
async function answerOf<T>(
  ctx: RouteContext,
  id: 'operations.list' | 'operations.show' | 'logs.list',
  shop: string | undefined,
  query: Record<string, string | undefined>,
  params: Record<string, string> = {},
): Promise<Answer<T>> {
  try {
    return { ok: true, value: await invoke<T>(ctx, id, { shopId: shop ?? '', query, params }) };
  } catch (e) {
    const r = refusalOf(e);
    if (!r) throw e;
    return { ok: false, ...r };
  }
}

/** The sandbox's own source: its controls in process, with the session's scope in place of a key. */
export function sandboxSource(ctx: RouteContext, isAdmin: (credential: string) => boolean): DashSource {
  return {
    labels: {
      signInLead: 'signin.lead',
      signInLabel: 'signin.label',
      signInWrong: 'signin.wrong',
      footer: 'app.sandbox',
      record: 'op.support',
    },
    operationPanels: ['timeline', 'receipts', 'postings', 'webhooks', 'faults'],
    ctx,
    cookie: SESSION_COOKIE,
    sections: SECTIONS,
    controls: true,
    publicRoot: () => ctx.urls.paymentPage.replace(/\/pay$/, ''),
    isAdmin,
    shopOfKey(credential) {
      const a = ctx.service.authenticate(credential);
      return a.ok ? a.shopId : undefined;
    },
    shops: () => ctx.service.world.data.shops.map((s) => s.id),
    list: (shop, query) => answerOf<ListOperationsResponse>(ctx, 'operations.list', shop, query),
    show: (shop, id) => answerOf<OperationDetails>(ctx, 'operations.show', shop, {}, { id }),
    logs: (shop, limit) => answerOf<RequestLog>(ctx, 'logs.list', shop, { limit: String(limit) }),
    violations: () => ({ rows: [], total: 0 }),
    operationStream: (req) => streamControl(ctx, req, 'operations.stream'),
    logStream: (req) => streamControl(ctx, req, 'logs.stream'),
  };
}
