// client.payouts: create an outbound payout (spec §4.4).
import type { APIPromise, WithMerchantOperationId } from '../api-promise.js';
import type { PaygateCore, RequestOptions, ResponseOf } from '../core.js';
import { createCall } from './create-call.js';
import type { CreateOperationInput } from './payments.js';

export class Payouts {
  readonly #core: PaygateCore;

  constructor(core: PaygateCore) {
    this.#core = core;
  }

  /**
   * POST /v1/payout. Usually answers `pending`; the terminal status arrives by webhook.
   * `.withResponse()` also gives the `merchant_operation_id` that was sent (generated when omitted).
   */
  create(
    params: CreateOperationInput,
    options?: RequestOptions,
  ): APIPromise<ResponseOf<'payout.create'>, WithMerchantOperationId<ResponseOf<'payout.create'>>> {
    return createCall(this.#core, 'payout.create', params, options);
  }
}
