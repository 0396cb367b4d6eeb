// The route table of the sandbox's control API (/sandbox, see src/emulator/controls.ts), kept apart from the
// gateway's table in src/contract/endpoints.ts so the gateway's OpenAPI never lists the sandbox's controls.
// Same role as that table for the client: method, path, credential and response schema of every control call.
import { z } from 'zod';
import { Timestamp } from '../contract/money.js';
import { Operation } from '../contract/operations.js';
import { ClockState, EvidenceState, IssuedKey, KeyInfo, KeyList, ListOperationsResponse, OperationDetails } from '../contract/sandbox.js';

/** Body of POST /sandbox/reset (the sandbox answers `{ reset: true, now }`; not in src/contract/sandbox.ts yet). */
export const SandboxResetResponse = z.object({ reset: z.literal(true), now: Timestamp });
export type SandboxResetResponse = z.infer<typeof SandboxResetResponse>;

export interface SandboxEndpointDef {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  /** Path template; `:id` is filled from `RequestInput.params.id` (URL-encoded). */
  readonly path: string;
  readonly summary: string;
  /** `key`: the shop's X-API-Key (shop-scoped actions); `admin`: X-Admin-Token (cross-shop controls). */
  readonly auth: 'key' | 'admin';
  /** Response body on success. */
  readonly response: z.ZodType;
}

const def = <T extends SandboxEndpointDef>(d: T) => d;

export const sandboxEndpoints = {
  sandboxListOperations: def({
    id: 'sandboxListOperations',
    method: 'GET',
    path: '/sandbox/operations',
    summary: "List the shop's operations, newest first",
    auth: 'key',
    response: ListOperationsResponse,
  }),
  sandboxOperationDetails: def({
    id: 'sandboxOperationDetails',
    method: 'GET',
    path: '/sandbox/operations/:id',
    summary: 'Operation state with its history and uploads',
    auth: 'key',
    response: OperationDetails,
  }),
  sandboxPay: def({
    id: 'sandboxPay',
    method: 'POST',
    path: '/sandbox/operations/:id/pay',
    summary: 'The payer transfers to a pending payment',
    auth: 'key',
    response: Operation,
  }),
  sandboxSettle: def({
    id: 'sandboxSettle',
    method: 'POST',
    path: '/sandbox/operations/:id/settle',
    summary: 'The provider completes or fails a pending payout',
    auth: 'key',
    response: Operation,
  }),
  sandboxReview: def({
    id: 'sandboxReview',
    method: 'POST',
    path: '/sandbox/operations/:id/review',
    summary: 'A reviewer approves or declines a payment under manual check',
    auth: 'key',
    response: Operation,
  }),
  sandboxClock: def({ id: 'sandboxClock', method: 'GET', path: '/sandbox/clock', summary: 'Sandbox time', auth: 'admin', response: ClockState }),
  sandboxAdvanceClock: def({
    id: 'sandboxAdvanceClock',
    method: 'POST',
    path: '/sandbox/clock/advance',
    summary: 'Move sandbox time forward, running every timer that falls due',
    auth: 'admin',
    response: ClockState,
  }),
  sandboxEvidence: def({
    id: 'sandboxEvidence',
    method: 'GET',
    path: '/sandbox/evidence',
    summary: 'Whether receipt evidence is available',
    auth: 'admin',
    response: EvidenceState,
  }),
  sandboxSetEvidence: def({
    id: 'sandboxSetEvidence',
    method: 'PUT',
    path: '/sandbox/evidence',
    summary: 'Switch receipt evidence on or off',
    auth: 'admin',
    response: EvidenceState,
  }),
  sandboxListKeys: def({ id: 'sandboxListKeys', method: 'GET', path: '/sandbox/keys', summary: 'API keys of every shop', auth: 'admin', response: KeyList }),
  sandboxIssueKey: def({ id: 'sandboxIssueKey', method: 'POST', path: '/sandbox/keys', summary: 'Issue an API key for a shop', auth: 'admin', response: IssuedKey }),
  sandboxRevokeKey: def({
    id: 'sandboxRevokeKey',
    method: 'POST',
    path: '/sandbox/keys/:id/revoke',
    summary: 'Revoke an API key',
    auth: 'admin',
    response: KeyInfo,
  }),
  sandboxReset: def({
    id: 'sandboxReset',
    method: 'POST',
    path: '/sandbox/reset',
    summary: 'Forget every operation and issued key; re-seed from the fixtures',
    auth: 'admin',
    response: SandboxResetResponse,
  }),
} as const;

export type SandboxEndpointId = keyof typeof sandboxEndpoints;
