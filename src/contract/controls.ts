// The endpoint table of the sandbox's control API under /sandbox (not part of the gateway): one row per control,
// keyed by its stable dotted id. The emulator mounts it, the client derives client.sandbox from it, and the OpenAPI
// document lists it under the `sandbox` tag. Shop actions take the shop's X-API-Key; cross-shop ones X-Admin-Token.
import { z } from 'zod';
import { faultControls } from './faults.js';
import { Uuid } from './money.js';
import { Operation } from './operations.js';
import { control } from './control-def.js';
import { supportControls } from './support.js';
import {
  AdvanceRequest,
  ClockState,
  ConfirmLinkRequest,
  EvidenceRequest,
  EvidenceState,
  IssueKeyRequest,
  IssuedKey,
  KeyInfo,
  KeyList,
  LinkInfo,
  ListKeysQuery,
  ListOperationsQuery,
  ListOperationsResponse,
  OperationDetails,
  PayRequest,
  PoolLayoutRequest,
  PoolLayoutResponse,
  PoolState,
  PoolStateQuery,
  ReadSettings,
  ReadSettingsPatch,
  ReviewRequest,
  SandboxResetResponse,
  SettleRequest,
} from './sandbox.js';
import {
  DeliveriesQuery,
  RedeliverRequest,
  RegisterWebhookRequest,
  SandboxWebhookCreated,
  SandboxWebhookDeleted,
  SandboxWebhookDeliveries,
  SandboxWebhookList,
  SandboxWebhookRedelivered,
  SandboxWebhookRotated,
} from './sandbox-webhooks.js';
import { CreatedWorkspace, CreateWorkspaceRequest, WorkspaceDeleted, WorkspaceList } from './workspaces.js';

/** `:id` of /sandbox/operations/:id…: an operation_id, or `-` with `?merchant_operation_id=`. */
const OperationIdParam = z.object({
  id: z
    .string()
    .min(1)
    .meta({ description: 'operation_id (a UUID), or `-` with the query parameter merchant_operation_id.' }),
});
/** Identifies the operation when the path's id is `-`. */
const MerchantRefQuery = z.object({
  merchant_operation_id: z.string().optional().meta({ description: 'With the path id `-`.' }),
});
/** operations.show: with the admin token, `shop` tells which shop's merchant_operation_id is meant. */
const SupportRefQuery = MerchantRefQuery.extend({
  shop: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'The shop of the merchant_operation_id (admin token; needed when several shops use it).' }),
});
const LinkIdParam = z.object({ id: Uuid.meta({ description: "The flexible link's operation_id." }) });
const KeyIdParam = z.object({
  id: z.string().min(1).meta({ description: 'The key id (`key_…`), not the key itself.' }),
});
const WorkspaceIdParam = z.object({ id: z.string().min(1).meta({ description: 'The workspace id.' }) });
const WebhookIdParam = z.object({ id: z.string().min(1).meta({ description: 'The webhook endpoint id.' }) });

/** Errors every JSON body can cause: invalid or too large, wrong content type. */
const BODY_ERRORS = [400, 413, 415] as const;

export const sandboxControls = {
  'operations.list': control({
    id: 'operations.list',
    method: 'GET',
    path: '/sandbox/operations',
    summary: 'List operations, newest first, with filters and a cursor (the admin token: every shop; a key: its shop)',
    auth: 'support',
    query: ListOperationsQuery,
    response: ListOperationsResponse,
    errors: [400, 401],
  }),
  'operations.show': control({
    id: 'operations.show',
    method: 'GET',
    path: '/sandbox/operations/:id',
    summary: 'An operation with its history, uploads, webhook deliveries and ledger postings (admin token or key)',
    auth: 'support',
    params: OperationIdParam,
    query: SupportRefQuery,
    response: OperationDetails,
    errors: [400, 401, 404, 409],
  }),
  'operations.pay': control({
    id: 'operations.pay',
    method: 'POST',
    path: '/sandbox/operations/:id/pay',
    summary: 'The payer transfers to a pending payment',
    auth: 'key',
    params: OperationIdParam,
    query: MerchantRefQuery,
    body: PayRequest,
    response: Operation,
    errors: [...BODY_ERRORS, 401, 404, 409],
  }),
  'operations.settle': control({
    id: 'operations.settle',
    method: 'POST',
    path: '/sandbox/operations/:id/settle',
    summary: 'The provider completes or fails a pending payout',
    auth: 'key',
    params: OperationIdParam,
    query: MerchantRefQuery,
    body: SettleRequest,
    response: Operation,
    errors: [...BODY_ERRORS, 401, 404, 409],
  }),
  'operations.review': control({
    id: 'operations.review',
    method: 'POST',
    path: '/sandbox/operations/:id/review',
    summary: 'A reviewer approves or declines a payment under manual check',
    auth: 'key',
    params: OperationIdParam,
    query: MerchantRefQuery,
    body: ReviewRequest,
    response: Operation,
    errors: [...BODY_ERRORS, 401, 404, 409],
  }),
  'clock.show': control({
    id: 'clock.show',
    method: 'GET',
    path: '/sandbox/clock',
    summary: 'Sandbox time',
    auth: 'admin',
    response: ClockState,
    errors: [401],
  }),
  'clock.advance': control({
    id: 'clock.advance',
    method: 'POST',
    path: '/sandbox/clock/advance',
    summary: 'Move sandbox time forward, running every timer that falls due',
    auth: 'admin',
    body: AdvanceRequest,
    response: ClockState,
    errors: [...BODY_ERRORS, 401],
  }),
  'evidence.show': control({
    id: 'evidence.show',
    method: 'GET',
    path: '/sandbox/evidence',
    summary: 'Whether receipt evidence is available',
    auth: 'admin',
    response: EvidenceState,
    errors: [401],
  }),
  'evidence.set': control({
    id: 'evidence.set',
    method: 'PUT',
    path: '/sandbox/evidence',
    summary: 'Switch receipt evidence on or off',
    auth: 'admin',
    body: EvidenceRequest,
    response: EvidenceState,
    errors: [...BODY_ERRORS, 401],
  }),
  'keys.list': control({
    id: 'keys.list',
    method: 'GET',
    path: '/sandbox/keys',
    summary: 'API keys of every shop',
    auth: 'admin',
    query: ListKeysQuery,
    response: KeyList,
    errors: [401],
  }),
  'keys.issue': control({
    id: 'keys.issue',
    method: 'POST',
    path: '/sandbox/keys',
    summary: 'Issue an API key for a shop',
    auth: 'admin',
    body: IssueKeyRequest,
    response: IssuedKey,
    errors: [...BODY_ERRORS, 401, 404],
  }),
  'keys.revoke': control({
    id: 'keys.revoke',
    method: 'POST',
    path: '/sandbox/keys/:id/revoke',
    summary: 'Revoke an API key',
    auth: 'admin',
    params: KeyIdParam,
    response: KeyInfo,
    errors: [401, 404],
  }),
  'sandbox.reset': control({
    id: 'sandbox.reset',
    method: 'POST',
    path: '/sandbox/reset',
    summary: 'Forget every operation and issued key; re-seed from the fixtures',
    auth: 'admin',
    response: SandboxResetResponse,
    errors: [401],
  }),
  'webhooks.list': control({
    id: 'webhooks.list',
    method: 'GET',
    path: '/sandbox/webhooks',
    summary: "The shop's webhook endpoints, secrets masked",
    auth: 'key',
    response: SandboxWebhookList,
    errors: [401],
  }),
  'webhooks.add': control({
    id: 'webhooks.add',
    method: 'POST',
    path: '/sandbox/webhooks',
    summary: 'Register a webhook endpoint; its secret is in this answer only',
    auth: 'key',
    body: RegisterWebhookRequest,
    response: SandboxWebhookCreated,
    status: 201,
    errors: [...BODY_ERRORS, 401, 409],
  }),
  'webhooks.rotate_secret': control({
    id: 'webhooks.rotate_secret',
    method: 'POST',
    path: '/sandbox/webhooks/:id/rotate-secret',
    summary: "Rotate a webhook endpoint's secret (the old one is signed alongside for 24 h)",
    auth: 'key',
    params: WebhookIdParam,
    response: SandboxWebhookRotated,
    errors: [401, 404],
  }),
  'webhooks.remove': control({
    id: 'webhooks.remove',
    method: 'DELETE',
    path: '/sandbox/webhooks/:id',
    summary: 'Delete a webhook endpoint; its pending deliveries stop',
    auth: 'key',
    params: WebhookIdParam,
    response: SandboxWebhookDeleted,
    errors: [401, 404],
  }),
  'webhooks.deliveries': control({
    id: 'webhooks.deliveries',
    method: 'GET',
    path: '/sandbox/webhooks/deliveries',
    summary: 'Webhook deliveries with every attempt, newest first, a page at a time',
    auth: 'key',
    query: DeliveriesQuery,
    response: SandboxWebhookDeliveries,
    errors: [400, 401],
  }),
  'webhooks.redeliver': control({
    id: 'webhooks.redeliver',
    method: 'POST',
    path: '/sandbox/webhooks/deliveries/redeliver',
    summary: 'Deliver an event again, or every failed delivery',
    auth: 'key',
    body: RedeliverRequest,
    response: SandboxWebhookRedelivered,
    errors: [...BODY_ERRORS, 401, 404],
  }),
  'pool.layout': control({
    id: 'pool.layout',
    method: 'POST',
    path: '/sandbox/pool/layout',
    summary: "Lay out payouts of the key's shop in the pool its payout route reaches",
    auth: 'key',
    body: PoolLayoutRequest,
    response: PoolLayoutResponse,
    errors: [...BODY_ERRORS, 401, 409, 412],
  }),
  'pool.show': control({
    id: 'pool.show',
    method: 'GET',
    path: '/sandbox/pool',
    summary: 'The self-matching pools: windows, open slots and free remainders',
    auth: 'admin',
    query: PoolStateQuery,
    response: PoolState,
    errors: [400, 401],
  }),
  'pool.settings': control({
    id: 'pool.settings',
    method: 'GET',
    path: '/sandbox/pool/settings',
    summary: 'The amount-read simulation: read latency and the per-shop rate limit',
    auth: 'admin',
    response: ReadSettings,
    errors: [401],
  }),
  'pool.update_settings': control({
    id: 'pool.update_settings',
    method: 'POST',
    path: '/sandbox/pool/settings',
    summary: 'Change the amount-read simulation (read latency, rate limit)',
    auth: 'admin',
    body: ReadSettingsPatch,
    response: ReadSettings,
    errors: [...BODY_ERRORS, 401],
  }),
  'links.show': control({
    id: 'links.show',
    method: 'GET',
    path: '/sandbox/links/:id',
    summary: 'A flexible link as the sandbox keeps it',
    auth: 'key',
    params: LinkIdParam,
    response: LinkInfo,
    errors: [400, 401, 404],
  }),
  'links.confirm': control({
    id: 'links.confirm',
    method: 'POST',
    path: '/sandbox/links/:id/confirm',
    summary: 'The payer confirms an amount on a flexible link; the payment is created',
    auth: 'key',
    params: LinkIdParam,
    body: ConfirmLinkRequest,
    response: Operation,
    errors: [...BODY_ERRORS, 401, 404, 409],
  }),
  'workspaces.create': control({
    id: 'workspaces.create',
    method: 'POST',
    path: '/sandbox/workspaces',
    summary:
      "Create an isolated workspace (its own shops, keys, admin token, clock, pool, webhooks); its secrets are in this answer only (the server's admin token)",
    auth: 'admin',
    body: CreateWorkspaceRequest,
    response: CreatedWorkspace,
    status: 201,
    errors: [...BODY_ERRORS, 401, 403, 404, 409],
  }),
  'workspaces.list': control({
    id: 'workspaces.list',
    method: 'GET',
    path: '/sandbox/workspaces',
    summary: "The server's workspaces besides the default one (the server's admin token)",
    auth: 'admin',
    response: WorkspaceList,
    errors: [401, 403],
  }),
  'workspaces.delete': control({
    id: 'workspaces.delete',
    method: 'DELETE',
    path: '/sandbox/workspaces/:id',
    summary: "Delete a workspace and all its data (the server's admin token)",
    auth: 'admin',
    params: WorkspaceIdParam,
    response: WorkspaceDeleted,
    errors: [401, 403, 404],
  }),
  ...supportControls,
  ...faultControls,
} as const;

export type SandboxControls = typeof sandboxControls;
/** A control's dotted id, e.g. `clock.advance`. */
export type ControlId = keyof SandboxControls;
export type { SandboxControlDef } from './control-def.js';
