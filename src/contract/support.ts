// The support staff's reads (`paygate ops`, `paygate logs tail`, `paygate balances --all-shops`): a live stream of
// operation changes, the request log and its stream, and every shop's balances. With the admin token they see every
// shop; with a shop's key, that shop only. The operation listing and details are operations.list / operations.show.
import { z } from 'zod';
import { BalanceRow } from './balances.js';
import { control } from './control-def.js';
import { OperationRow } from './sandbox.js';
import { ListOperationsQuery } from './sandbox.js';

export const StreamOperationsQuery = ListOperationsQuery.omit({
  limit: true,
  offset: true,
  starting_after: true,
}).extend({
  id: z.string().optional().meta({
    description:
      'Watch one operation (operation_id or merchant_operation_id): its current state first, then each change; the stream ends when it is terminal. With the admin token, a merchant_operation_id used by several shops needs shop= (409 ambiguous_reference).',
  }),
});

export const RequestLogEntry = z
  .object({
    id: z.string().meta({ description: 'The request id, also the x-request-id response header.' }),
    at: z.string().meta({ format: 'date-time' }),
    shop_id: z
      .string()
      .meta({ description: "The key's shop; empty for admin and open routes and failed authentication." }),
    method: z.string(),
    path: z.string().meta({ description: 'Path and query; secrets in the query (k, sig) masked.' }),
    status: z.number().int(),
    latency_ms: z.number(),
    error_code: z.string().nullable(),
  })
  .meta({ id: 'SandboxRequestLogEntry' });

export const LogsQuery = z.object({
  shop: z.string().min(1).optional(),
  method: z.string().min(1).optional(),
  status: z
    .string()
    .regex(/^([1-5]xx|[1-5][0-9]{2})$/i, { message: 'must be a status such as 404 or a class such as 4xx' })
    .optional(),
  path: z.string().min(1).optional().meta({ description: 'Path prefix, e.g. /v1/payment.' }),
  errors: z.enum(['true', 'false']).optional().meta({ description: 'Only answers with status 400 or more.' }),
  limit: z.coerce.number({ error: 'must be an integer' }).int().min(1).max(2000).default(100),
});
export const LogsStreamQuery = LogsQuery.omit({ limit: true }).extend({
  backlog: z.coerce.number({ error: 'must be an integer' }).int().min(0).max(2000).default(0).meta({
    description:
      'First send the newest this many matching entries already in the ring, oldest first; then the live ones, none missed or repeated in between.',
  }),
});

export const RequestLogList = z.object({ requests: z.array(RequestLogEntry) }).meta({ id: 'SandboxRequestLog' });

export const AllBalances = z
  .object({ shops: z.array(z.object({ shop_id: z.string(), name: z.string(), balances: z.array(BalanceRow) })) })
  .meta({ id: 'SandboxAllBalances' });

/** Events of operations.stream: `operation` with an OperationRow; of logs.stream: `request` with a log entry. */
export const supportControls = {
  'operations.stream': control({
    id: 'operations.stream',
    method: 'GET',
    path: '/sandbox/operations/stream',
    summary: 'Server-sent events: each operation change as it is written (event `operation`), with the listing filters',
    auth: 'support',
    stream: true,
    query: StreamOperationsQuery,
    response: OperationRow,
    errors: [400, 401, 404, 409, 429, 503],
  }),
  'logs.list': control({
    id: 'logs.list',
    method: 'GET',
    path: '/sandbox/logs',
    summary: 'The newest requests the sandbox answered (a ring of 2,000), newest first',
    auth: 'support',
    query: LogsQuery,
    response: RequestLogList,
    errors: [400, 401],
  }),
  'logs.stream': control({
    id: 'logs.stream',
    method: 'GET',
    path: '/sandbox/logs/stream',
    summary: 'Server-sent events: each request as it is answered (event `request`)',
    auth: 'support',
    stream: true,
    query: LogsStreamQuery,
    response: RequestLogEntry,
    errors: [400, 401, 429, 503],
  }),
  'balances.all': control({
    id: 'balances.all',
    method: 'GET',
    path: '/sandbox/balances',
    summary: "Every shop's balances",
    auth: 'admin',
    response: AllBalances,
    errors: [401],
  }),
} as const;
