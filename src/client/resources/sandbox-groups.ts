// client.sandbox.webhooks, .pool and .links: the shop's webhook endpoints and deliveries, the self-matching pools
// and flexible links as the payer sees them. Split from sandbox.ts (one file per group of controls).
import type { RequestOptions } from '../core.js';
import { PaygateError } from '../errors.js';
import type { SandboxWebhookDelivery } from '../../contract/index.js';
import { call, named, resource } from './resource.js';

export interface SandboxAddWebhookInput {
  /** Absolute http(s) URL the shop's events are POSTed to. */
  url: string;
}

export interface SandboxWebhookDeliveriesInput {
  /** Only deliveries that gave up (`status: "failed"`). Default: every delivery. */
  failed?: boolean | undefined;
  /** Only the deliveries of this event, e.g. `evt_<operation_id>_0`. Default: every event. */
  event_id?: string | undefined;
  /** Deliveries per page, 1 to 200. Default 50 (the sandbox's). */
  limit?: number | undefined;
  /** The previous page's `next_cursor`: the page after it. Default: the newest page. */
  cursor?: string | undefined;
}

/** What to deliver again: one event (to every endpoint of the shop that got it), or every failed delivery. */
export type SandboxRedeliverInput = { event_id: string; failed?: undefined } | { failed: true; event_id?: undefined };

/** `generate` of a pool layout: `count` amounts drawn from `[min, max]` on a grid of `step`, reproducible by `seed`. */
export interface SandboxPoolGenerate {
  /** How many payouts, 1 to 100,000. */
  count: number;
  /** Lowest amount, a decimal string such as `"500.00"`. */
  min: string;
  /** Highest amount, a decimal string such as `"50000.00"`. */
  max: string;
  /** Amounts are multiples of this above `min`. Default `"1.00"`. */
  step?: string | undefined;
  /** Seed of the generator: the same seed lays out the same amounts. Default 1. */
  seed?: number | undefined;
}

/**
 * What `client.sandbox.pool.layout()` lays out: these amounts, in this (matching) order, or generated ones.
 * Exactly one of `amounts` and `generate`.
 */
export type SandboxPoolLayoutInput =
  | { method: string; amounts: string[]; generate?: undefined }
  | { method: string; generate: SandboxPoolGenerate; amounts?: undefined };

export interface SandboxPoolShowInput {
  /** Only the windows of this method, e.g. `WT_RUB_C2C`. Default: every method. */
  method?: string | undefined;
  /** How many slots of each window to list, in matching order, 0 to 1000. Default 20. */
  limit?: number | undefined;
}

export interface SandboxPoolSettingsInput {
  /** How long each availability / recommendations read holds the replica's read slot, in ms of sandbox time (0 to 60,000). */
  read_latency_ms?: number | undefined;
  /** Whether the 5-reads-per-second-per-shop limit applies (`false` lifts it). */
  rate_limit?: boolean | undefined;
}

export interface SandboxConfirmLinkInput {
  /** The amount the payer picks, a decimal string within the link's bounds, e.g. `"2500.00"`. */
  amount: string;
}

const WEBHOOKS_HINT = 'see client.sandbox.webhooks.list() for what the sandbox holds now';
const REDELIVER_HINT =
  'it may or may not have been scheduled: see client.sandbox.webhooks.deliveries() before repeating it';

/**
 * The shop's webhook endpoints (`{ id, url, secret }`) and the deliveries of its events, with every attempt. Sent
 * with the client's API key: each shop sees only its own. A full `whsec_` secret is in the answers of `add()` and
 * `rotateSecret()` only; `list()` masks it to the last 4 characters.
 */
export class SandboxWebhooks extends resource({
  /** GET /sandbox/webhooks: the shop's endpoints, secrets masked (`whsec_…abcd`). */
  'webhooks.list': call(0),
  /** POST /sandbox/webhooks: register an endpoint; the answer holds its full secret, shown once. Not retried after a timeout. */
  'webhooks.add': call(1, (params: SandboxAddWebhookInput) => ({
    body: { url: params?.url },
    outcomeHint: `an endpoint may or may not have been added: ${WEBHOOKS_HINT}`,
  })),
  /**
   * POST /sandbox/webhooks/:id/rotate-secret: a new secret (in this answer only); the old one is still signed
   * alongside for 24 h of sandbox time. Not retried after a timeout.
   */
  'webhooks.rotate_secret': call(1, (id: string) => ({
    params: { id },
    outcomeHint: `the secret may or may not have been rotated: ${WEBHOOKS_HINT}`,
  })),
  /** DELETE /sandbox/webhooks/:id: its pending deliveries stop (`failed`, `error: endpoint_deleted`). Not retried after a timeout. */
  'webhooks.remove': call(1, (id: string) => ({ params: { id }, outcomeHint: WEBHOOKS_HINT })),
  /**
   * GET /sandbox/webhooks/deliveries: one page of deliveries with every attempt, newest first, optionally only failed
   * ones or one event's. While `has_more`, pass `next_cursor` back as `cursor` for the next page (or use
   * `allDeliveries()`).
   */
  'webhooks.deliveries': call(1, (query: SandboxWebhookDeliveriesInput = {}) => {
    const failed = query.failed === undefined ? undefined : String(query.failed);
    const limit = query.limit === undefined ? undefined : String(query.limit);
    return { query: { failed, event_id: query.event_id, limit, cursor: query.cursor } };
  }),
  /**
   * POST /sandbox/webhooks/deliveries/redeliver: deliver `{ event_id }` again at once (same `webhook-id` and body),
   * or every delivery that gave up (`{ failed: true }`). Not retried after a timeout.
   */
  'webhooks.redeliver': call(1, (params: SandboxRedeliverInput) => {
    const byEvent = params?.event_id !== undefined;
    if (byEvent === (params?.failed === true)) {
      throw new PaygateError('redeliver takes exactly one of { event_id } or { failed: true }');
    }
    return { body: byEvent ? { event_id: params.event_id } : { failed: true }, outcomeHint: REDELIVER_HINT };
  }),
}) {
  /**
   * Every matching delivery, newest first (after `cursor`, when given), fetched a page at a time (`limit` per
   * request, default 200) as the loop asks for them:
   * `for await (const d of client.sandbox.webhooks.allDeliveries({ failed: true })) …`.
   */
  async *allDeliveries(
    query: SandboxWebhookDeliveriesInput = {},
    options?: RequestOptions,
  ): AsyncGenerator<SandboxWebhookDelivery> {
    let cursor = query.cursor;
    for (;;) {
      const page = await this.deliveries({ ...query, limit: query.limit ?? 200, cursor }, options);
      yield* page.deliveries;
      if (!page.has_more || page.next_cursor === null) return;
      cursor = page.next_cursor;
    }
  }
}

const POOL_HINT =
  'see client.sandbox.pool.show() (admin) or client.sandbox.operations.list({ type: "payout" }) before repeating it';

/** The body of a pool layout: exactly one of `amounts` and `generate`. */
function layoutBody(params: SandboxPoolLayoutInput): Record<string, unknown> {
  const byAmounts = params?.amounts !== undefined;
  if (byAmounts === (params?.generate !== undefined)) {
    throw new PaygateError('layout takes exactly one of { amounts } or { generate: { count, min, max } }');
  }
  if (byAmounts) return { method: params.method, amounts: params.amounts };
  const { count, min, max, step, seed } = params.generate!;
  return {
    method: params.method,
    generate: { count, min, max, ...(step !== undefined ? { step } : {}), ...(seed !== undefined ? { seed } : {}) },
  };
}

/**
 * The self-matching pools (docs/pool.md). A payout routed to a pool becomes a slot that matched payments fill;
 * `layout()` creates many such payouts at once for the client's shop. `show()`, `settings()` and `updateSettings()`
 * are admin controls.
 */
export class SandboxPool extends resource({
  /**
   * POST /sandbox/pool/layout: payouts of the client's shop, in the pool its payout route for `method` reaches, in
   * matching order (each through the ordinary create rules: reserves and balances move). `412 not_pool_route` when
   * that route has no self-matching provider. Not retried after a timeout or a connection error.
   */
  'pool.layout': call(1, (params: SandboxPoolLayoutInput) => ({
    body: layoutBody(params),
    outcomeHint: `payouts may or may not have been laid out: ${POOL_HINT}`,
  })),
  /** GET /sandbox/pool (admin): every pool window (pool × method) with its open slots, free total and first `limit` slots. */
  'pool.show': call(1, (query: SandboxPoolShowInput = {}) => ({ query: { method: query.method, limit: query.limit } })),
  /** GET /sandbox/pool/settings (admin): `{ read_latency_ms, rate_limit }` of the amount reads. */
  'pool.settings': call(0),
  /**
   * POST /sandbox/pool/settings (admin): change the fields given, keep the others; resolves to the settings now in
   * force. Not retried after a timeout.
   */
  'pool.update_settings': call(1, (patch: SandboxPoolSettingsInput) => {
    const body: Record<string, unknown> = {};
    if (patch?.read_latency_ms !== undefined) body.read_latency_ms = patch.read_latency_ms;
    if (patch?.rate_limit !== undefined) body.rate_limit = patch.rate_limit;
    return { body, outcomeHint: 'read client.sandbox.pool.settings() to see the settings in force' };
  }),
}) {}

/**
 * Flexible links (POST /v1/payment/link/flexible) from the payer's side. Sent with the client's API key: a shop
 * sees only its own links.
 */
export class SandboxLinks extends resource({
  /** GET /sandbox/links/:operation_id: the link's status (`amount_selection`, `expired`, `rejected`, `confirmed`), bounds and deadline. */
  'links.show': named(
    'get',
    call(1, (operationId: string) => ({ params: { id: operationId } })),
  ),
  /**
   * POST /sandbox/links/:operation_id/confirm: the payer picks `amount` (within the link's bounds). The payment is
   * created under the link's operation_id for that amount, or `rejected` when the pool can no longer take it;
   * confirming again returns that payment. An expired link is `409 invalid_state`. Not retried after a timeout.
   */
  'links.confirm': call(2, (operationId: string, params: SandboxConfirmLinkInput) => ({
    params: { id: operationId },
    body: { amount: params?.amount },
    outcomeHint:
      'the payment may or may not have been created: read client.sandbox.links.get() or client.operations.get() before repeating it',
  })),
}) {}
