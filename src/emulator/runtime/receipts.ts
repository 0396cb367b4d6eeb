// A receipt upload (confirm_payment, spec §4.8): the file is checked and stored first, then the upload and the
// automatic review's verdict are written; an upload that decided nothing (the payment moved first, or the write
// failed) removes its file.
import { randomUUID } from 'node:crypto';
import { acceptsReceipt, receiptUploaded, type ReviewVerdict } from '../../domain/commands.js';
import { nameUuid } from '../../domain/ids.js';
import { uploadsOf } from '../../domain/operation.js';
import { iso } from '../../domain/state.js';
import { notFound } from './errors.js';
import type { GatewayService } from './service.js';

export interface ReceiptFile {
  bytes: Uint8Array;
  filename: string;
  contentType: string;
}

/** Store the file, then record the upload and its verdict; resolves with the operation's id once written. */
export async function recordReceipt(
  service: GatewayService,
  shopId: string,
  operationId: string,
  file: ReceiptFile,
  check: (expectedAmount: string) => Promise<ReviewVerdict>,
): Promise<string> {
  const op = service.find(shopId, { operation_id: operationId });
  if (!op || op.status === 'admitting') throw notFound();
  acceptsReceipt(op);
  const verdict = await check(op.expected_amount);
  // Each upload its own file: a concurrent upload to the same payment never shares (or overwrites) it.
  const fileId = randomUUID().replace(/-/g, '');
  await service.files.put(fileId, file.bytes);
  try {
    // Re-read: the operation may have moved while the file was checked and written.
    const current = service.state.operation(op.id);
    if (!current) throw notFound();
    const id = nameUuid('upload', op.id, String(uploadsOf(current).length + 1));
    const upload = {
      id,
      file_id: fileId,
      filename: file.filename,
      content_type: file.contentType,
      size: file.bytes.byteLength,
      uploaded_at: iso(service.clock.now()),
    };
    await service.persist(receiptUploaded(service.ctx(), current, upload, verdict));
  } catch (e) {
    // This upload decided nothing (the payment moved first, or the write failed): its file goes.
    await service.files.remove(fileId).catch(() => undefined);
    throw e;
  }
  return op.id;
}
