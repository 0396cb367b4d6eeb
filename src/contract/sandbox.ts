// The sandbox's own control API (not part of the gateway): what a payer, provider, reviewer or administrator
// would do, under /sandbox. Shop actions take the shop's X-API-Key; cross-shop actions take X-Admin-Token.
import { z } from 'zod';
import { OperationStatus, OperationType } from './common.js';
import { RequestAmount, Timestamp } from './money.js';
import { Operation, OperationState } from './operations.js';

export const PayRequest = z.object({ amount: RequestAmount.optional() }).meta({ id: 'SandboxPayRequest' });
export const SettleRequest = z.object({ outcome: z.enum(['completed', 'failed'], { error: 'must be "completed" or "failed"' }) }).meta({ id: 'SandboxSettleRequest' });
export const ReviewRequest = z
  .object({ decision: z.enum(['approve', 'decline'], { error: 'must be "approve" or "decline"' }), amount: RequestAmount.optional() })
  .meta({ id: 'SandboxReviewRequest' });

export const ListOperationsQuery = z.object({
  status: OperationStatus.optional(),
  type: OperationType.optional(),
  limit: z.coerce.number({ error: 'must be an integer' }).int().min(1).max(1000).default(50),
  offset: z.coerce.number({ error: 'must be an integer' }).int().min(0).default(0),
});

export const ListOperationsResponse = z.object({ total: z.number(), operations: z.array(Operation) }).meta({ id: 'SandboxOperationList' });
export type ListOperationsResponse = z.infer<typeof ListOperationsResponse>;

export const HistoryEntry = z.object({ at: Timestamp, from: z.string().nullable(), to: z.string(), cause: z.string() });
export const UploadInfo = z.object({
  id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number(),
  uploaded_at: Timestamp,
  review: z.object({ rule: z.string(), to: z.string(), reason: z.string().nullable().optional() }),
  amount: z.string().optional(),
});
export const OperationDetails = z
  .object({
    operation: OperationState,
    merchant_operation_id: z.string(),
    created_at: Timestamp,
    history: z.array(HistoryEntry),
    uploads: z.array(UploadInfo),
  })
  .meta({ id: 'SandboxOperationDetails' });
export type OperationDetails = z.infer<typeof OperationDetails>;

export const ClockState = z.object({ now: Timestamp, frozen: z.boolean(), pending_timers: z.number() }).meta({ id: 'SandboxClock' });
export type ClockState = z.infer<typeof ClockState>;
export const AdvanceRequest = z
  .object({
    by: z.union([
      z.number({ error: 'must be milliseconds or a duration such as "10s"' }).int().min(0).max(366 * 86_400_000),
      z.string().regex(/^\d+(ms|s|m|h|d)$/, { message: 'must be a duration such as "500ms", "10s", "5m", "2h" or "1d"' }),
    ]),
  })
  .meta({ id: 'SandboxAdvanceRequest' });

export const EvidenceRequest = z.object({ available: z.boolean({ error: 'must be true or false' }) });
export const EvidenceState = z.object({ available: z.boolean() });

export const IssueKeyRequest = z.object({ shop_id: z.string().min(1), label: z.string().max(200).optional() });
export const KeyInfo = z.object({
  id: z.string(),
  shop_id: z.string(),
  last4: z.string(),
  revoked: z.boolean(),
  label: z.string().optional(),
  created_at: Timestamp,
  revoked_at: Timestamp.optional(),
});
export type KeyInfo = z.infer<typeof KeyInfo>;
export const IssuedKey = KeyInfo.extend({ api_key: z.string().meta({ description: 'Shown once; only its hash is kept.' }) });
export type IssuedKey = z.infer<typeof IssuedKey>;
export const KeyList = z.object({ keys: z.array(KeyInfo) });
