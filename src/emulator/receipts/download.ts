// GET /storage/receipts/:file: an uploaded receipt through its short-lived signed link (spec §2.4 receipt_url).
import { uploadsOf } from '../../domain/operation.js';
import type { H3Event } from 'h3';
import type { AppContext } from '../context.js';
import { ApiError, errorResponse } from '../http/errors.js';
import { verifySignedPath } from './signed-url.js';

export async function downloadReceipt(event: H3Event, ctx: AppContext): Promise<Response> {
  const { service } = ctx;
  const file = event.context.params?.file ?? '';
  const check = verifySignedPath(`/receipts/${file}`, event.url.searchParams, service.clock.now(), ctx.urlSecret);
  if (!check.ok) {
    return errorResponse(
      check.reason === 'expired'
        ? new ApiError('link_expired', 'this receipt link has expired; read the operation state again for a fresh one')
        : new ApiError('not_found', 'no such file'),
    );
  }
  const owner = service.state.fileOwner.get(file);
  const upload = owner ? (() => { const op = service.state.operation(owner); return op ? uploadsOf(op).find((u) => u.file_id === file) : undefined; })() : undefined;
  const bytes = upload ? await service.files.get(file) : undefined;
  if (!upload || !bytes) return errorResponse(new ApiError('not_found', 'no such file'));
  return new Response(bytes, {
    headers: { 'content-type': upload.content_type, 'content-disposition': `inline; filename="${upload.filename.replace(/"/g, '')}"`, 'cache-control': 'private, no-store' },
  });
}
