// Fault injection (the sandbox's `faults.*` controls and the fixtures' `faults` section): for each gateway endpoint,
// the failure statuses the spec names for it (§4, §7) with the error each case answers, and the wire shapes of a
// fault — what may be asked for, and how a fault in force is shown.
import { z } from 'zod';
import { echo } from './echo.js';
import type { SandboxControlDef } from './controls.js';
import { endpoints, type EndpointId } from './endpoints.js';
import { Timestamp } from './money.js';
import { operationIdOf } from './endpoint-row.js';
import { checkDrift, driftFields } from './fault-drift.js';

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

/** Most faults in force at once. */
export const MAX_FAULTS = 100;
/** Longest injected latency, in ms of sandbox time. */
export const MAX_FAULT_LATENCY_MS = 600_000;

const PROBE_IDS: readonly EndpointId[] = ['health.livez', 'health.healthz', 'health.readyz'];

type Issue = (path: string, message: string) => void;

/** The checks of one fault that need the table: a known endpoint, one effect, a status and code it names, a lifetime. */
function checkFault(f: z.output<typeof FaultFields>, issue: Issue): void {
  const endpoint = faultEndpoint(f.endpoint);
  if (!endpoint) {
    issue('endpoint', `unknown endpoint "${echo(f.endpoint)}"; one of ${FAULT_ENDPOINTS.join(', ')}`);
    return;
  }
  const row = endpoints[endpoint];
  if (f.drift !== undefined) {
    // A drift (src/contract/fault-drift.ts) is the fault's one effect; `status` is its parameter (extra_status).
    if (f.latency_ms !== undefined || f.drop_response_after_commit === true)
      issue('drift', 'give a drift alone: not with latency_ms or drop_response_after_commit');
    checkDrift({ ...f, drift: f.drift }, endpoint, issue);
  }
  const effects = [
    f.status !== undefined || f.drift !== undefined,
    f.latency_ms !== undefined,
    f.drop_response_after_commit === true,
  ].filter(Boolean).length;
  if (effects !== 1) issue('', 'give exactly one of status, latency_ms or drop_response_after_commit (or a drift)');
  if (f.drift === undefined && f.status !== undefined) {
    const allowed = faultStatuses(endpoint);
    if (!allowed.includes(f.status)) {
      issue(
        'status',
        `${row.method} ${row.path} (${row.id}) can answer ${allowed.join(', ')} (spec §7); ${f.status} is not one of them`,
      );
    } else if (f.code !== undefined && !faultCase(endpoint, f.status, f.code)) {
      const codes = FAULT_CASES[endpoint].filter((x) => x.status === f.status).map((x) => x.code);
      issue(
        'code',
        `${row.id} answers ${f.status} with ${[...new Set(codes)].join(', ')}; "${echo(f.code)}" is not one of them`,
      );
    }
  } else if (f.code !== undefined && f.drift === undefined) issue('code', 'code goes with status');
  if (f.shop_id !== undefined && PROBE_IDS.includes(endpoint))
    issue('shop_id', 'the health probes take no key: a fault on them applies to every request');
  if (f.count !== undefined && f.probability !== undefined)
    issue('count', 'give count (the next N requests) or probability (with seed), not both');
  if (f.seed !== undefined && f.probability === undefined) issue('seed', 'seed goes with probability');
}

const FaultFields = z.object({
  endpoint: z.string({ error: 'is required: a dotted endpoint id such as "operation.cancel"' }).meta({
    description:
      'The gateway endpoint: its dotted id (`operation.cancel`) or its OpenAPI operationId (`operationCancel`).',
    examples: ['operation.cancel'],
  }),
  status: z
    .number()
    .int()
    .optional()
    .meta({ description: 'Answer this status, one the spec lists for the endpoint (§7).' }),
  code: z
    .string()
    .optional()
    .meta({ description: "With status: which of the spec's cases of that status; default the first listed." }),
  latency_ms: z
    .number()
    .int()
    .min(1)
    .max(MAX_FAULT_LATENCY_MS)
    .optional()
    .meta({ description: 'Hold the request this long (ms of sandbox time) before it is processed.' }),
  drop_response_after_commit: z.literal(true).optional().meta({
    description:
      'Process the request, then close the connection without an answer: the write lands, the response is lost.',
  }),
  shop_id: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'Only requests of this shop (by its key). Default: every shop.' }),
  count: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .meta({ description: 'Only the next N matching requests. Default: every one.' }),
  probability: z
    .number()
    .gt(0)
    .max(1)
    .optional()
    .meta({ description: 'Each matching request with this probability, drawn from seed.' }),
  seed: z
    .number()
    .int()
    .optional()
    .meta({ description: 'Seed of the draws of probability: the same seed fires on the same requests. Default 0.' }),
  ...driftFields,
});

/** One fault to inject, as the controls and the fixtures take it. */
export const FaultInput = FaultFields.strict()
  .superRefine((f, ctx) =>
    checkFault(f, (path, message) => ctx.addIssue({ code: 'custom', path: path ? [path] : [], message })),
  )
  .meta({ id: 'SandboxFaultInput' });
export type FaultInput = z.input<typeof FaultInput>;

/** PUT /sandbox/faults: the faults in force from now on (every other one is removed). */
export const FaultSetRequest = z
  .object({ faults: z.array(FaultInput).max(MAX_FAULTS, { message: `at most ${MAX_FAULTS} faults` }) })
  .strict()
  .meta({ id: 'SandboxFaultSetRequest' });

/** A fault in force, with what it has done so far. */
export const Fault = z
  .object({
    id: z.string().meta({ description: 'flt_<n>, numbered from 1 (again after a reset).' }),
    endpoint: z.string().meta({ description: 'Dotted endpoint id.' }),
    kind: z.enum(['status', 'latency', 'drop', 'drift']),
    status: z.number().optional(),
    code: z.string().optional(),
    latency_ms: z.number().optional(),
    drift: driftFields.drift,
    field: driftFields.field,
    to: driftFields.to,
    value: driftFields.value,
    shop_id: z.string().nullable(),
    count: z.number().nullable().meta({ description: 'The N of "the next N requests"; null: no limit.' }),
    remaining: z.number().nullable().meta({ description: 'How many of those N are left; null: no limit.' }),
    probability: z.number().nullable(),
    seed: z.number().nullable(),
    matched: z.number().meta({ description: 'Requests it was considered for.' }),
    fired: z.number().meta({ description: 'Requests it was applied to.' }),
    source: z.enum(['fixtures', 'control']),
  })
  .meta({ id: 'SandboxFault' });
export type Fault = z.infer<typeof Fault>;

export const FaultList = z.object({ faults: z.array(Fault) }).meta({ id: 'SandboxFaultList' });
export const FaultRemoved = z.object({ removed: z.number() }).meta({ id: 'SandboxFaultRemoved' });
export const FaultIdParam = z.object({ id: z.string().min(1).meta({ description: 'The fault id (`flt_<n>`).' }) });

/** An injected fault as the operation's history shows it (GET /sandbox/operations/:id `faults`). */
export const FaultEvent = z
  .object({
    at: Timestamp,
    fault_id: z.string(),
    endpoint: z.string(),
    kind: z.enum(['status', 'latency', 'drop', 'drift']),
    drift: driftFields.drift,
    status: z.number().optional(),
    code: z.string().optional(),
    latency_ms: z.number().optional(),
  })
  .meta({ id: 'SandboxFaultEvent' });
export type FaultEvent = z.infer<typeof FaultEvent>;

const control = <const T extends SandboxControlDef>(d: T): T => d;

/** The `faults.*` rows of the sandbox's control table (src/contract/controls.ts spreads them in). */
export const faultControls = {
  'faults.list': control({
    id: 'faults.list',
    method: 'GET',
    path: '/sandbox/faults',
    summary: 'The injected faults in force, with how often each matched and fired',
    auth: 'admin',
    response: FaultList,
    errors: [401],
  }),
  'faults.add': control({
    id: 'faults.add',
    method: 'POST',
    path: '/sandbox/faults',
    summary:
      'Inject a fault next to those in force: an endpoint answers a status the spec lists, is slow, or loses its answer',
    auth: 'admin',
    body: FaultInput,
    response: Fault,
    status: 201,
    errors: [400, 401, 404, 409, 413, 415],
  }),
  'faults.set': control({
    id: 'faults.set',
    method: 'PUT',
    path: '/sandbox/faults',
    summary: 'Replace every injected fault with this list',
    auth: 'admin',
    body: FaultSetRequest,
    response: FaultList,
    errors: [400, 401, 404, 413, 415],
  }),
  'faults.clear': control({
    id: 'faults.clear',
    method: 'DELETE',
    path: '/sandbox/faults',
    summary: 'Remove every injected fault',
    auth: 'admin',
    response: FaultRemoved,
    errors: [401],
  }),
  'faults.remove': control({
    id: 'faults.remove',
    method: 'DELETE',
    path: '/sandbox/faults/:id',
    summary: 'Remove one injected fault',
    auth: 'admin',
    params: FaultIdParam,
    response: FaultRemoved,
    errors: [401, 404],
  }),
} as const;
