// The sandbox's own control API (not part of the gateway): what a payer, provider, reviewer or administrator
// would do, under /sandbox. Shop actions take the shop's X-API-Key; cross-shop actions take X-Admin-Token.
import { z } from 'zod';
import { typeError } from './echo.js';
import { durationSchema } from './duration-schema.js';
import { FaultEvent } from './faults.js';
import { OperationStatus, OperationType } from './common.js';
import { DecimalText, PositiveDecimalText, RequestAmount, Timestamp, WireAmount } from './money.js';
import { SandboxWebhookDelivery } from './sandbox-webhooks.js';
import { Operation, OperationState } from './operations.js';

export const PayRequest = z.object({ amount: RequestAmount.optional() }).meta({ id: 'SandboxPayRequest' });
export const SettleRequest = z
  .object({ outcome: z.enum(['completed', 'failed'], { error: 'must be "completed" or "failed"' }) })
  .meta({ id: 'SandboxSettleRequest' });
export const ReviewRequest = z
  .object({
    decision: z.enum(['approve', 'decline'], { error: 'must be "approve" or "decline"' }),
    amount: RequestAmount.optional(),
  })
  .meta({ id: 'SandboxReviewRequest' });

/** A point in time for a listing filter: an RFC 3339 timestamp or a date (`2026-11-23`, midnight UTC). */
const InstantFilter = z
  .string()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) &&
      !Number.isNaN(Date.parse(s)),
    {
      message: 'must be an RFC 3339 timestamp or a date, such as "2026-11-23T09:00:00Z" or "2026-11-23"',
    },
  )
  .transform((s) => new Date(s.length === 10 ? `${s}T00:00:00Z` : s).toISOString());

export const ListOperationsQuery = z.object({
  status: OperationStatus.optional(),
  type: OperationType.optional(),
  method: z.string().min(1).optional(),
  client_id: z.string().optional(),
  merchant_operation_id: z.string().optional(),
  shop: z
    .string()
    .min(1)
    .optional()
    .meta({ description: "Only this shop's operations (with the admin token; a shop key sees its own shop only)." }),
  since: InstantFilter.optional().meta({ description: 'Created at or after this moment.' }),
  until: InstantFilter.optional().meta({ description: 'Created before this moment.' }),
  min_amount: RequestAmount.optional().meta({ description: 'Expected amount at least this.' }),
  max_amount: RequestAmount.optional().meta({ description: 'Expected amount at most this.' }),
  limit: z.coerce.number({ error: 'must be an integer' }).int().min(1).max(1000).default(50),
  offset: z.coerce.number({ error: 'must be an integer' }).int().min(0).default(0),
  starting_after: z.string().optional().meta({ description: 'A cursor: the `next_cursor` of the previous page.' }),
});

/** A listed operation: the wire operation plus who and when, and why it stands where it does. */
export const OperationRow = Operation.extend({
  shop_id: z.string(),
  merchant_operation_id: z.string(),
  client_id: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  reason: z.string().nullable().meta({
    description:
      'The cause of the last transition (why it ended, for a terminal operation), e.g. "receipt: amount_matches".',
  }),
}).meta({ id: 'SandboxOperationRow' });
export type OperationRow = z.infer<typeof OperationRow>;

export const ListOperationsResponse = z
  .object({
    total: z.number().optional().meta({
      description:
        'How many match; omitted when counting would mean checking more than 20,000 operations (two or more filters, or a range, over a large store).',
    }),
    operations: z.array(OperationRow),
    has_more: z.boolean(),
    next_cursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as starting_after for the next page; null on the last.' }),
  })
  .meta({ id: 'SandboxOperationList' });
export type ListOperationsResponse = z.infer<typeof ListOperationsResponse>;

export const HistoryEntry = z.object({ at: Timestamp, from: z.string().nullable(), to: z.string(), cause: z.string() });
export const UploadInfo = z.object({
  id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number(),
  uploaded_at: Timestamp,
  review: z.object({ rule: z.string(), to: z.string(), reason: z.string().nullable().optional() }),
  amount: DecimalText.optional(),
});
export const LedgerPosting = z.object({
  id: z.string(),
  kind: z.string(),
  source: z.string(),
  destination: z.string(),
  currency: z.string(),
  amount: WireAmount,
  at: Timestamp,
});
export const OperationDetails = z
  .object({
    operation: OperationState,
    shop_id: z.string(),
    merchant_operation_id: z.string(),
    client_id: z.string(),
    created_at: Timestamp,
    updated_at: Timestamp,
    reason: z.string().nullable(),
    history: z.array(HistoryEntry),
    uploads: z.array(UploadInfo),
    webhooks: z
      .array(SandboxWebhookDelivery)
      .meta({ description: "The webhook deliveries of this operation's events, with every attempt." }),
    postings: z.array(LedgerPosting).meta({ description: 'Its ledger postings, in the order they were made.' }),
    /** Faults injected into requests on this operation (src/contract/faults.ts), oldest first; kept in memory only. */
    faults: z.array(FaultEvent).optional(),
  })
  .meta({ id: 'SandboxOperationDetails' });
export type OperationDetails = z.infer<typeof OperationDetails>;

export const ClockState = z
  .object({
    now: Timestamp,
    frozen: z.boolean(),
    pending_timers: z.number(),
    /** When the earliest pending timer falls due (null: none): how far a clock advance must go for something to happen. */
    next_timer_at: Timestamp.nullable().optional(),
  })
  .meta({ id: 'SandboxClock' });
export type ClockState = z.infer<typeof ClockState>;
export const AdvanceRequest = z.object({ by: durationSchema() }).meta({ id: 'SandboxAdvanceRequest' });

export const EvidenceRequest = z.object({ available: z.boolean({ error: typeError('true or false') }) });
export const EvidenceState = z.object({ available: z.boolean() });

export const KeyScopeEnum = z.enum(['links', 'amounts'], { error: 'must be "links" or "amounts"' });
export const IssueKeyRequest = z.object({
  shop_id: z.string().min(1),
  label: z.string().max(200).optional(),
  /** Limit the key to these optional endpoint groups (absent: all). */
  scopes: z.array(KeyScopeEnum).max(2).optional(),
});
export const KeyInfo = z.object({
  id: z.string(),
  shop_id: z.string(),
  last4: z.string(),
  revoked: z.boolean(),
  label: z.string().optional(),
  scopes: z.array(KeyScopeEnum).optional(),
  created_at: Timestamp,
  revoked_at: Timestamp.optional(),
});
export type KeyInfo = z.infer<typeof KeyInfo>;
export const IssuedKey = KeyInfo.extend({
  api_key: z.string().meta({ description: 'Shown once; only its hash is kept.' }),
});
export type IssuedKey = z.infer<typeof IssuedKey>;
export const KeyList = z.object({ keys: z.array(KeyInfo) });

// --- The self-matching pool and flexible links (docs/pool.md) ---

const PositiveAmount = RequestAmount;

/** At most this many payouts in one pool layout request. */
export const MAX_LAYOUT_PAYOUTS = 10_000;
/** At most this many open pool payouts per shop, counting layouts in progress (409 pool_limit beyond). */
export const MAX_POOL_SLOTS_PER_SHOP = 20_000;

/** POST /sandbox/pool/layout (shop key): payouts of the key's shop laid out in the pool its payout route reaches. */
export const PoolLayoutRequest = z
  .object({
    method: z.string().min(1, { message: 'is required' }),
    amounts: z.array(PositiveAmount).min(1).max(MAX_LAYOUT_PAYOUTS).optional(),
    generate: z
      .object({
        count: z
          .number({ error: typeError('an integer') })
          .int()
          .min(1)
          .max(MAX_LAYOUT_PAYOUTS),
        min: PositiveAmount,
        max: PositiveAmount,
        step: PositiveAmount.default('1.00'),
        seed: z
          .number({ error: typeError('an integer') })
          .int()
          .default(1),
      })
      .strict()
      .optional(),
  })
  .refine((b) => (b.amounts === undefined) !== (b.generate === undefined), {
    message: 'give either amounts or generate',
    path: ['amounts'],
  })
  .meta({ id: 'SandboxPoolLayoutRequest' });
export type PoolLayoutRequest = z.input<typeof PoolLayoutRequest>;

export const PoolLayoutResponse = z
  .object({
    created: z.number().int(),
    rejected: z.number().int(),
    /** First and last payout created, in matching order. */
    first_operation_id: z.string().nullable(),
    last_operation_id: z.string().nullable(),
  })
  .meta({ id: 'SandboxPoolLayoutResponse' });
export type PoolLayoutResponse = z.infer<typeof PoolLayoutResponse>;

export const PoolSlotInfo = z.object({
  payout_id: z.string(),
  shop_id: z.string(),
  amount: DecimalText,
  claimed: DecimalText,
  paid: DecimalText,
  free: DecimalText,
});
export const PoolWindowInfo = z.object({
  pool_id: z.string(),
  method: z.string(),
  currency: z.string(),
  min_piece: z.string(),
  min_remainder: z.string(),
  /** Open payout slots in the window. */
  slots: z.number().int(),
  free_total: DecimalText,
  /** The first `limit` slots in matching order. */
  first: z.array(PoolSlotInfo),
});
/** GET /sandbox/pool (admin). */
export const PoolState = z.object({ pools: z.array(PoolWindowInfo) }).meta({ id: 'SandboxPoolState' });
export type PoolState = z.infer<typeof PoolState>;
export const PoolStateQuery = z.object({
  method: z.string().optional(),
  limit: z.coerce.number({ error: 'must be an integer' }).int().min(0).max(1000).default(20),
});

/** GET/POST /sandbox/pool/settings (admin): the amount-read simulation of this replica. */
export const ReadSettings = z
  .object({
    read_latency_ms: z
      .number({ error: typeError('milliseconds (an integer)') })
      .int()
      .min(0)
      .max(60_000),
    rate_limit: z.boolean({ error: typeError('true or false') }),
  })
  .meta({ id: 'SandboxReadSettings' });
export type ReadSettings = z.infer<typeof ReadSettings>;
export const ReadSettingsPatch = ReadSettings.partial();

/** POST /sandbox/links/:operation_id/confirm (shop key): the payer confirms an amount on a flexible link. */
export const ConfirmLinkRequest = z.object({ amount: RequestAmount }).meta({ id: 'SandboxConfirmLinkRequest' });

/** GET /sandbox/links/:operation_id (shop key): a flexible link as the sandbox keeps it. */
export const LinkInfo = z
  .object({
    operation_id: z.string(),
    merchant_operation_id: z.string(),
    status: z.enum(['amount_selection', 'rejected', 'expired', 'confirmed']),
    method: z.string(),
    currency: z.string(),
    recommended_amount: PositiveDecimalText,
    min_amount: PositiveDecimalText.nullable(),
    max_amount: PositiveDecimalText.nullable(),
    expires_at: Timestamp.nullable(),
    confirmed_amount: PositiveDecimalText.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'SandboxLinkInfo' });
export type LinkInfo = z.infer<typeof LinkInfo>;

/** POST /sandbox/reset (admin). */
export const SandboxResetResponse = z.object({ reset: z.literal(true), now: Timestamp });
export type SandboxResetResponse = z.infer<typeof SandboxResetResponse>;

/** GET /sandbox/keys (admin). */
export const ListKeysQuery = z.object({
  shop_id: z.string().optional().meta({ description: "Only this shop's keys. Default: every shop's." }),
});
