// The endpoint table of the gateway (spec §1, §4): one row per endpoint, used by the emulator's router,
// the client and the OpenAPI generator, so the three cannot drift apart. The sandbox's controls have their own
// table of the same shape in controls.ts.
import type { z } from 'zod';
import {
  AvailabilityQuery,
  AvailabilityResponse,
  RecommendationsRequest,
  RecommendationsResponse,
} from './availability.js';
import { BalancesResponse } from './balances.js';
import { FlexibleLinkRequest, FlexibleLinkResponse } from './links.js';
import {
  CancelOperationRequest,
  CancelOperationResponse,
  ConfirmPaymentRequest,
  CreateOperationRequest,
  GetOperationStateRequest,
  LinkOperation,
  Operation,
  OperationState,
} from './operations.js';
import type { EndpointRow } from './endpoint-row.js';

/** The optional endpoint groups a key can be limited to (spec §7): a key limited to other groups gets 403. */
export type EndpointScope = 'links' | 'amounts';

export interface EndpointDef extends EndpointRow {
  readonly method: 'GET' | 'POST';
  /** `key`: the X-API-Key header is required; `none`: the health probes. */
  readonly auth: 'key' | 'none';
  /** multipart/form-data body (documented shape). */
  readonly multipart?: z.ZodType;
  /** The optional endpoint group the endpoint belongs to. Default: none (every key may call it). */
  readonly scope?: EndpointScope;
}

const def = <const T extends EndpointDef>(d: T) => d;

export const endpoints = {
  'payment.create': def({
    id: 'payment.create',
    method: 'POST',
    path: '/v1/payment',
    summary: 'Create inbound payment',
    auth: 'key',
    body: CreateOperationRequest,
    response: Operation,
    errors: [400, 401, 412, 429],
  }),
  'payment.link': def({
    id: 'payment.link',
    scope: 'links',
    method: 'POST',
    path: '/v1/payment/link',
    summary: 'Create inbound payment plus hosted page URL',
    auth: 'key',
    body: CreateOperationRequest,
    response: LinkOperation,
    errors: [400, 401, 403, 412, 429, 503],
  }),
  'payment.flexible_link': def({
    id: 'payment.flexible_link',
    scope: 'links',
    method: 'POST',
    path: '/v1/payment/link/flexible',
    summary: 'Hosted link with payer-chosen amount',
    auth: 'key',
    body: FlexibleLinkRequest,
    response: FlexibleLinkResponse,
    errors: [400, 401, 403, 412, 429, 503],
  }),
  'payout.create': def({
    id: 'payout.create',
    method: 'POST',
    path: '/v1/payout',
    summary: 'Create outbound payout',
    auth: 'key',
    body: CreateOperationRequest,
    response: Operation,
    errors: [400, 401, 412, 429],
  }),
  'payment.confirm': def({
    id: 'payment.confirm',
    method: 'POST',
    path: '/v1/confirm_payment',
    summary: 'Upload receipt confirmation for a payment (multipart)',
    auth: 'key',
    multipart: ConfirmPaymentRequest,
    response: Operation,
    errors: [400, 401, 404, 409, 413, 415, 429, 503],
  }),
  'operation.state': def({
    id: 'operation.state',
    method: 'POST',
    path: '/v1/get_operation_state',
    summary: 'Read operation state',
    auth: 'key',
    body: GetOperationStateRequest,
    response: OperationState,
    errors: [400, 401, 404, 429, 503],
  }),
  'operation.cancel': def({
    id: 'operation.cancel',
    method: 'POST',
    path: '/v1/cancel_operation',
    summary: 'Cancel a payment',
    auth: 'key',
    body: CancelOperationRequest,
    response: CancelOperationResponse,
    errors: [400, 401, 404, 412, 429, 503],
  }),
  'balances.list': def({
    id: 'balances.list',
    method: 'GET',
    path: '/v1/balances',
    summary: 'Shop balances',
    auth: 'key',
    response: BalancesResponse,
    errors: [401, 429, 500, 503],
  }),
  'payment.availability': def({
    id: 'payment.availability',
    scope: 'amounts',
    method: 'GET',
    path: '/v1/payment/availability',
    summary: 'Available amount intervals',
    auth: 'key',
    query: AvailabilityQuery,
    response: AvailabilityResponse,
    errors: [400, 401, 403, 404, 412, 429, 503],
  }),
  'payment.recommendations': def({
    id: 'payment.recommendations',
    scope: 'amounts',
    method: 'POST',
    path: '/v1/payment/recommendations',
    summary: 'Nearby amount recommendations',
    auth: 'key',
    body: RecommendationsRequest,
    response: RecommendationsResponse,
    errors: [400, 401, 403, 412, 429, 503],
  }),
  'health.livez': def({
    id: 'health.livez',
    method: 'GET',
    path: '/livez',
    status: 204,
    summary: 'Liveness probe',
    auth: 'none',
    errors: [503],
  }),
  'health.healthz': def({
    id: 'health.healthz',
    method: 'GET',
    path: '/healthz',
    status: 204,
    summary: 'Health probe',
    auth: 'none',
    errors: [503],
  }),
  'health.readyz': def({
    id: 'health.readyz',
    method: 'GET',
    path: '/readyz',
    status: 204,
    summary: 'Readiness probe',
    auth: 'none',
    errors: [503],
  }),
} as const;

export type EndpointId = keyof typeof endpoints;
