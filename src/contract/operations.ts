// Schemas of operations: the shared create request (payment, payout, link), the operation object,
// get_operation_state, cancel_operation and confirm_payment.
import { z } from 'zod';
import { ManualCheckReason, OperationStatus, OperationType, ReceiptEvidenceStatus } from './common.js';
import { EXAMPLE_OPERATION_ID } from './openapi/examples.js';
import { typeError } from './echo.js';
import {
  Currency,
  NonEmpty,
  OptionalString,
  RequestAmount,
  SignedWireAmount,
  Timestamp,
  Uuid,
  WireAmount,
} from './money.js';

const scopeField = (name: string) =>
  z
    .never({ error: `${name} must not be sent: the API key fixes the merchant and the shop` })
    .optional()
    .meta({ description: `Must not be sent; the API key fixes it.` });

/**
 * merchant_id and shop_id, refused (400 validation_error) in every request of the gateway that has fields — a body,
 * a form or a query (spec §2.2: the API key fixes them). The OpenAPI document lists them as forbidden property names.
 */
export const scopeFields = { merchant_id: scopeField('merchant_id'), shop_id: scopeField('shop_id') };

const createFields = {
  merchant_operation_id: NonEmpty.meta({ description: 'Idempotency key, unique per shop.', examples: ['order-1001'] }),
  client_id: NonEmpty.meta({ description: 'End-user identifier.', examples: ['client-42'] }),
  client_ip: OptionalString.meta({ description: 'Client IP address, used for antifraud.', examples: ['203.0.113.7'] }),
  method: NonEmpty.meta({ description: 'Logical payment method, e.g. WT_RUB_C2C.', examples: ['WT_RUB_C2C'] }),
  currency: Currency.meta({ description: 'ISO 4217 code.', examples: ['RUB'] }),
  number: OptionalString.meta({
    description: 'Destination identifier (payouts only).',
    examples: ['2200701234567890'],
  }),
  name: OptionalString.meta({
    description: 'Holder or recipient name (payouts only; defaults to аноним).',
    examples: ['Ivan Petrov'],
  }),
  bankname: OptionalString.meta({
    description: 'Destination bank code (required for WT_RUB_PHONE payouts).',
    examples: ['sber'],
  }),
  ...scopeFields,
};

/** Body of POST /v1/payment, /v1/payment/link and /v1/payout (spec §2.2). */
export const CreateOperationRequest = z
  .object({ ...createFields, amount: RequestAmount })
  .meta({ id: 'CreateOperationRequest' });
export type CreateOperationRequest = z.input<typeof CreateOperationRequest>;
export type CreateOperationParams = z.output<typeof CreateOperationRequest>;

export const ExternalConfirmation = z
  .object({ required: z.boolean(), methods: z.array(z.string()) })
  .meta({ id: 'ExternalConfirmation' });

/** One completed physical contribution (spec §2.4). */
export const Receipt = z
  .object({
    id: Uuid,
    amount: z.number().meta({ description: 'Amount of this completed contribution.', exclusiveMinimum: 0 }),
    completed_at: Timestamp,
    receipt_url: z.string().nullable().meta({
      format: 'uri',
      description: 'Short-lived download link (HTTPS at the gateway; the sandbox links to its own base URL), or null.',
    }),
  })
  .meta({ id: 'Receipt' });
export type Receipt = z.infer<typeof Receipt>;

/** The operation object (spec §2.3). */
export const Operation = z
  .object({
    operation_id: Uuid,
    type: OperationType,
    status: OperationStatus,
    method: z.string(),
    expected_amount: WireAmount,
    actual_amount: WireAmount.meta({
      description:
        'The physical fact: what was processed so far, scale 2. Zero until money is processed; a pool payout that payers have partly paid shows what they paid while still pending.',
      examples: ['1500.00'],
    }),
    currency: z.string(),
    fx_source: z.string().optional(),
    fx_rate: WireAmount.optional().meta({
      description:
        'With auto-conversion: a quote, the expected amount times the rate, in the ledger currency at scale 2 (1000.00 RUB at 0.0108 → "10.80"). Not the rate itself.',
      examples: ['10.80'],
    }),
    recorded_currency: z.string().optional(),
    recorded_amount: WireAmount.optional().meta({
      description:
        'Ledger fact, actual_amount times the rate, at scale 2. Only on a completed operation with a non-zero actual_amount; never while pending.',
      examples: ['1500.00'],
    }),
    settlement_amount: SignedWireAmount.meta({
      description:
        'What moves on the shop balance, in settlement_currency: a payment credits it after commission, a payout charges it with the commission. The expected figure until terminal; then what was captured: 0.00 for cancelled and rejected operations (a failed payout included).',
      examples: ['1462.50'],
    }),
    settlement_currency: z.string(),
    commission_amount: WireAmount.meta({
      description:
        'Commission of the service, in settlement_currency. Re-priced on the captured amount at completion; 0.00 for cancelled and rejected operations.',
      examples: ['37.50'],
    }),
    external_confirmation: ExternalConfirmation.optional(),
    number: z.string().optional(),
    name: z.string().optional(),
    bankname: z.string().optional(),
    bankname_details: z.string().optional(),
    expires_at: Timestamp.optional(),
    manual_check_reason: ManualCheckReason.optional(),
  })
  .meta({
    id: 'Operation',
    description:
      'The operation object (spec §2.3): no payment_url (link endpoints only), no receipts (state reads only).',
  });
export type Operation = z.infer<typeof Operation>;

/** Response of the link endpoints: the operation plus payment_url (string or null). */
export const LinkOperation = Operation.extend({ payment_url: z.string().nullable() }).meta({ id: 'LinkOperation' });
export type LinkOperation = z.infer<typeof LinkOperation>;

/** Response of get_operation_state: receipts and their evidence status are always present. */
export const OperationState = Operation.extend({
  receipts: z.array(Receipt),
  receipt_evidence_status: ReceiptEvidenceStatus,
}).meta({ id: 'OperationState' });
export type OperationState = z.infer<typeof OperationState>;

const identifierFields = {
  operation_id: Uuid.optional().meta({ description: 'Server-issued id.', examples: [EXAMPLE_OPERATION_ID] }),
  merchant_operation_id: z
    .string({ error: typeError('a string') })
    .min(1, { message: 'must not be empty' })
    .optional()
    .meta({ description: 'Idempotency key used at create.', examples: ['order-1001'] }),
  ...scopeFields,
};

function exactlyOneIdentifier(
  v: { operation_id?: string | undefined; merchant_operation_id?: string | undefined },
  ctx: z.RefinementCtx,
) {
  const n = (v.operation_id !== undefined ? 1 : 0) + (v.merchant_operation_id !== undefined ? 1 : 0);
  if (n !== 1) {
    ctx.addIssue({
      code: 'custom',
      message:
        n === 0
          ? 'send operation_id or merchant_operation_id'
          : 'send only one of operation_id and merchant_operation_id',
      path: [],
    });
  }
}

/** Body of POST /v1/get_operation_state (spec §4.6). */
export const GetOperationStateRequest = z
  .object(identifierFields)
  .superRefine(exactlyOneIdentifier)
  .meta({ id: 'GetOperationStateRequest', description: 'Exactly one of operation_id and merchant_operation_id.' });
export type GetOperationStateRequest = z.input<typeof GetOperationStateRequest>;

export const MAX_CANCEL_REASON_BYTES = 2048;

const utf8 = new TextEncoder();
/** The length of `s` in UTF-8 bytes (TextEncoder, not Buffer: the contract also runs in a browser, under msw). */
export const utf8ByteLength = (s: string): number => utf8.encode(s).length;

/** Body of POST /v1/cancel_operation (spec §4.7). */
export const CancelOperationRequest = z
  .object({
    ...identifierFields,
    reason: z
      .string({ error: typeError('a string') })
      .refine((s) => utf8ByteLength(s) <= MAX_CANCEL_REASON_BYTES, {
        message: `must be at most ${MAX_CANCEL_REASON_BYTES} bytes`,
      })
      .optional()
      .meta({
        description:
          'Audit-log reason, at most 2048 bytes of UTF-8 (spec §4.7, §8), not 2048 characters: `maxLength` counts characters, so ' +
          'it is only an upper bound — 1,025 Cyrillic characters (2,050 bytes) pass it and are refused with 400 validation_error. ' +
          'Empty means "cancel".',
        maxLength: MAX_CANCEL_REASON_BYTES,
        'x-paygate-max-bytes': MAX_CANCEL_REASON_BYTES,
        examples: ['customer changed their mind'],
      }),
  })
  .superRefine(exactlyOneIdentifier)
  .meta({ id: 'CancelOperationRequest', description: 'Exactly one of operation_id and merchant_operation_id.' });
export type CancelOperationRequest = z.input<typeof CancelOperationRequest>;

export const CancelOutcome = z.enum(['cancelled', 'already_terminal']);
export const CancelOperationResponse = z
  .object({ outcome: CancelOutcome, operation: Operation })
  .meta({ id: 'CancelOperationResponse' });
export type CancelOperationResponse = z.infer<typeof CancelOperationResponse>;

/** Text fields of the multipart body of POST /v1/confirm_payment (spec §4.5); the file part is `receipt`. */
export const ConfirmPaymentFields = z
  .object({
    operation_id: Uuid.meta({ description: 'The payment to confirm.', examples: [EXAMPLE_OPERATION_ID] }),
    confirmation_type: z.enum(['receipt'], { error: 'must be "receipt"' }),
    ...scopeFields,
  })
  .meta({ id: 'ConfirmPaymentFields' });
export type ConfirmPaymentFields = z.infer<typeof ConfirmPaymentFields>;

/** Multipart body of POST /v1/confirm_payment as documented in OpenAPI. */
export const ConfirmPaymentRequest = ConfirmPaymentFields.extend({
  receipt: z.string().meta({ format: 'binary', description: 'The receipt file, a PDF (application/pdf).' }),
}).meta({ id: 'ConfirmPaymentRequest' });
