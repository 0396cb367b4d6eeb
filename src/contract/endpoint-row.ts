// The row shape shared by both endpoint tables — the gateway's (endpoints.ts) and the sandbox controls'
// (controls.ts): what the emulator mounts, the client calls and the OpenAPI document lists.
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone, a shop's X-API-Key, the sandbox's X-Admin-Token, or either (`support`: the admin
 * token sees every shop, a shop's key only its own — the support staff's reads).
 */
export type Credential = 'none' | 'key' | 'admin' | 'support';

export interface EndpointRow {
  /**
   * The endpoint's one name, dotted: `payment.create`, `clock.advance`. The tables are keyed by it; the client's
   * requests, the scenarios' calls, the fault injector, the retry policy, docs and tests all name the endpoint by it;
   * the OpenAPI operationId is derived from it (operationIdOf).
   */
  readonly id: string;
  readonly method: HttpMethod;
  /** Path template; a `:name` segment is a path parameter. */
  readonly path: string;
  readonly summary: string;
  /** Who may call it. */
  readonly auth: Credential;
  /** Path parameters (documentation and client; the handler checks them with its own messages). */
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** JSON request body. */
  readonly body?: z.ZodType;
  /** Response body on success; absent: no body (204). */
  readonly response?: z.ZodType;
  /** Success status other than 200 (201 Created, 204 No Content). */
  readonly status?: 201 | 204;
  /** Error statuses the route can answer with. */
  readonly errors: readonly number[];
}

/**
 * The OpenAPI operationId of a row: its dotted id in camelCase (`payout.create` → `payoutCreate`,
 * `payment.flexible_link` → `paymentFlexibleLink`); a sandbox control's starts with `sandbox`, not repeated
 * (`clock.advance` → `sandboxClockAdvance`, `sandbox.reset` → `sandboxReset`).
 */
export function operationIdOf(row: Pick<EndpointRow, 'id' | 'path'>): string {
  const words = row.id.split(/[._]/);
  if (row.path.startsWith('/sandbox/') && words[0] !== 'sandbox') words.unshift('sandbox');
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

/** The status of a successful answer of the row. */
export function successStatus(row: Pick<EndpointRow, 'status' | 'response'>): number {
  return row.status ?? (row.response ? 200 : 204);
}
