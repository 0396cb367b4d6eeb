// What every check of one exchange shares: the exchange, the endpoint it reached, and the list its violations go to.
import { endpoints, type EndpointDef, type EndpointId } from '../contract/endpoints.js';
import { sectionOf } from './catalogue.js';
import type { CoreRuleId } from './rules/core.js';
import type { WebhookRuleId } from './rules/webhook.js';
import type { Exchange, Violation } from './types.js';

export interface Found {
  operationId?: string | undefined;
  merchantOperationId?: string | undefined;
  related?: number[] | undefined;
}

export interface CheckContext {
  readonly x: Exchange;
  /** The endpoint of the contract the request reached, or undefined. */
  readonly endpoint: EndpointDef | undefined;
  /** Its dotted id, or 'METHOD /path'. */
  readonly name: string;
  readonly out: Violation[];
  /** The merchant_operation_id the request named, if any. */
  readonly moid: string | undefined;
  /** Whether a request.* rule fired on this exchange. */
  requestRefused: boolean;
  report(rule: CoreRuleId | WebhookRuleId, expected: string, got: string, found?: Found): void;
}

const BY_ROUTE = new Map<string, EndpointDef>(
  Object.values(endpoints).map((e) => [`${e.method} ${e.path}`, e as EndpointDef]),
);

/** The endpoint of the contract a method and path (no query) name, or undefined. */
export function endpointOf(method: string, path: string): EndpointDef | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const m = method.toUpperCase();
  // HEAD is a GET without the body (RFC 9110): it reaches the GET row.
  return BY_ROUTE.get(`${m === 'HEAD' ? 'GET' : m} ${trimmed}`);
}

/** Whether the path is one the gateway's contract covers: under /v1, or a health probe. */
export const isGatewayPath = (path: string): boolean =>
  path === '/v1' || path.startsWith('/v1/') || path === '/livez' || path === '/healthz' || path === '/readyz';

export const isEndpoint = (e: EndpointDef | undefined, id: EndpointId): boolean => e?.id === id;

/** `as`: the endpoint whose rules apply and the name violations carry, when not the request's (a webhook). */
export function contextOf(
  x: Exchange,
  out: Violation[],
  as?: { endpoint: EndpointDef | undefined; name: string },
): CheckContext {
  const endpoint = as ? as.endpoint : endpointOf(x.request.method, x.request.path);
  const body = x.request.body;
  const moid =
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Record<string, unknown>).merchant_operation_id === 'string'
      ? ((body as Record<string, unknown>).merchant_operation_id as string)
      : undefined;
  const ctx: CheckContext = {
    x,
    endpoint,
    name: as?.name ?? endpoint?.id ?? `${x.request.method} ${x.request.path}`,
    out,
    moid,
    requestRefused: false,
    report(rule, expected, got, found) {
      const v: Violation = {
        rule,
        section: sectionOf(rule),
        endpoint: ctx.name,
        expected: expected.startsWith('expected ') ? expected : `expected ${expected}`,
        got: got.startsWith('got ') ? got : `got ${got}`,
        exchange: x.seq,
        at: x.startedAt,
      };
      const opId = found?.operationId;
      if (opId !== undefined) v.operationId = opId;
      const m = found?.merchantOperationId ?? moid;
      if (m !== undefined) v.merchantOperationId = m;
      if (found?.related?.length) v.related = found.related;
      out.push(v);
    },
  };
  return ctx;
}

/** A value as a violation quotes it: JSON, cut at 80 characters. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const s = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
