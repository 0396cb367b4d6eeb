// The endpoint table of the gateway (spec §1, §4): one row per endpoint, used by the emulator's router,
// the client and the OpenAPI generator, so the three cannot drift apart. The sandbox's controls have their own
// table of the same shape in controls.ts.
import type { z } from 'zod';
import { AvailabilityQuery, AvailabilityResponse, RecommendationsRequest, RecommendationsResponse } from './availability.js';
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
import type { RouteDef } from './route.js';

/** The optional endpoint groups a key can be limited to (spec §7): a key limited to other groups gets 403. */
export type EndpointScope = 'links' | 'amounts';

export interface EndpointDef extends RouteDef {
  /** The OpenAPI operationId and the client's request id, e.g. `createPayment`. */
  readonly id: string;
  readonly method: 'GET' | 'POST';
  /** Whether the X-API-Key header is required. */
  readonly auth: boolean;
  /** multipart/form-data body (documented shape). */
  readonly multipart?: z.ZodType;
  /** The optional endpoint group the endpoint belongs to. Default: none (every key may call it). */
  readonly scope?: EndpointScope;
}

const def = <const T extends EndpointDef>(d: T) => d;

export const endpoints = {
  createPayment: def({
    id: 'createPayment',
    name: 'payment.create',
    method: 'POST',
    path: '/v1/payment',
    summary: 'Create inbound payment',
    auth: true,
    body: CreateOperationRequest,
    response: Operation,
    errors: [400, 401, 412, 429],
  }),
  createPaymentLink: def({
    id: 'createPaymentLink',
    name: 'payment.link',
    scope: 'links',
    method: 'POST',
    path: '/v1/payment/link',
    summary: 'Create inbound payment plus hosted page URL',
    auth: true,
    body: CreateOperationRequest,
    response: LinkOperation,
    errors: [400, 401, 403, 412, 429, 503],
  }),
  createFlexibleLink: def({
    id: 'createFlexibleLink',
    name: 'payment.flexible_link',
    scope: 'links',
    method: 'POST',
    path: '/v1/payment/link/flexible',
    summary: 'Hosted link with payer-chosen amount',
    auth: true,
    body: FlexibleLinkRequest,
    response: FlexibleLinkResponse,
    errors: [400, 401, 403, 412, 429, 503],
  }),
  createPayout: def({
    id: 'createPayout',
    name: 'payout.create',
    method: 'POST',
    path: '/v1/payout',
    summary: 'Create outbound payout',
    auth: true,
    body: CreateOperationRequest,
    response: Operation,
    errors: [400, 401, 412, 429],
  }),
  confirmPayment: def({
    id: 'confirmPayment',
    name: 'payment.confirm',
    method: 'POST',
    path: '/v1/confirm_payment',
    summary: 'Upload receipt confirmation for a payment (multipart)',
    auth: true,
    multipart: ConfirmPaymentRequest,
    response: Operation,
    errors: [400, 401, 404, 409, 413, 415, 429, 503],
  }),
  getOperationState: def({
    id: 'getOperationState',
    name: 'operation.state',
    method: 'POST',
    path: '/v1/get_operation_state',
    summary: 'Read operation state',
    auth: true,
    body: GetOperationStateRequest,
    response: OperationState,
    errors: [400, 401, 404, 429, 503],
  }),
  cancelOperation: def({
    id: 'cancelOperation',
    name: 'operation.cancel',
    method: 'POST',
    path: '/v1/cancel_operation',
    summary: 'Cancel a payment',
    auth: true,
    body: CancelOperationRequest,
    response: CancelOperationResponse,
    errors: [400, 401, 404, 412, 429, 503],
  }),
  getBalances: def({
    id: 'getBalances',
    name: 'balances.list',
    method: 'GET',
    path: '/v1/balances',
    summary: 'Shop balances',
    auth: true,
    response: BalancesResponse,
    errors: [401, 429, 500, 503],
  }),
  getAvailability: def({
    id: 'getAvailability',
    name: 'payment.availability',
    scope: 'amounts',
    method: 'GET',
    path: '/v1/payment/availability',
    summary: 'Available amount intervals',
    auth: true,
    query: AvailabilityQuery,
    response: AvailabilityResponse,
    errors: [400, 401, 403, 404, 412, 429, 503],
  }),
  getRecommendations: def({
    id: 'getRecommendations',
    name: 'payment.recommendations',
    scope: 'amounts',
    method: 'POST',
    path: '/v1/payment/recommendations',
    summary: 'Nearby amount recommendations',
    auth: true,
    body: RecommendationsRequest,
    response: RecommendationsResponse,
    errors: [400, 401, 403, 412, 429, 503],
  }),
  livez: def({ id: 'livez', name: 'health.livez', method: 'GET', path: '/livez', status: 204, summary: 'Liveness probe', auth: false, errors: [503] }),
  healthz: def({ id: 'healthz', name: 'health.healthz', method: 'GET', path: '/healthz', status: 204, summary: 'Health probe', auth: false, errors: [503] }),
  readyz: def({ id: 'readyz', name: 'health.readyz', method: 'GET', path: '/readyz', status: 204, summary: 'Readiness probe', auth: false, errors: [503] }),
} as const;

export type EndpointId = keyof typeof endpoints;
