// The one error shape of the emulator, { code, message }, and the one table that maps every error code — the
// domain's and the HTTP layer's own — to its HTTP status. Nothing else in the emulator names an error status.
import type { ZodError } from 'zod';
import type { DomainErrorCode } from '../../domain/errors.js';
import { echo } from '../../contract/echo.js';
import { DomainError } from '../../domain/errors.js';
import { StoreUnavailableError } from '../../store/errors.js';
import { JSON_TYPE } from './h3-internals.js';

/** Error code → HTTP status. The only place this mapping lives. */
export const STATUS_OF = {
  // The domain's codes (src/domain/errors.ts).
  validation_error: 400,
  unknown_method: 400,
  method_currency_mismatch: 400,
  unsupported_currency: 400,
  bankname_required: 400,
  unknown_bank: 400,
  bank_currency_mismatch: 400,
  number_required: 400,
  idempotency_conflict: 412,
  operation_not_found: 404,
  payout_not_cancellable: 412,
  not_cancellable: 412,
  invalid_state: 409,
  no_route: 412,
  pricing_not_covered: 412,
  not_pool_only: 412,
  evidence_unavailable: 503,
  // The store's (src/store/errors.ts StoreUnavailableError): a write it refused.
  store_unavailable: 503,
  // The HTTP layer's: requests, credentials, routing, limits.
  invalid_json: 400,
  invalid_multipart: 400,
  body_unreadable: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  missing_admin_token: 401,
  invalid_admin_token: 401,
  key_not_authorized: 403,
  not_found: 404,
  shop_not_found: 404,
  key_not_found: 404,
  webhook_not_found: 404,
  webhook_limit: 409,
  pool_limit: 409,
  ambiguous_reference: 409,
  delivery_not_found: 404,
  method_not_allowed: 405,
  link_expired: 410,
  not_pool_route: 412,
  body_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  receipt_checks_busy: 429,
  internal_error: 500,
  unhealthy: 503,
  read_capacity_exhausted: 503,
  read_timeout: 503,
  // Failure cases of the spec that only an injected fault produces (src/contract/fault-cases.ts FAULT_CASES), and the
  // fault controls' own.
  scope_not_accessible: 404,
  shop_not_ready: 412,
  shop_unavailable: 412,
  accounting_inconsistent: 500,
  dependency_unavailable: 503,
  dependency_busy: 503,
  incompatible_version: 503,
  stale_preset_version: 503,
  cancel_not_durable: 503,
  accounting_unavailable: 503,
  fault_not_found: 404,
  fault_limit: 409,
  receipt_checks_full: 503,
  // What one client may hold of the server (src/emulator/server-limits.ts).
  streams_busy: 429,
  streams_full: 503,
  upload_timeout: 408,
  // Workspaces (src/emulator/workspaces): the server's admin token only; bounded in number and in what each holds.
  workspace_not_found: 404,
  workspace_exists: 409,
  workspace_limit: 409,
  workspace_forbidden: 403,
  fixtures_not_found: 404,
  // The hosted page's forms: a POST another site made a browser send (src/emulator/pages/security.ts).
  cross_site_request: 403,
} as const satisfies Record<DomainErrorCode, number> & Record<string, number>;

export type ErrorCode = keyof typeof STATUS_OF;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = STATUS_OF[code];
  }
}

/** A field's path as messages name it, `generate.count`, `faults[1].endpoint`; bounded, as it may hold request keys. */
function fieldPath(path: readonly PropertyKey[]): string {
  return echo(
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
      .join('.')
      .replace(/\.\[/g, '['),
  );
}

/** A 400 naming every failing field, e.g. `amount: must be greater than 0; currency: is required`. */
export function validationError(err: ZodError, where = 'body'): ApiError {
  const parts = err.issues.slice(0, 5).map((i) => {
    const path = fieldPath(i.path);
    if (i.code === 'invalid_type' && i.expected === 'object' && path === '')
      return `request ${where} must be a JSON object`;
    // zod's own message quotes every unknown key whole.
    const message = i.code === 'unrecognized_keys' ? unknownFields(i.keys) : i.message;
    return path ? `${path}: ${message}` : message;
  });
  return new ApiError('validation_error', parts.join('; '));
}

function unknownFields(keys: readonly string[]): string {
  const named = keys
    .slice(0, 3)
    .map((k) => `"${echo(k)}"`)
    .join(', ');
  return `unknown field${keys.length > 1 ? 's' : ''} ${named}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''}`;
}

export function toApiError(e: unknown): ApiError | undefined {
  if (e instanceof ApiError) return e;
  if (e instanceof StoreUnavailableError) return new ApiError(e.code, e.message);
  if (e instanceof DomainError) {
    const message = e.field && !e.message.startsWith(e.field) ? `${e.field}: ${e.message}` : e.message;
    return new ApiError(e.code, message);
  }
  return undefined;
}

/** The error as a complete Response (routes outside the guard: probes, receipt files, the fallback). */
export function errorResponse(err: ApiError): Response {
  return new Response(JSON.stringify({ code: err.code, message: err.message }), {
    status: err.status,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', ...err.headers },
  });
}
