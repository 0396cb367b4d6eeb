// The bounds of receipt checking, in one place (docs/controls.md, "Receipt checks"): how many PDF workers parse at once and
// how many uploads a shop, and the sandbox as a whole, may have admitted (being received, waiting or checked).

/** Wall-clock budget of one PDF parse, in ms, once a worker takes it; past it the PDF is unreadable_pdf. */
export const RECEIPT_CHECK_TIMEOUT_MS = 5000;
/** PDF worker threads parsing receipts at once (pdf-reader.ts); each has its own capped heap. */
export const RECEIPT_CHECK_WORKERS = 2;
/**
 * Checks of one shop running at once. Below the worker count, so a shop flooded with uploads always leaves a
 * worker free for the other shops' checks.
 */
export const RECEIPT_CHECKS_RUNNING_PER_SHOP = 1;
/** Uploads of one shop admitted at once (their bodies being received, waiting for a worker, or being checked); more is 429. */
export const RECEIPT_CHECKS_PER_SHOP = 4;
/** Uploads admitted at once over all shops; more is 503. Bounds the receipt bytes held in memory to this × 10 MiB. */
export const RECEIPT_CHECKS_TOTAL = 16;
/** Retry-After of a refused upload, in seconds: one check's time budget, within which a running check ends. */
export const RECEIPT_CHECK_RETRY_AFTER_S = Math.ceil(RECEIPT_CHECK_TIMEOUT_MS / 1000);

export interface ReceiptCheckLimits {
  workers: number;
  runningPerShop: number;
  perShop: number;
  total: number;
  retryAfterS: number;
}

export const RECEIPT_CHECK_LIMITS: ReceiptCheckLimits = {
  workers: RECEIPT_CHECK_WORKERS,
  runningPerShop: RECEIPT_CHECKS_RUNNING_PER_SHOP,
  perShop: RECEIPT_CHECKS_PER_SHOP,
  total: RECEIPT_CHECKS_TOTAL,
  retryAfterS: RECEIPT_CHECK_RETRY_AFTER_S,
};
