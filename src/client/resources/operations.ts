// client.operations: read the state of an operation and cancel a payment (spec §4.6, §4.7).
import { APIPromise } from '../api-promise.js';
import type { RequestOptions, ResponseOf } from '../core.js';
import { APIConnectionError, APIError, CancelOutcomeUnknownError, PaygateError } from '../errors.js';
import { call, coreOf, named, resource } from './resource.js';

/** Exactly one identifier of an operation. */
export type OperationRef =
  | { operation_id: string; merchant_operation_id?: undefined }
  | { merchant_operation_id: string; operation_id?: undefined };

export type CancelOperationInput = OperationRef & {
  /** Audit-log reason, at most 2048 UTF-8 bytes. Default: none (the gateway records "cancel"). */
  reason?: string | undefined;
};

/** Longest `reason`, in UTF-8 bytes (spec §4.7, §8; the contract's MAX_CANCEL_REASON_BYTES, not imported: the CLI loads
 * the client without the contract). */
export const MAX_REASON_BYTES = 2048;

const utf8 = new TextEncoder();

export class Operations extends resource({
  /** POST /v1/get_operation_state by `operation_id` or by `merchant_operation_id` (exactly one). */
  'operation.state': named(
    'get',
    call(1, (ref: OperationRef) => ({ body: pickRef(ref) })),
  ),
}) {
  /**
   * POST /v1/cancel_operation (payments only). Idempotent, so transient failures are retried. A timeout,
   * connection error or 5xx (other than 501) that remains after retries throws CancelOutcomeUnknownError: the cancel may or may
   * not have been recorded (spec §4.7 rule 4) — never treat it as done; repeat the command or read the state.
   */
  cancel(params: CancelOperationInput, options?: RequestOptions): APIPromise<ResponseOf<'operation.cancel'>> {
    const target = pickRef(params);
    // The limit is bytes, not characters (spec §4.7): 1,025 Cyrillic characters are 2,050 bytes.
    // A UTF-16 unit is at most 3 bytes of UTF-8: a short reason needs no encoding.
    const bytes =
      typeof params.reason === 'string' && params.reason.length * 3 > MAX_REASON_BYTES
        ? utf8.encode(params.reason).length
        : 0;
    if (bytes > MAX_REASON_BYTES) {
      return new APIPromise(
        Promise.reject(
          new PaygateError(
            `reason is ${bytes} bytes of UTF-8; at most ${MAX_REASON_BYTES} bytes (not characters) are allowed`,
          ),
        ),
      );
    }
    const body = params.reason !== undefined ? { ...target, reason: params.reason } : target;
    const result = coreOf(this)
      .request('operation.cancel', { body }, options)
      .withResponse()
      .catch((err: unknown) => {
        if (err instanceof APIConnectionError || (err instanceof APIError && isUndecided(err.status))) {
          throw new CancelOutcomeUnknownError(target, err);
        }
        throw err;
      });
    return new APIPromise(result);
  }
}

/**
 * A 5xx gives no decision (503 per the spec; 500, 502 and 504 from a proxy or a crash alike), except
 * 501 Not Implemented and 505, which say the command was not run at all.
 */
function isUndecided(status: number): boolean {
  return status >= 500 && status !== 501 && status !== 505;
}

/** Send only the identifier that was given (both or neither is left to the gateway to refuse with 400). */
function pickRef(ref: OperationRef): { operation_id: string } | { merchant_operation_id: string } {
  const out: Record<string, string> = {};
  if (ref.operation_id !== undefined) out.operation_id = ref.operation_id;
  if (ref.merchant_operation_id !== undefined) out.merchant_operation_id = ref.merchant_operation_id;
  return out as { operation_id: string } | { merchant_operation_id: string };
}
