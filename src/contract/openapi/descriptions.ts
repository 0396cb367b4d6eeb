// What the document says about each operation beyond its summary: the gateway's descriptions (from the spec, with
// what the sandbox does where the spec leaves it open), the tags, and the texts of the error responses.
import type { EndpointDef } from '../endpoints.js';

/** The gateway's tags, in the order tools show them; the sandbox's controls are under `sandbox`, webhooks under `webhooks`. */
export const TAGS = [
  {
    name: 'payments',
    description: 'Inbound payments: create, hosted links, receipt confirmation (spec §4.1–§4.3, §4.5).',
  },
  { name: 'payouts', description: 'Outbound payouts (spec §4.4).' },
  { name: 'operations', description: 'State reads and cancellation of an operation (spec §4.6, §4.7).' },
  { name: 'balances', description: 'Shop balances (spec §4.8).' },
  {
    name: 'amounts',
    description: 'Advisory amount availability and recommendations (spec §4.9, §4.10). Scope `amounts`.',
  },
  { name: 'health', description: 'Health probes; no key (spec §4.11).' },
  { name: 'sandbox', description: "The paygate sandbox's own controls under /sandbox: not part of the gateway." },
  {
    name: 'webhooks',
    description:
      'Events the sandbox POSTs to registered endpoints, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature).',
  },
] as const;

export const TAG_GROUPS = [
  { name: 'Gateway', tags: ['payments', 'payouts', 'operations', 'balances', 'amounts', 'health'] },
  { name: 'Sandbox', tags: ['sandbox', 'webhooks'] },
];

/** The tag of a gateway endpoint, by its dotted id. */
export function gatewayTag(e: Pick<EndpointDef, 'id'>): string {
  if (e.id === 'payment.availability' || e.id === 'payment.recommendations') return 'amounts';
  const group = e.id.slice(0, e.id.indexOf('.'));
  const tag = (
    {
      payment: 'payments',
      payout: 'payouts',
      operation: 'operations',
      balances: 'balances',
      health: 'health',
    } as Record<string, string>
  )[group];
  if (!tag) throw new Error(`no OpenAPI tag for the gateway endpoint ${e.id}`);
  return tag;
}

const REFUSED = 'merchant_id and shop_id are refused (400): the API key fixes them.';

/** The description of each gateway operation, by its id. */
export const GATEWAY_DESCRIPTIONS: Record<string, string> = {
  'payment.create':
    'Creates an inbound payment (spec §4.1). Idempotent on merchant_operation_id: the same body returns the original operation, ' +
    'another body 412. The answer is pending, or awaiting_confirmation when the route requires a receipt, or rejected when no ' +
    `provider accepts within 15 s (no synthetic pending). Never carries payment_url. ${REFUSED}`,
  'payment.link':
    'Creates the payment exactly like POST /v1/payment and adds payment_url, the hosted page `{payment_page_url}/<operation_id>`; ' +
    `null when the shop has no hosted page (spec §4.2). Scope \`links\`. ${REFUSED}`,
  'payment.flexible_link':
    'A hosted link whose amount the payer picks (spec §4.3). 200 in all three cases: the recommended amount is available now ' +
    '(an operation, as /v1/payment/link), another amount is (status amount_selection, no payment yet), or nothing is (status ' +
    "rejected, payment_url null). payment_url carries the page credential k: a secret. 412 when the shop's payin route for " +
    `the method is not only the self-matching pool. Scope \`links\`. ${REFUSED}`,
  'payout.create':
    'Creates an outbound payout (spec §4.4), usually pending; its terminal status arrives by webhook. number is required; ' +
    'bankname is required for WT_RUB_PHONE (and answered with bankname_details). settlement_amount is the payout plus ' +
    `commission_amount. ${REFUSED}`,
  'payment.confirm':
    'Uploads a receipt (a PDF part `receipt`) for a payment awaiting confirmation (spec §4.5); the answer is the operation after the ' +
    'automatic check (completed, or manual_check with its reason). 404 for an operation of another shop, 409 when the payment ' +
    `does not await a receipt. ${REFUSED}`,
  'operation.state':
    'The operation plus receipts and receipt_evidence_status (spec §4.6). Send exactly one of operation_id and ' +
    'merchant_operation_id. By operation_id, 503 (with Retry-After) when receipt evidence is unavailable; by ' +
    `merchant_operation_id, 200 with receipt_evidence_status unavailable and no receipts. ${REFUSED}`,
  'operation.cancel':
    'Cancels a payment (spec §4.7): outcome cancelled, or already_terminal with no change. Idempotent. Send exactly one of ' +
    'operation_id and merchant_operation_id; by merchant_operation_id to cancel a payment whose create may still be in flight. ' +
    `412 for a payout. ${REFUSED}`,
  'balances.list':
    "One row per supported currency of the key's shop, zero positions included (spec §4.8). No body, no query.",
  'payment.availability':
    'Available amount intervals of the self-matching pool for a range (spec §4.9): advisory, reserves nothing. At most 200 ' +
    'intervals; every answer carries Cache-Control: no-store; 5 requests per second per shop (429 with Retry-After). ' +
    `Scope \`amounts\`. ${REFUSED}`,
  'payment.recommendations':
    'Amounts near the desired one that the pool can take now, within the bounds (spec §4.10): advisory. At most `limit` ' +
    '(default 3, at most 10) recommendations and 200 intervals; Cache-Control: no-store; 5 requests per second per shop ' +
    `(429 with Retry-After). Scope \`amounts\`. ${REFUSED}`,
  'health.livez': '204 while the process runs (spec §4.11). No key.',
  'health.healthz': '204 while the sandbox is ready, else 503. No key.',
  'health.readyz': '204 while the sandbox is ready, else 503. No key.',
};

/** The description of a sandbox control: its summary, who may call it, and that it is not part of the gateway. */
export function controlDescription(summary: string, credential: 'key' | 'admin'): string {
  const who =
    credential === 'admin'
      ? 'Needs the X-Admin-Token printed by `paygate sandbox start`.'
      : "Acts on the X-API-Key's shop.";
  return `${summary}. Sandbox control, not part of the gateway. ${who}`;
}

/** Error texts of the gateway. */
export const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid JSON, or a field missing or malformed.',
  401: 'X-API-Key missing, invalid or revoked.',
  403: 'Key not authorized for this endpoint.',
  404: "Operation not in this shop's scope or not existing.",
  405: 'Another method than this path takes (a request with another method on this path; the Allow header lists the methods).',
  409: 'The operation is not in a state that accepts this request.',
  412: 'Precondition failed (idempotency key reused with another body, state or routing precondition).',
  413: 'Body too large: JSON bodies over 64 KiB, receipt uploads over 10 MiB.',
  415: 'Content-Type not accepted: a JSON body needs application/json (or a +json type), an upload multipart/form-data.',
  429: 'Rate limited. The spec gives no rate for this endpoint; the sandbox does not limit it.',
  500: 'Internal inconsistency.',
  503: 'Temporarily unavailable; retry with backoff (also: the store could not write the change, nothing was kept; or a standby process of a PostgreSQL store answered).',
};

/** Where the amount reads differ: they are rate limited. */
export const AMOUNTS_ERROR_TEXT: Record<number, string> = {
  429: 'More than 5 requests per second for this shop; retry after Retry-After seconds.',
  503: 'Read capacity busy (one read at a time), read budget exceeded or dependency unavailable: not an empty pool. Retry after Retry-After.',
};

/** Where the sandbox's controls differ from the gateway's wording. */
export const CONTROL_ERROR_TEXT: Record<number, string> = {
  404: "No such operation, link, key, shop, webhook endpoint or delivery (in this shop's scope).",
  412: 'Precondition failed (the shop has no route through a self-matching pool).',
  429: 'Too many requests or open streams; retry later.',
};
