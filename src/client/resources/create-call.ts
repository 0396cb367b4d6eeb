// The idempotency key of create calls: generated once per call (before any retry) when the caller gives
// none, sent with every attempt, and handed back on the result and on errors.
import { APIPromise, type WithMerchantOperationId } from '../api-promise.js';
import type { AnyEndpointId, PaygateCore, RequestOptions, ResponseOf } from '../core.js';
import { PaygateError } from '../errors.js';

/** Makes `merchant_operation_id` optional in a create body type. */
export type WithOptionalMerchantOperationId<T extends { merchant_operation_id: string }> = Omit<
  T,
  'merchant_operation_id' | 'merchant_id' | 'shop_id'
> & {
  /** Idempotency key, unique per shop. Default: a random UUID generated once per call, reused by its retries. */
  merchant_operation_id?: string | undefined;
};

/**
 * A new idempotency key: a random UUID. The one generator of merchant_operation_id, used by create calls without
 * one and by the CLI, which generates the key itself so that it can print it before the request is sent.
 */
export function newMerchantOperationId(): string {
  // The global Web Crypto (the same generator as node:crypto's), loaded on first use: reads pay nothing for it.
  return crypto.randomUUID();
}

export function createCall<E extends AnyEndpointId>(
  core: PaygateCore,
  id: E,
  params: { merchant_operation_id?: string | undefined },
  options: RequestOptions | undefined,
): APIPromise<ResponseOf<E>, WithMerchantOperationId<ResponseOf<E>>> {
  const merchant_operation_id = params.merchant_operation_id ?? newMerchantOperationId();
  const body = { ...params, merchant_operation_id };
  const outcomeHint = `the operation may or may not exist: retry with the same merchant_operation_id ${merchant_operation_id} or read its state`;
  const result = core
    .request(id, { body, outcomeHint }, options)
    .withResponse()
    .then(
      (r) => ({ ...r, merchant_operation_id }),
      (err: unknown) => {
        if (err instanceof PaygateError) err.merchantOperationId = merchant_operation_id;
        throw err;
      },
    );
  return new APIPromise(result);
}
