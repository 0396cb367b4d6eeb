// POST /v1/confirm_payment (spec §4.5): a receipt uploaded as multipart/form-data, checked automatically.
import { ConfirmPaymentFields } from '../../../contract/operations.js';
import { RECEIPT_LIMIT } from '../../context.js';
import { parseWith, readLimited } from '../../http/body.js';
import { ApiError } from '../../http/errors.js';
import { header } from '../../http/headers.js';
import { receiptCheck } from '../../receipts/check.js';
import { toWireOperation } from '../../wire.js';
import type { GatewayHandler } from '../types.js';

async function readForm(call: Parameters<GatewayHandler<'confirmPayment'>>[0]): Promise<FormData> {
  const type = header(call.event, 'content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiError('unsupported_media_type', 'send confirm_payment as multipart/form-data with fields operation_id, confirmation_type and the file part receipt');
  }
  const bytes = await readLimited(call.event, RECEIPT_LIMIT);
  try {
    return await new Request('http://paygate.local/', { method: 'POST', headers: { 'content-type': type }, body: bytes }).formData();
  } catch {
    throw new ApiError('invalid_multipart', 'the multipart body could not be parsed');
  }
}

export const confirmPayment: GatewayHandler<'confirmPayment'> = async (call) => {
  const { service } = call.ctx;
  const form = await readForm(call);
  const field = (name: string) => form.get(name) ?? undefined;
  // merchant_id and shop_id are passed on so that the schema refuses them, as every gateway request does.
  const names = ['operation_id', 'confirmation_type', 'merchant_id', 'shop_id'] as const;
  const fields = parseWith(ConfirmPaymentFields, Object.fromEntries(names.map((n) => [n, field(n)])), 'form');
  const receipt = form.get('receipt');
  if (!receipt || typeof receipt === 'string') throw new ApiError('validation_error', 'receipt: a file part named receipt is required');
  if (receipt.size === 0) throw new ApiError('validation_error', 'receipt: the file is empty');
  const file = new Uint8Array(await receipt.arrayBuffer());
  const upload = { bytes: file, filename: receipt.name || 'receipt', contentType: receipt.type || 'application/octet-stream' };
  const op = await service.uploadReceipt(call.shopId, fields.operation_id, upload, receiptCheck(file));
  return toWireOperation(op, service.world);
};
