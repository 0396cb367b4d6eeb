// POST /pay/:id/receipt: the page's receipt upload. The same checks as confirm_payment (spec §4.2), plus the
// page's own: only from the page's origin, and only a PDF (the page asks for one; confirm_payment also takes
// other files, to review by hand). The payment's status, the declared length and the shop's place in the
// receipt-check queue are checked before the body is read. Then back to the page (303), which shows the outcome;
// a refused upload answers the page with its reason, in the payer's words, and the status of the refusal.
import type { H3Event } from 'h3';
import { DomainError } from '../../domain/errors.js';
import { StoreUnavailableError } from '../../store/errors.js';
import { RECEIPT_LIMIT, type AppContext, type RouteContext } from '../context.js';
import { ApiError, STATUS_OF } from '../http/errors.js';
import { receiptCheck } from '../receipts/check.js';
import { receiptChecksOf } from '../receipts/queue.js';
import { receiptTarget } from '../receipts/target.js';
import { ReceiptUploadBody } from '../receipts/upload-body.js';
import { findTarget, pageRequest, type PageRequest } from './access.js';
import { answerPage, backToPage, notFoundPage } from './hosted-page.js';
import type { MessageKey } from './messages.js';
import { sameOrigin } from './security.js';

/** What the page says for an upload the HTTP layer refused. */
const NOTICE_OF: Partial<Record<string, MessageKey>> = {
  body_too_large: 'upload.too_large',
  receipt_checks_busy: 'upload.busy',
  receipt_checks_full: 'upload.busy',
  invalid_state: 'upload.not_now',
};

/** The refusal as a page: status and message; any other error is not the payer's to see. */
function refusal(e: unknown): { status: number; key: MessageKey; headers: Record<string, string> } | undefined {
  if (e instanceof StoreUnavailableError)
    return { status: STATUS_OF.store_unavailable, key: 'upload.not_saved', headers: {} };
  if (e instanceof DomainError) {
    if (e.code === 'operation_not_found') return undefined;
    return { status: STATUS_OF[e.code], key: NOTICE_OF[e.code] ?? 'upload.not_saved', headers: {} };
  }
  if (e instanceof ApiError) return { status: e.status, key: NOTICE_OF[e.code] ?? 'upload.failed', headers: e.headers };
  throw e;
}

/** Read the file and hand it to the service; a refusal found on the way is returned as its message. */
async function receive(
  ctx: AppContext,
  body: ReceiptUploadBody,
  shopId: string,
  id: string,
): Promise<{ status: number; key: MessageKey } | undefined> {
  receiptTarget(ctx.service, shopId, id);
  body.checkDeclaredLength();
  const ticket = receiptChecksOf(ctx.service).admit(shopId);
  try {
    const { file } = await body.read();
    if (!file || file.bytes.byteLength === 0) return { status: STATUS_OF.validation_error, key: 'upload.empty' };
    const { isPdf } = await import('../receipts/inspect.js');
    if (!isPdf(file.bytes)) return { status: STATUS_OF.unsupported_media_type, key: 'upload.not_pdf' };
    const upload = {
      bytes: file.bytes,
      filename: file.filename || 'receipt.pdf',
      contentType: file.contentType || 'application/pdf',
    };
    await ctx.service.uploadReceipt(shopId, id, upload, receiptCheck(file.bytes, ticket));
    return undefined;
  } finally {
    ticket.release();
  }
}

export async function uploadPageReceipt(event: H3Event, ctx: RouteContext): Promise<string> {
  const req: PageRequest = pageRequest(event, ctx);
  const target = findTarget(event, ctx, req);
  const body = new ReceiptUploadBody(event, RECEIPT_LIMIT, 'receipt', ctx.limits.connections.uploadDeadlineMs);
  if (!target || target.kind !== 'payment') {
    body.leaveUnread();
    return notFoundPage(event, req);
  }
  const answer = (status: number, key: MessageKey) => {
    body.leaveUnread();
    const now = findTarget(event, ctx, req) ?? target;
    return answerPage(event, ctx, req, now, status, { notice: { key } });
  };
  if (!sameOrigin(event, ctx.urls.paymentPage)) return answer(STATUS_OF.cross_site_request, 'upload.cross_site');
  try {
    const refused = await receive(ctx, body, target.op.shop_id, target.op.id);
    if (refused) return answer(refused.status, refused.key);
  } catch (e) {
    const r = refusal(e);
    if (!r) {
      body.leaveUnread();
      return notFoundPage(event, req);
    }
    for (const [k, v] of Object.entries(r.headers)) event.res.headers.set(k, v);
    return answer(r.status, r.key);
  }
  return backToPage(event, req);
}
