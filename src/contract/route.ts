// The row shape shared by both endpoint tables — the gateway's (endpoints.ts) and the sandbox controls'
// (controls.ts): what the emulator mounts, the client calls and the OpenAPI document lists.
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone, a shop's X-API-Key, the sandbox's X-Admin-Token, or either (`support`: the admin
 * token sees every shop, a shop's key only its own — the support staff's reads).
 */
export type Credential = 'none' | 'key' | 'admin' | 'support';

export interface RouteDef {
  /** Stable dotted id, e.g. `payment.create` or `clock.advance`: how handlers, docs and tests name the route. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template; a `:name` segment is a path parameter. */
  readonly path: string;
  readonly summary: string;
  /** The credential: `true`/`'key'` X-API-Key, `false` none, `'admin'` X-Admin-Token, `'support'` either. */
  readonly auth: boolean | 'key' | 'admin' | 'support';
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

export function credentialOf(row: Pick<RouteDef, 'auth'>): Credential {
  if (row.auth === true) return 'key';
  if (row.auth === false) return 'none';
  return row.auth;
}

/** The status of a successful answer of the row. */
export function successStatus(row: Pick<RouteDef, 'status' | 'response'>): number {
  return row.status ?? (row.response ? 200 : 204);
}
