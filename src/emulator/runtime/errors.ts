// The service's own errors: an operation nobody may see, and a write the store refused.
import { DomainError } from '../../domain/errors.js';

export const notFound = () => new DomainError('operation_not_found', 'operation not found');

/** How long a timer whose outcome could not be written waits before it tries again (sandbox time). */
export const TIMER_RETRY_MS = 1000;

/** A write the store refused: nothing of the request was kept. */
export function storeUnavailable(e: unknown): DomainError {
  if (e instanceof DomainError) return e;
  const code = typeof e === 'object' && e !== null && 'code' in e ? ` (${String((e as { code: unknown }).code)})` : '';
  const why = e instanceof Error ? e.message : String(e);
  return new DomainError('store_unavailable', `the sandbox could not write its store${code}: ${why}. Nothing was changed; free disk space or fix the store, then retry`);
}
