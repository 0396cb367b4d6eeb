// The stored operation: a discriminated union on status, so each status carries only its own fields. Which moves
// exist is the state table's (src/domain/state-table.ts).
import type { MagicTag } from './magic.js';

export type OperationKind = 'payment' | 'payout';

/** Internal status: the public ones plus `admitting`, a create still waiting for provider acceptance (never shown). */
export type Status =
  'admitting' | 'pending' | 'awaiting_confirmation' | 'manual_check' | 'completed' | 'cancelled' | 'rejected';

export const TERMINAL: ReadonlySet<Status> = new Set(['completed', 'cancelled', 'rejected']);

export interface Destination {
  number?: string;
  name?: string;
  bankname?: string;
}

export interface Conversion {
  source: string;
  rate: string;
  ledger_currency: string;
}

/** A receipt file uploaded for a payment, with the automatic review's verdict. */
export interface ReceiptUpload {
  id: string;
  /** Key of the stored file (see the emulator's file store). */
  file_id: string;
  filename: string;
  content_type: string;
  size: number;
  uploaded_at: string;
  /** The automatic check: the rule that decided and where it sent the payment. */
  review: { rule: string; to: Status; reason?: 'potential_fake' | 'not_terminal' | null };
  /** Amount the receipt shows, when one was recognised and accepted. */
  amount?: string;
}

/** One completed payment that paid into a pool payout (its receipt item, spec §2.4). */
export interface Contribution {
  payment_id: string;
  amount: string;
  completed_at: string;
  /** The payer's uploaded receipt file, when the payment completed through one. */
  file_id?: string;
}

export interface HistoryEntry {
  at: string;
  from: Status | null;
  to: Status;
  /** What caused the move, e.g. `create`, `provider_rejected`, `cancel: <reason>`. */
  cause: string;
}

type OperationBase = {
  /** operation_id (UUID). */
  id: string;
  shop_id: string;
  merchant_operation_id: string;
  /** Canonical form of the create body; same key + same fingerprint = same request. */
  fingerprint: string;
  method: string;
  currency: string;
  expected_amount: string;
  actual_amount: string;
  client_id: string;
  client_ip?: string;
  /** Payout destination from the request, or the inbound requisites allocated to a payment. */
  destination?: Destination;
  /** Internal routing: never exposed. */
  provider_id?: string;
  route_id?: string;
  /** Sandbox magic tags taken from client_id (docs/magic-values.md). */
  magic: MagicTag[];
  conversion?: Conversion;
  /** In settlement currency, scale 2. */
  commission_amount: string;
  settlement_amount: string;
  settlement_currency: string;
  requires_receipt: boolean;
  expires_at?: string;
  created_at: string;
  updated_at: string;
  history: HistoryEntry[];
};

/** What only a payment carries. */
export type PaymentFields = {
  type: 'payment';
  /** Receipts uploaded through confirm_payment, oldest first. */
  uploads?: ReceiptUpload[];
  /** A payment matched to a pool slot: the payout it pays into and the amount it claims. */
  claim?: { payout_id: string; amount: string };
  /** Created through an opted-in flexible link: its hosted page needs the link's `k` credential. */
  flexible_link?: boolean;
  /** Created through POST /v1/payment/link: the only other way a payment gets a hosted page. */
  hosted_link?: boolean;
};

/** What only a payout carries. */
export type PayoutFields = {
  type: 'payout';
  /** A payout that is a slot of a self-matching pool: the pool (its provider id). */
  pool_id?: string;
  /** A pool payout: the completed payments that filled it, in completion order. */
  contributions?: Contribution[];
};

/**
 * The stored operation: common fields, then what its type carries (a payment cannot hold a pool or contributions,
 * a payout cannot hold uploads, a claim or a link), then what its status carries.
 */
export type OperationRecord = OperationBase &
  (PaymentFields | PayoutFields) &
  (
    | { status: 'admitting'; accept_at: string }
    | { status: 'pending' }
    | { status: 'awaiting_confirmation' }
    | { status: 'manual_check'; manual_check_reason: 'potential_fake' | 'not_terminal' | null }
    | { status: 'completed'; completed_at: string }
    | { status: 'cancelled'; cancelled_at: string; cancel_reason: string }
    | { status: 'rejected'; rejected_at: string; reject_reason: string }
  );

export function isTerminal(status: Status): boolean {
  return TERMINAL.has(status);
}

/** A payment's uploaded receipts (none for a payout). */
export function uploadsOf(op: OperationRecord): readonly ReceiptUpload[] {
  return op.type === 'payment' ? (op.uploads ?? []) : [];
}

/** The pool slot a payment claims, if it is matched to one. */
export function claimOf(op: OperationRecord): { payout_id: string; amount: string } | undefined {
  return op.type === 'payment' ? op.claim : undefined;
}

/** The pool a payout is a slot of, if any. */
export function poolOf(op: OperationRecord): string | undefined {
  return op.type === 'payout' ? op.pool_id : undefined;
}

/** The payments that filled a pool payout (none for anything else). */
export function contributionsOf(op: OperationRecord): readonly Contribution[] {
  return op.type === 'payout' ? (op.contributions ?? []) : [];
}
