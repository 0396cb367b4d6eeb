// The service's own errors: an operation nobody may see, and a write the store refused.
import { DomainError } from '../../domain/errors.js';
import { StoreUnavailableError } from '../../store/errors.js';

export const notFound = () => new DomainError('operation_not_found', 'operation not found');

/** How long a timer whose outcome could not be written waits before it tries again (sandbox time). */
export const TIMER_RETRY_MS = 1000;

/** A write the store refused: nothing of the request was kept. The store's error, not a domain code. */
export function storeUnavailable(e: unknown): StoreUnavailableError {
  return e instanceof StoreUnavailableError ? e : new StoreUnavailableError(e);
}
