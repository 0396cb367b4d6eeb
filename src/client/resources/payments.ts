// client.payments: create, links, receipt confirmation, availability and recommendations (spec §4.1–4.3, §4.5, §4.9, §4.10).
import type {
  AvailabilityQuery,
  CreateOperationParams,
  FlexibleLinkRequest,
  RecommendationsRequest,
} from '../../contract/index.js';
import { APIPromise } from '../api-promise.js';
import type { RequestOptions, ResponseOf } from '../core.js';
import { encodeMultipart, type ReceiptSource } from '../multipart.js';
import type { WithOptionalMerchantOperationId } from './create-call.js';
import { call, coreOf, create, named, resource } from './resource.js';

/** Body of a payment or payout create; `merchant_operation_id` is generated when omitted. */
export type CreateOperationInput = WithOptionalMerchantOperationId<CreateOperationParams>;
/** Body of a flexible link; `merchant_operation_id` is generated when omitted. */
export type CreateFlexibleLinkInput = WithOptionalMerchantOperationId<
  FlexibleLinkRequest & { merchant_operation_id: string }
>;
export type AvailabilityInput = AvailabilityQuery;
export type RecommendationsInput = RecommendationsRequest;

export interface ConfirmPaymentInput {
  /** The payment's operation_id. */
  operation_id: string;
  /** The receipt: a file path, bytes, a Blob/File, or a readable stream (sent as read, never retried). */
  receipt: ReceiptSource;
  /** File name of the part. Default: the path's basename, a File's name, else `receipt.pdf`. */
  filename?: string | undefined;
  /** Content type of the file part. Default: a Blob's own type, else `application/pdf`. */
  contentType?: string | undefined;
  /** Default `receipt` (the only value the spec shows). */
  confirmation_type?: string | undefined;
}

export class Payments extends resource({
  /**
   * POST /v1/payment. May wait up to 15 s for provider acceptance. Resolves to the operation;
   * `.withResponse()` also gives the `merchant_operation_id` that was sent (generated when omitted).
   */
  'payment.create': create<CreateOperationInput>(),
  /** POST /v1/payment/link: the operation plus `payment_url` (null when the shop has no hosted page). */
  'payment.link': named('createLink', create<CreateOperationInput>()),
  /**
   * POST /v1/payment/link/flexible: an operation (amount available now) or an amount selection / rejection;
   * tell them apart by `status` (`amount_selection`, `rejected`) or by the presence of `type`.
   * `payment_url` carries its credential in the query: treat it as a secret.
   */
  'payment.flexible_link': named('createFlexibleLink', create<CreateFlexibleLinkInput>()),
  /** GET /v1/payment/availability: advisory amount intervals (never reserves anything). */
  'payment.availability': call(1, (query: AvailabilityInput) => {
    const { method, currency, min_amount, max_amount } = query;
    return { query: { method, currency, min_amount, max_amount } };
  }),
  /** POST /v1/payment/recommendations: nearby amounts the self-matching pool can take (advisory). */
  'payment.recommendations': call(1, (params: RecommendationsInput) => ({ body: params })),
}) {
  /**
   * POST /v1/confirm_payment (multipart): uploads a receipt for a payment in awaiting_confirmation.
   * A path, bytes or a Blob are read once and re-sent on retry; a stream is never retried.
   */
  confirm(params: ConfirmPaymentInput, options?: RequestOptions): APIPromise<ResponseOf<'payment.confirm'>> {
    const result = encodeMultipart(
      { operation_id: params.operation_id, confirmation_type: params.confirmation_type ?? 'receipt' },
      'receipt',
      { source: params.receipt, filename: params.filename, contentType: params.contentType },
    ).then((multipart) => coreOf(this).request('payment.confirm', { multipart }, options).withResponse());
    return new APIPromise(result);
  }
}
