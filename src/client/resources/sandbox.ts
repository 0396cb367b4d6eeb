// client.sandbox: the paygate sandbox's own control API under /sandbox (not part of the gateway). Payer, provider
// and reviewer actions on the shop's operations, pool layout and flexible links (X-API-Key), and clock, evidence,
// key, pool and reset controls (X-Admin-Token). Actions that change state are not retried after a timeout or a connection error (retry.ts).
import type { APIPromise } from '../api-promise.js';
import type { PaygateCore, RequestInput, RequestOptions, ResponseOf } from '../core.js';
import { PaygateError } from '../errors.js';
import { call, coreOf, named, requestWith, resource } from './resource.js';
import {
  queryOf,
  SandboxLogs,
  streamOperations,
  type SandboxOperationFilters,
  type SandboxOperationRow,
} from './sandbox-support.js';
import type { OperationRef } from './operations.js';
import { SandboxFaults } from './sandbox-faults.js';
import { SandboxLinks, SandboxPool, SandboxWebhooks } from './sandbox-groups.js';

export * from './sandbox-faults.js';
export * from './sandbox-groups.js';

export interface SandboxListOperationsInput extends SandboxOperationFilters {
  /** Page size, 1 to 1000. Default 50. */
  limit?: number | undefined;
  /** How many of the newest matching operations to skip. Default 0. */
  offset?: number | undefined;
  /** A cursor: the `next_cursor` of the previous page. */
  starting_after?: string | undefined;
}

export interface SandboxPayInput {
  /** What the payer transfers, a decimal string such as `"250.00"`. Default: the payment's expected amount. */
  amount?: string | undefined;
}

export interface SandboxReviewInput {
  /** The approved amount (approve only). Default: the amount read from the last receipt, else the expected amount. */
  amount?: string | undefined;
}

export type SandboxSettleOutcome = 'completed' | 'failed';
export type SandboxReviewDecision = 'approve' | 'decline';

export interface SandboxListKeysInput {
  /** Only this shop's keys. Default: every shop's. */
  shop_id?: string | undefined;
}

export interface SandboxIssueKeyInput {
  /** The shop the key belongs to, e.g. `shop_a`. */
  shop_id: string;
  /** Free text shown in key lists, at most 200 characters. Default: none. */
  label?: string | undefined;
  /** Limit the key to these optional endpoint groups (`links`, `amounts`); others answer 403. Default: all. */
  scopes?: ('links' | 'amounts')[] | undefined;
}

const DETAILS_HINT =
  'the sandbox may or may not have applied it: read client.sandbox.operations.details() before repeating it';

/** The sandbox's control API, under `client.sandbox`. */
export class SandboxControls extends resource({
  /** GET /sandbox/balances (admin): every shop's balances. */
  'balances.all': named('balances', call(0)),
  /**
   * POST /sandbox/reset (admin): forget every operation, posting and issued key, drop pending timers and re-seed
   * from the fixtures. Not retried after a timeout or a connection error.
   */
  'sandbox.reset': call(0, () => ({ outcomeHint: 'the sandbox may or may not have been reset' })),
}) {
  /** Payer, provider and reviewer actions on the shop's operations (the client's API key). */
  readonly operations: SandboxOperations;
  /** Sandbox time (admin token). */
  readonly clock: SandboxClockControl;
  /** Availability of receipt evidence (admin token). */
  readonly evidence: SandboxEvidenceControl;
  /** API keys of every shop (admin token). */
  readonly keys: SandboxKeys;
  /** The shop's webhook endpoints and deliveries (the client's API key). */
  readonly webhooks: SandboxWebhooks;
  /** The self-matching pools: lay out payouts (API key), see the slots and set the read simulation (admin token). */
  readonly pool: SandboxPool;
  /** Flexible links as the payer sees them: read one, confirm an amount (the client's API key). */
  readonly links: SandboxLinks;
  /** The request log and its live stream (admin token: every shop; API key: its shop). */
  readonly logs: SandboxLogs;
  /** Fault injection: make a gateway endpoint fail, slow down or lose its answer (admin token). */
  readonly faults: SandboxFaults;

  constructor(core: PaygateCore) {
    super(core);
    this.operations = new SandboxOperations(core);
    this.clock = new SandboxClockControl(core);
    this.evidence = new SandboxEvidenceControl(core);
    this.keys = new SandboxKeys(core);
    this.webhooks = new SandboxWebhooks(core);
    this.pool = new SandboxPool(core);
    this.links = new SandboxLinks(core);
    this.logs = new SandboxLogs(core);
    this.faults = new SandboxFaults(core);
  }
}

/** Shop-scoped controls: sent with the client's API key, so they see only that shop's operations. */
export class SandboxOperations extends resource({
  /**
   * GET /sandbox/operations: operations newest first, with filters, `has_more` and `next_cursor` (every shop with the
   * admin token; the key's shop without it).
   */
  'operations.list': call(1, (query: SandboxListOperationsInput = {}) => ({ query: queryOf(query) })),
  /** POST …/pay: the payer transfers to a pending payment, which completes for that amount. Not retried after a timeout. */
  'operations.pay': call(2, (ref: OperationRef, params: SandboxPayInput = {}) =>
    on(ref, { body: params.amount !== undefined ? { amount: params.amount } : {}, outcomeHint: DETAILS_HINT }),
  ),
  /** POST …/settle: the provider completes or fails a pending payout. Not retried after a timeout. */
  'operations.settle': call(2, (ref: OperationRef, outcome: SandboxSettleOutcome) =>
    on(ref, { body: { outcome }, outcomeHint: DETAILS_HINT }),
  ),
  /** POST …/review: a reviewer approves (completes) or declines (rejects) a payment in manual_check. Not retried after a timeout. */
  'operations.review': call(3, (ref: OperationRef, decision: SandboxReviewDecision, params: SandboxReviewInput = {}) =>
    on(ref, {
      body: params.amount !== undefined ? { decision, amount: params.amount } : { decision },
      outcomeHint: DETAILS_HINT,
    }),
  ),
}) {
  /** GET /sandbox/operations/stream: each change as it is written (see streamOperations); ends when `options.signal` aborts. */
  stream(
    filters: SandboxOperationFilters & { id?: string | undefined } = {},
    options?: RequestOptions,
  ): AsyncGenerator<SandboxOperationRow> {
    return streamOperations(coreOf(this), filters, options);
  }

  /**
   * GET /sandbox/operations/:id (or `/-?merchant_operation_id=…`): the operation state plus its
   * merchant_operation_id, status history and receipt uploads.
   */
  details(
    ref: OperationRef,
    options?: RequestOptions & { shop?: string | undefined },
  ): APIPromise<ResponseOf<'operations.show'>> {
    const input = () => on(ref, options?.shop ? { query: { shop: options.shop } } : {});
    return requestWith(coreOf(this), 'operations.show', input, options);
  }
}

/** Sandbox time. Every delay of the sandbox (acceptance, settlement, expiry) is a timer on this clock. */
export class SandboxClockControl extends resource({
  /** GET /sandbox/clock (admin): `now`, whether the clock is frozen, and how many timers are pending. */
  'clock.show': named('get', call(0)),
  /**
   * POST /sandbox/clock/advance (admin): move sandbox time forward and run every timer that falls due; resolves
   * once they have run. Not retried after a timeout (advancing twice moves time twice).
   * @param by Milliseconds (integer ≥ 0) or a duration: `"500ms"`, `"10s"`, `"5m"`, `"2h"`, `"1d"`.
   */
  'clock.advance': call(1, (by: number | string) => ({
    body: { by },
    outcomeHint: 'time may or may not have moved: read client.sandbox.clock.get() before advancing again',
  })),
}) {}

/** Whether the providers' receipt evidence (and receipt links) are available: switch it off to test the fallbacks. */
export class SandboxEvidenceControl extends resource({
  /** GET /sandbox/evidence (admin). */
  'evidence.show': named('get', call(0)),
  /**
   * PUT /sandbox/evidence (admin). While off, get_operation_state of a completed payment answers 503
   * `evidence_unavailable` by operation_id and `receipt_evidence_status: "unavailable"` by merchant_operation_id.
   */
  'evidence.set': call(1, (available: boolean) => ({
    body: { available },
    outcomeHint: 'read client.sandbox.evidence.get() to see the current setting',
  })),
}) {}

/** API keys of every shop. Keys are stored hashed: an issued key is shown once. */
export class SandboxKeys extends resource({
  /** GET /sandbox/keys (admin): id, shop, last 4 characters and revocation of each key. */
  'keys.list': call(1, (query: SandboxListKeysInput = {}) => ({ query: { shop_id: query.shop_id } })),
  /** POST /sandbox/keys (admin): a new key for a shop; `api_key` is in this answer only. Not retried after a timeout. */
  'keys.issue': call(1, (params: SandboxIssueKeyInput) => ({
    body: {
      shop_id: params.shop_id,
      ...(params.label !== undefined ? { label: params.label } : {}),
      ...(params.scopes !== undefined ? { scopes: params.scopes } : {}),
    },
    outcomeHint: 'a key may or may not have been issued: see client.sandbox.keys.list()',
  })),
  /** POST /sandbox/keys/:id/revoke (admin): the key stops authenticating at once; revoking twice answers the same. */
  'keys.revoke': call(1, (id: string) => ({
    params: { id },
    outcomeHint: 'see client.sandbox.keys.list() for whether it was revoked',
  })),
}) {}

/**
 * `input` sent to `/sandbox/operations/<operation_id>` or `/sandbox/operations/-?merchant_operation_id=…`: exactly one
 * identifier.
 */
function on(ref: OperationRef, input: RequestInput): RequestInput {
  const byId = ref?.operation_id !== undefined;
  const byMerchantId = ref?.merchant_operation_id !== undefined;
  if (byId === byMerchantId) {
    throw new PaygateError('identify the operation by exactly one of { operation_id } or { merchant_operation_id }');
  }
  if (byId) return { ...input, params: { id: ref.operation_id! } };
  return {
    ...input,
    params: { id: '-' },
    query: { ...input.query, merchant_operation_id: ref.merchant_operation_id! },
  };
}
