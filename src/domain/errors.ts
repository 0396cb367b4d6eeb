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
