// client.sandbox.logs, client.sandbox.operations.stream() and client.sandbox.balances(): the support staff's reads.
// With the admin token they see every shop; with only an API key, that key's shop.
import type { PaygateCore, RequestOptions, ResponseOf } from '../core.js';
import type { OperationStatus, OperationType } from '../../contract/index.js';
import { call, coreOf, resource } from './resource.js';

/** Filters of the operation listing and its live stream. Every field is optional. */
export interface SandboxOperationFilters {
  status?: OperationStatus | undefined;
  type?: OperationType | undefined;
  method?: string | undefined;
  client_id?: string | undefined;
  merchant_operation_id?: string | undefined;
  /** Only this shop (admin token; a key sees its own shop only). */
  shop?: string | undefined;
  /** Created at or after: an RFC 3339 timestamp or a date such as `2026-11-23`. */
  since?: string | undefined;
  /** Created before. */
  until?: string | undefined;
  /** Expected amount at least, a decimal string. */
  min_amount?: string | undefined;
  /** Expected amount at most. */
  max_amount?: string | undefined;
}

export interface SandboxRequestLogFilters {
  shop?: string | undefined;
  method?: string | undefined;
  /** A status such as `404` or a class such as `4xx`. */
  status?: string | undefined;
  /** A path prefix such as `/v1/payment`. */
  path?: string | undefined;
  /** Only answers with status 400 or more. */
  errors?: boolean | undefined;
}

export type SandboxOperationRow = ResponseOf<'operations.list'>['operations'][number];
export type SandboxRequestLogEntry = ResponseOf<'logs.list'>['requests'][number];

/** Only the defined fields, as query parameters. */
export function queryOf(filters: object): Record<string, string | number | undefined> {
  return { ...(filters as Record<string, string | number | undefined>) };
}

/** Live operation changes as they are written: one operation until terminal (`id`), or every change matching the filters. */
export async function* streamOperations(
  core: PaygateCore,
  filters: SandboxOperationFilters & { id?: string | undefined },
  options?: RequestOptions,
): AsyncGenerator<SandboxOperationRow> {
  for await (const ev of core.stream('operations.stream', { query: queryOf(filters) }, options)) {
    if (ev.event === 'operation') yield ev.data as SandboxOperationRow;
  }
}

/** The request log's filters as query parameters (`errors` only when true). */
function logQuery(filters: SandboxRequestLogFilters): Record<string, string | number | undefined> {
  return queryOf({ ...filters, errors: filters.errors ? 'true' : undefined });
}

export class SandboxLogs extends resource({
  /** GET /sandbox/logs: the newest requests the sandbox answered (a ring of 2,000), newest first. */
  'logs.list': call(1, (filters: SandboxRequestLogFilters & { limit?: number | undefined } = {}) => ({
    query: logQuery(filters),
  })),
}) {
  /**
   * GET /sandbox/logs/stream: each request as it is answered, until `options.signal` aborts. With `backlog: n`, the
   * newest n matching entries already logged come first (oldest first), with no gap before the live ones.
   */
  async *stream(
    filters: SandboxRequestLogFilters & { backlog?: number | undefined } = {},
    options?: RequestOptions,
  ): AsyncGenerator<SandboxRequestLogEntry> {
    for await (const ev of coreOf(this).stream('logs.stream', { query: logQuery(filters) }, options)) {
      if (ev.event === 'request') yield ev.data as SandboxRequestLogEntry;
    }
  }
}
