// The endpoint table of the gateway (spec §1, §4): one row per endpoint, used by the emulator's router,
// the client and the OpenAPI generator, so the three cannot drift apart.
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

export interface EndpointDef {
  readonly id: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly summary: string;
  /** Whether the X-API-Key header is required. */
  readonly auth: boolean;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  /** multipart/form-data body (documented shape). */
  readonly multipart?: z.ZodType;
  /** Response body on success; undefined means 204 No Content. */
  readonly response?: z.ZodType;
  /** Error statuses the endpoint can answer with (spec §7). */
  readonly errors: readonly number[];
}

const def = <T extends EndpointDef>(d: T) => d;

export const endpoints = {
  createPayment: def({
    id: 'createPayment',
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
    method: 'POST',
    path: '/v1/confirm_payment',
    summary: 'Upload receipt confirmation for a payment (multipart)',
    auth: true,
    multipart: ConfirmPaymentRequest,
    response: Operation,
    errors: [400, 401, 404, 409, 413, 415, 429],
  }),
  getOperationState: def({
    id: 'getOperationState',
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
    method: 'GET',
    path: '/v1/balances',
    summary: 'Shop balances',
    auth: true,
    response: BalancesResponse,
    errors: [401, 429, 500, 503],
  }),
  getAvailability: def({
    id: 'getAvailability',
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
    method: 'POST',
    path: '/v1/payment/recommendations',
    summary: 'Nearby amount recommendations',
    auth: true,
    body: RecommendationsRequest,
    response: RecommendationsResponse,
    errors: [400, 401, 403, 412, 429, 503],
  }),
  livez: def({ id: 'livez', method: 'GET', path: '/livez', summary: 'Liveness probe', auth: false, errors: [503] }),
  healthz: def({ id: 'healthz', method: 'GET', path: '/healthz', summary: 'Health probe', auth: false, errors: [503] }),
  readyz: def({ id: 'readyz', method: 'GET', path: '/readyz', summary: 'Readiness probe', auth: false, errors: [503] }),
} as const;

export type EndpointId = keyof typeof endpoints;
