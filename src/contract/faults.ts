// Fault injection (the sandbox's `faults.*` controls and the fixtures' `faults` section): the wire shapes of a fault —
// what may be asked for, and how a fault in force is shown. The failure cases each endpoint may answer are in
// src/contract/fault-cases.ts (re-exported here).
import { z } from 'zod';
import { echo } from './echo.js';
import type { SandboxControlDef } from './controls.js';
import { endpoints, type EndpointId } from './endpoints.js';
import { Timestamp } from './money.js';
import { FAULT_CASES, FAULT_ENDPOINTS, faultCase, faultEndpoint, faultStatuses } from './fault-cases.js';
import { checkDrift, driftFields } from './fault-drift.js';

export * from './fault-cases.js';

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
