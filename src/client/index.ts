// Public entry of the client (`paygate/client`): the Paygate class, its errors, the in-process transport and types.
export { Paygate } from './paygate.js';
export { Paygate as default } from './paygate.js';
export { PaygateCore, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, maskKey } from './core.js';
export type { ClientOptions, RequestOptions, RequestInput, ResponseOf, AnyEndpointId } from './core.js';
export { APIPromise } from './api-promise.js';
export type { ResponseInfo, WithResponse, WithMerchantOperationId } from './api-promise.js';
export {
  PaygateError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  PreconditionFailedError,
  IdempotencyConflictError,
  RateLimitError,
  InternalServerError,
  ServiceUnavailableError,
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  ContractMismatchError,
  CancelOutcomeUnknownError,
  parseRetryAfter,
} from './errors.js';
export type { APIErrorInit } from './errors.js';
export { createInProcessDispatcher } from './in-process.js';
export type { CaCertificates } from './certificates.js';
export type { FetchHandler } from './in-process.js';
export type { ReceiptSource } from './multipart.js';
export { backoffMs, RETRY_CLASS, SANDBOX_RETRY_CLASS, MAX_RETRY_AFTER_SECONDS } from './retry.js';
export type { RetryClass } from './retry.js';
export { Payments } from './resources/payments.js';
export type {
  CreateOperationInput,
  CreateFlexibleLinkInput,
  ConfirmPaymentInput,
  AvailabilityInput,
  RecommendationsInput,
} from './resources/payments.js';
export { Payouts } from './resources/payouts.js';
export { Operations } from './resources/operations.js';
export type { OperationRef, CancelOperationInput } from './resources/operations.js';
export { Balances } from './resources/balances.js';
export { Health, HEALTH_PROBES } from './resources/health.js';
export type { HealthProbe, HealthStatus } from './resources/health.js';
export {
  SandboxControls,
  SandboxOperations,
  SandboxClockControl,
  SandboxEvidenceControl,
  SandboxKeys,
  SandboxWebhooks,
  SandboxPool,
  SandboxLinks,
  SandboxFaults,
} from './resources/sandbox.js';
export type {
  SandboxListOperationsInput,
  SandboxPayInput,
  SandboxReviewInput,
  SandboxSettleOutcome,
  SandboxReviewDecision,
  SandboxListKeysInput,
  SandboxIssueKeyInput,
  SandboxAddWebhookInput,
  SandboxWebhookDeliveriesInput,
  SandboxRedeliverInput,
  SandboxPoolGenerate,
  SandboxPoolLayoutInput,
  SandboxPoolShowInput,
  SandboxPoolSettingsInput,
  SandboxConfirmLinkInput,
  SandboxFaultInput,
} from './resources/sandbox.js';
export { sandboxEndpoints } from './sandbox-endpoints.js';
export {
  SandboxResetResponse,
  SandboxWebhookEndpoint,
  SandboxWebhookList,
  SandboxWebhookCreated,
  SandboxWebhookRotated,
  SandboxWebhookDeleted,
  SandboxWebhookAttempt,
  SandboxWebhookDelivery,
  SandboxWebhookDeliveries,
  SandboxWebhookRedelivered,
} from '../contract/index.js';
export type { SandboxEndpointDef, SandboxEndpointId, SandboxEndpointOf } from './sandbox-endpoints.js';
export type { Fault, FaultEvent } from '../contract/faults.js';
export type {
  ListOperationsResponse,
  OperationDetails,
  ClockState,
  KeyInfo,
  IssuedKey,
  PoolLayoutResponse,
  PoolState,
  ReadSettings,
  LinkInfo,
} from '../contract/sandbox.js';
export type {
  Operation,
  LinkOperation,
  OperationState,
  CancelOperationResponse,
  FlexibleLinkResponse,
  AmountSelection,
  BalancesResponse,
  BalanceRow,
  AvailabilityResponse,
  RecommendationsResponse,
  Receipt,
  OperationStatus,
  OperationType,
  ErrorBody,
} from '../contract/index.js';
export { VERSION } from './version.js';
