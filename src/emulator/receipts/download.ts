// GET /storage/receipts/:file: an uploaded receipt through its short-lived signed link (spec §2.4 receipt_url).
import { uploadsOf } from '../../domain/operation.js';
import type { H3Event } from 'h3';
import type { AppContext } from '../context.js';
import { ApiError, errorResponse } from '../http/errors.js';
import { verifySignedPath } from './signed-url.js';

export async function downloadReceipt(event: H3Event, ctx: AppContext): Promise<Response> {
  const { service } = ctx;
  const file = event.context.params?.file ?? '';
  const fail = (err: ApiError): Response => {
    event.context.errorCode = err.code; // for the request log
    return errorResponse(err);
  };
  const check = verifySignedPath(`/receipts/${file}`, event.url.searchParams, service.clock.now(), ctx.urlSecret);
  if (!check.ok) {
    return fail(
      check.reason === 'expired'
        ? new ApiError('link_expired', 'this receipt link has expired; read the operation state again for a fresh one')
        : new ApiError('not_found', 'no such file'),
    );
  }
  const upload = uploadOf(ctx, file);
  const bytes = upload ? await service.files.get(file) : undefined;
  if (!upload || !bytes) return fail(new ApiError('not_found', 'no such file'));
  // Served as what the bytes are, never as what the uploader declared: a PDF inline, anything else as a download.
  const pdf = isPdf(bytes);
  return new Response(bytes, {
    headers: {
      'content-type': pdf ? 'application/pdf' : 'application/octet-stream',
      'content-disposition': contentDisposition(pdf ? 'inline' : 'attachment', upload.filename),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
    },
  });
}

function uploadOf(ctx: AppContext, file: string) {
  const owner = ctx.service.state.fileOwner.get(file);
  const op = owner ? ctx.service.state.operation(owner) : undefined;
  return op ? uploadsOf(op).find((u) => u.file_id === file) : undefined;
}

/** A PDF starts with `%PDF-` (within its first bytes, as readers allow). */
export function isPdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

/**
 * RFC 6266 Content-Disposition with the file's name: an ASCII fallback in `filename` (other characters, quotes and
 * backslashes become `_`) and the exact name in RFC 5987 `filename*=UTF-8''…` — any name, never a header error.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'receipt';
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
