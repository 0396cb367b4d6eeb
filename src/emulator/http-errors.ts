// The one error shape of the emulator, { code, message }, and the table that maps domain codes to statuses.
import type { ZodError } from 'zod';
import type { DomainErrorCode } from '../domain/errors.js';
import { DomainError } from '../domain/errors.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Domain error code → HTTP status. The only place this mapping lives. */
export const STATUS_OF: Record<DomainErrorCode, number> = {
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
  store_unavailable: 503,
};

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

/** A 400 naming every failing field, e.g. `amount: must be greater than 0; currency: is required`. */
export function validationError(err: ZodError, where = 'body'): ApiError {
  const parts = err.issues.slice(0, 5).map((i) => {
    const path = fieldPath(i.path);
    if (i.code === 'invalid_type' && i.expected === 'object' && path === '') return `request ${where} must be a JSON object`;
    return path ? `${path}: ${i.message}` : i.message;
  });
  return new ApiError(400, 'validation_error', parts.join('; '));
}

export function toApiError(e: unknown): ApiError | undefined {
  if (e instanceof ApiError) return e;
  if (e instanceof DomainError) {
    const message = e.field && !e.message.startsWith(e.field) ? `${e.field}: ${e.message}` : e.message;
    return new ApiError(STATUS_OF[e.code], e.code, message);
  }
  return undefined;
}

export function errorResponse(err: ApiError): Response {
  return new Response(JSON.stringify({ code: err.code, message: err.message }), {
    status: err.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...err.headers },
  });
}
