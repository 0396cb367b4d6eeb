// The handler of every gateway endpoint, by the endpoint's id in src/contract/endpoints.ts.
import type { endpoints } from '../../../contract/endpoints.js';
import type { HandlersOf } from '../../http/mount.js';
import { createFlexibleLink, getAvailability, getRecommendations } from './amounts.js';
import { getBalances } from './balances.js';
import { confirmPayment } from './confirm.js';
import { healthz, livez, readyz } from './health.js';
import { cancelOperation, createPayment, createPaymentLink, createPayout, getOperationState } from './operations.js';

export const gatewayHandlers: HandlersOf<typeof endpoints> = {
  'payment.create': createPayment,
  'payment.link': createPaymentLink,
  'payment.flexible_link': createFlexibleLink,
  'payout.create': createPayout,
  'payment.confirm': confirmPayment,
  'operation.state': getOperationState,
  'operation.cancel': cancelOperation,
  'balances.list': getBalances,
  'payment.availability': getAvailability,
  'payment.recommendations': getRecommendations,
  'health.livez': livez,
  'health.healthz': healthz,
  'health.readyz': readyz,
};
