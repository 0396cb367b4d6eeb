// The failure cases the spec names for each gateway endpoint (§4, §7): the status, the `{ code, message }` body
// each answers and the condition it stands for — the table fault injection draws from (src/contract/faults.ts).
import { endpoints, type EndpointId } from './endpoints.js';
import { operationIdOf } from './endpoint-row.js';

/** One failure case the spec names for an endpoint: the status, and the `{ code, message }` body it answers. */
export interface FaultCase {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** The condition of spec §7 (or the endpoint's section) this case stands for. */
  readonly condition: string;
  /** Seconds of the Retry-After header the answer carries; none when absent. */
  readonly retryAfter?: number;
}

const c = (status: number, code: string, message: string, condition: string, retryAfter?: number): FaultCase => ({
  status,
  code,
  message,
  condition,
  ...(retryAfter !== undefined ? { retryAfter } : {}),
});

const BAD_BODY = [
  c(
    400,
    'validation_error',
    'request body: a required field is missing or malformed',
    '§7 400: required field missing or malformed',
  ),
  c(400, 'invalid_json', 'request body is not valid JSON', '§7 400: invalid JSON'),
];
const BAD_QUERY = [
  c(
    400,
    'validation_error',
    'query: a required parameter is missing or malformed',
    '§7 400: invalid method, currency, amounts or bounds',
  ),
];
const NO_KEY = [
  c(401, 'missing_api_key', 'x-api-key header is required', '§5: header missing'),
  c(401, 'invalid_api_key', 'invalid api key', '§5: header unknown or revoked'),
];
const FORBIDDEN = [
  c(403, 'key_not_authorized', 'this API key is not authorized for this endpoint', '§7 403: key not authorized'),
];
const NOT_FOUND = [
  c(404, 'operation_not_found', 'operation not found', "§7 404: operation not in this shop's scope or not existing"),
];
const REUSED = [
  c(
    412,
    'idempotency_conflict',
    'merchant_operation_id was already used with a different body; use a new merchant_operation_id',
    '§7 412: merchant_operation_id reused with a different body',
  ),
];
const RATE = [c(429, 'rate_limited', 'rate limit exceeded; retry later', '§7 429: rate limit')];
const AMOUNT_RATE = [
  c(
    429,
    'rate_limited',
    'at most 5 availability/recommendation requests per second per shop; retry after 1 s',
    '§7 429, §8: rate limit, with Retry-After',
    1,
  ),
];
const LINK_DOWN = [
  c(
    503,
    'dependency_unavailable',
    'a dependency of the link endpoints is unavailable; retry with backoff',
    '§7 503: link endpoints, dependency unavailable',
  ),
  c(
    503,
    'dependency_busy',
    'a dependency of the link endpoints is busy; retry with backoff',
    '§7 503: link endpoints, dependency busy',
  ),
];
const AMOUNTS_NOT_READY = [
  c(
    412,
    'shop_unavailable',
    'the shop is unavailable for creation',
    '§7 412: availability and recommendations, shop unavailable for creation',
  ),
  c(
    412,
    'no_route',
    'shop has no payin route for this method; pick a method the shop is configured for',
    '§7 412: no route',
  ),
  c(
    412,
    'pricing_not_covered',
    'the shop has no pricing over all of the requested range; narrow the range',
    '§7 412: missing pricing coverage',
  ),
];
const AMOUNTS_DOWN = [
  c(
    503,
    'read_capacity_exhausted',
    'another availability or recommendations read is in progress (one at a time per replica); retry with backoff',
    '§7 503, §8: shared read capacity exhausted',
    1,
  ),
  c(
    503,
    'dependency_unavailable',
    'a dependency of the amount reads is unavailable; retry later (this is not an empty pool)',
    '§7 503: dependency unavailable',
  ),
  c(
    503,
    'incompatible_version',
    'an incompatible rolling version answered the read; retry later (this is not an empty pool)',
    '§7 503: incompatible rolling version',
  ),
  c(
    503,
    'stale_preset_version',
    'the preset version is stale; retry later (this is not an empty pool)',
    '§7 503: stale preset version',
  ),
  c(
    503,
    'read_timeout',
    'the pool read exceeded its 2 s budget; retry later (this is not an empty pool)',
    '§7 503, §8: timeout',
    1,
  ),
];
const UNHEALTHY = [c(503, 'unhealthy', 'the sandbox is not ready', '§4.11: not healthy')];

/** Every failure case the spec names, per gateway endpoint (by the id of src/contract/endpoints.ts). */
export const FAULT_CASES: { readonly [K in EndpointId]: readonly FaultCase[] } = {
  'payment.create': [...BAD_BODY, ...NO_KEY, ...REUSED, ...RATE],
  'payment.link': [...BAD_BODY, ...NO_KEY, ...FORBIDDEN, ...REUSED, ...RATE, ...LINK_DOWN],
  'payment.flexible_link': [
    c(
      400,
      'validation_error',
      'request body: a required field is missing or malformed, or the amount bounds are invalid',
      '§4.3, §7 400: field missing or malformed, invalid amount bounds',
    ),
    BAD_BODY[1]!,
    ...NO_KEY,
    ...FORBIDDEN,
    c(
      412,
      'shop_not_ready',
      'the shop is not ready to create payments',
      '§7 412: flexible link, shop not ready to create',
    ),
    c(
      412,
      'not_pool_only',
      "the shop's payin route goes through providers other than the self-matching pool; use POST /v1/payment/link",
      '§4.3, §7 412: payin routing not entirely the self-matching pool',
    ),
    ...REUSED,
    ...RATE,
    ...LINK_DOWN,
  ],
  'payout.create': [...BAD_BODY, ...NO_KEY, ...REUSED, ...RATE],
  'payment.confirm': [
    c(
      400,
      'validation_error',
      'form: a required field is missing or malformed',
      '§7 400: required field missing or malformed',
    ),
    ...NO_KEY,
    ...NOT_FOUND,
    ...RATE,
    c(
      503,
      'receipt_checks_full',
      'the sandbox is checking as many receipts as it can; retry after a few seconds',
      'the sandbox: every receipt check place is taken',
    ),
  ],
  'operation.state': [
    ...BAD_BODY,
    ...NO_KEY,
    ...NOT_FOUND,
    ...RATE,
    c(
      503,
      'evidence_unavailable',
      'receipt evidence is temporarily unavailable; retry later, or read by merchant_operation_id',
      '§4.6, §7 503: receipt evidence not materialized',
      1,
    ),
  ],
  'operation.cancel': [
    ...BAD_BODY,
    ...NO_KEY,
    ...NOT_FOUND,
    c(412, 'payout_not_cancellable', 'payouts cannot be cancelled', '§7 412: id belongs to a payout'),
    c(
      412,
      'not_cancellable',
      'the payment cannot be cancelled in its current state',
      '§7 412: payment cannot be cancelled in its current state',
    ),
    ...RATE,
    c(
      503,
      'cancel_not_durable',
      'the cancellation was not durably accepted before the deadline; no decision may be assumed: retry the same command or read the state',
      '§4.7 rule 4, §7 503: not durably accepted before the deadline',
    ),
  ],
  'balances.list': [
    ...NO_KEY,
    ...RATE,
    c(
      500,
      'accounting_inconsistent',
      'the accounting position is internally inconsistent; no balances are returned',
      '§4.8, §7 500: accounting position internally inconsistent',
    ),
    c(
      503,
      'accounting_unavailable',
      'the accounting service is temporarily unavailable; retry with exponential backoff',
      '§7 503: accounting service temporarily unavailable',
    ),
  ],
  'payment.availability': [
    ...BAD_QUERY,
    ...NO_KEY,
    ...FORBIDDEN,
    c(
      404,
      'scope_not_accessible',
      "the shop's scope is not accessible",
      '§7 404: availability, shop scope not accessible',
    ),
    ...AMOUNTS_NOT_READY,
    ...AMOUNT_RATE,
    ...AMOUNTS_DOWN,
  ],
  'payment.recommendations': [
    ...BAD_BODY,
    ...NO_KEY,
    ...FORBIDDEN,
    ...AMOUNTS_NOT_READY,
    ...AMOUNT_RATE,
    ...AMOUNTS_DOWN,
  ],
  'health.livez': UNHEALTHY,
  'health.healthz': UNHEALTHY,
  'health.readyz': UNHEALTHY,
};

/** The statuses the spec names for `endpoint`, ascending. */
export function faultStatuses(endpoint: EndpointId): number[] {
  return [...new Set(FAULT_CASES[endpoint].map((x) => x.status))].sort((a, b) => a - b);
}

/** The case a fault of `status` (and optionally `code`) answers with: the first the spec lists when `code` is absent. */
export function faultCase(endpoint: EndpointId, status: number, code?: string): FaultCase | undefined {
  return FAULT_CASES[endpoint].find((x) => x.status === status && (code === undefined || x.code === code));
}

/** An endpoint by its dotted id (`operation.cancel`) or its OpenAPI operationId (`operationCancel`, derived from the id). */
export function faultEndpoint(name: string): EndpointId | undefined {
  for (const row of Object.values(endpoints)) if (row.id === name || operationIdOf(row) === name) return row.id;
  return undefined;
}

/** The dotted ids of every gateway endpoint, in table order: the values `endpoint` takes. */
export const FAULT_ENDPOINTS: readonly string[] = Object.values(endpoints).map((e) => e.id);
