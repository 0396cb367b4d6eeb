// The answer of an exchange against the contract for its endpoint and status (spec §4, §5, §7): a declared status,
// the spec's 401 messages, the fields of a successful answer, and the headers the spec asks for.
import { answeredErrors, API_KEY_401 } from '../contract/statuses.js';
import { successStatus } from '../contract/endpoint-row.js';
import type { EndpointDef } from '../contract/endpoints.js';
import { isObject, shown, type CheckContext } from './context.js';
import { shapeIssues } from './shape.js';

const declared = new Map<string, Set<number>>();

/** Every status the contract declares for an endpoint: its success and every error it can answer. */
export function declaredStatuses(e: EndpointDef): Set<number> {
  let s = declared.get(e.id);
  if (!s) {
    s = new Set([successStatus(e), ...answeredErrors(e)]);
    declared.set(e.id, s);
  }
  return s;
}

/** Fields a presence or evidence rule speaks for (not reported again as unknown or malformed). */
const OWN_RULE = new Set(['payment_url', 'receipts', 'receipt_evidence_status']);
const AMOUNT_READS = new Set(['payment.availability', 'payment.recommendations']);

const ok = (status: number) => status >= 200 && status < 300;

/** The answer's violations; true when it is a successful answer whose body the later rules may read. */
export function checkResponse(ctx: CheckContext): boolean {
  const { x, endpoint } = ctx;
  const status = x.response.status;
  if (ctx.requestRefused && ok(status))
    ctx.report('response.accepted_invalid_request', '400: the contract refuses this request', `${status}`);
  if (!endpoint) return false;
  if (endpoint.auth === 'key') checkAuth(ctx, status);
  const statuses = declaredStatuses(endpoint);
  if (!statuses.has(status)) {
    ctx.report('response.undeclared_status', `one of ${[...statuses].sort((a, b) => a - b).join(', ')}`, `${status}`);
    return false;
  }
  checkHeaders(ctx, endpoint, status);
  if (!ok(status) || !endpoint.response || x.request.method === 'HEAD') return false;
  const body = x.response.body;
  if (body === undefined) {
    ctx.report(
      'response.not_json',
      'a JSON body',
      x.response.bodyText === undefined ? 'no body' : shown(x.response.bodyText),
    );
    return false;
  }
  for (const issue of shapeIssues(endpoint.response, body)) {
    const leaf = issue.path.slice(issue.path.lastIndexOf('.') + 1);
    if (issue.kind === 'unknown' ? OWN_RULE.has(leaf) : issue.kind === 'format' && leaf === 'receipt_evidence_status')
      continue;
    const opId = operationIdIn(body);
    const found = opId ? { operationId: opId } : undefined;
    if (issue.kind === 'missing')
      ctx.report('response.missing_field', `${issue.path} present`, `${issue.path} absent`, found);
    else if (issue.kind === 'unknown')
      ctx.report('response.unknown_field', `no field ${issue.path}`, `${issue.path} ${shown(issue.got)}`, found);
    else
      ctx.report(
        'response.bad_format',
        `${issue.path === '' ? 'the body' : issue.path}: ${issue.expected}`,
        `${shown(issue.got)}`,
        found,
      );
  }
  return isObject(body);
}

/** The operation id an answer carries (an operation, or a cancel's `{ operation }`). */
export function operationIdIn(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  if (typeof body.operation_id === 'string') return body.operation_id;
  return isObject(body.operation) && typeof body.operation.operation_id === 'string'
    ? body.operation.operation_id
    : undefined;
}

function checkAuth(ctx: CheckContext, status: number): void {
  const keyless = ctx.x.credential === undefined;
  if (keyless && status !== 401) {
    ctx.report(
      'auth.key_required',
      `401 "${API_KEY_401.missing.message}" for a request without X-API-Key`,
      `${status}`,
    );
    return;
  }
  if (status !== 401) return;
  const want = keyless ? API_KEY_401.missing.message : API_KEY_401.invalid.message;
  const body = ctx.x.response.body;
  const message = isObject(body) ? body.message : undefined;
  if (message !== want)
    ctx.report('auth.message', `message "${want}"`, message === undefined ? 'no message' : `message ${shown(message)}`);
}

function checkHeaders(ctx: CheckContext, endpoint: EndpointDef, status: number): void {
  const headers = ctx.x.response.headers;
  if (endpoint.id === 'payment.availability' && status === 200 && !/\bno-store\b/i.test(headers['cache-control'] ?? ''))
    ctx.report('response.no_store', 'Cache-Control: no-store', `Cache-Control ${shown(headers['cache-control'])}`);
  if (status === 429 && AMOUNT_READS.has(endpoint.id) && headers['retry-after'] === undefined)
    ctx.report('response.retry_after', 'a Retry-After header on the 429', 'none');
}
