// Domain errors as values with stable snake_case codes; only the HTTP layer maps them to statuses.

export type DomainErrorCode =
  | 'validation_error'
  | 'unknown_method'
  | 'method_currency_mismatch'
  | 'unsupported_currency'
  | 'bankname_required'
  | 'unknown_bank'
  | 'bank_currency_mismatch'
  | 'number_required'
  | 'idempotency_conflict'
  | 'operation_not_found'
  | 'payout_not_cancellable'
  | 'not_cancellable'
  | 'invalid_state'
  | 'no_route'
  | 'pricing_not_covered'
  | 'not_pool_only'
  | 'evidence_unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: DomainError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: DomainErrorCode, message: string, field?: string): Result<never> => ({
  ok: false,
  error: new DomainError(code, message, field),
});
