// POST /v1/confirm_payment (spec §4.5): a receipt uploaded as multipart/form-data, checked automatically. Before the
// file is read: the content type, the declared length, the shop's place in the receipt-check queue (429 / 503), and
// — as soon as the fields sent before the file name it — the payment and whether it takes a receipt (404 / 409).
import { ConfirmPaymentFields } from '../../../contract/operations.js';
import { RECEIPT_LIMIT } from '../../context.js';
import { parseWith } from '../../http/body.js';
import { ApiError } from '../../http/errors.js';
import { header } from '../../http/headers.js';
import { receiptCheck } from '../../receipts/check.js';
import { receiptChecksOf } from '../../receipts/queue.js';
import { receiptTarget } from '../../receipts/target.js';
import { ReceiptUploadBody, type ReceiptForm } from '../../receipts/upload-body.js';
import { toWireOperation } from '../../wire.js';
import type { GatewayHandler } from '../types.js';

const OperationIdField = ConfirmPaymentFields.pick({ operation_id: true });

/** The form's fields for the schema; merchant_id and shop_id are passed on so that it refuses them, as every gateway request does. */
const FIELD_NAMES = ['operation_id', 'confirmation_type', 'merchant_id', 'shop_id'] as const;
const fieldsOf = (form: ReceiptForm['fields']) => Object.fromEntries(FIELD_NAMES.map((n) => [n, form.get(n)]));

export const confirmPayment: GatewayHandler<'payment.confirm'> = async (call) => {
  const { service } = call.ctx;
  const body = new ReceiptUploadBody(
    call.event,
    RECEIPT_LIMIT,
    'receipt',
    call.ctx.limits.connections.uploadDeadlineMs,
  );
  try {
    if (!/^multipart\/form-data\b/i.test(header(call.event, 'content-type') ?? '')) {
      throw new ApiError(
        'unsupported_media_type',
        'send confirm_payment as multipart/form-data with fields operation_id, confirmation_type and the file part receipt',
      );
    }
    body.checkDeclaredLength();
    const ticket = receiptChecksOf(service).admit(call.shopId);
    try {
      const form = await body.read((sent) => {
        // A forbidden field is refused before the payment is looked at, as on every gateway request.
        if (sent.has('merchant_id') || sent.has('shop_id')) parseWith(ConfirmPaymentFields, fieldsOf(sent), 'form');
        if (!sent.has('operation_id')) return; // the file came first: the payment is checked once the form is read
        const { operation_id } = parseWith(OperationIdField, { operation_id: sent.get('operation_id') }, 'form');
        receiptTarget(service, call.shopId, operation_id);
      });
      const fields = parseWith(ConfirmPaymentFields, fieldsOf(form.fields), 'form');
      const { file } = form;
      if (!file) throw new ApiError('validation_error', 'receipt: a file part named receipt is required');
      if (file.bytes.byteLength === 0) throw new ApiError('validation_error', 'receipt: the file is empty');
      const upload = {
        bytes: file.bytes,
        filename: file.filename || 'receipt',
        contentType: file.contentType || 'application/octet-stream',
      };
      const op = await service.uploadReceipt(
        call.shopId,
        fields.operation_id,
        upload,
        receiptCheck(file.bytes, ticket),
      );
      return toWireOperation(op, service.world);
    } finally {
      ticket.release();
    }
  } catch (e) {
    body.leaveUnread();
    throw e;
  }
};
