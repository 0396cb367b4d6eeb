// Mapping stored records to the wire shapes of the contract. Internal routing ids never leave this file.
import { contributionsOf, uploadsOf } from '../domain/operation.js';
import type { BalanceRow, Operation, OperationState, Receipt } from '../contract/index.js';
import type { OperationRow } from '../contract/sandbox.js';
import type { BalanceFigures } from '../domain/ledger.js';
import type { OperationRecord } from '../domain/operation.js';
import type { WorldIndex } from '../domain/world.js';
import { isTerminal } from '../domain/operation.js';
import { money, toScale2 } from '../domain/money.js';
import { converted } from '../domain/pricing.js';
import { nameUuid } from '../domain/ids.js';

export type PublicOperation = Exclude<OperationRecord, { status: 'admitting' }>;

export function toWireOperation(op: PublicOperation, world: WorldIndex): Operation {
  const out: Operation = {
    operation_id: op.id,
    type: op.type,
    status: op.status,
    method: op.method,
    expected_amount: op.expected_amount,
    actual_amount: op.actual_amount,
    currency: op.currency,
    settlement_amount: op.settlement_amount,
    settlement_currency: op.settlement_currency,
    commission_amount: op.commission_amount,
  };
  if (op.conversion) {
    // A quote, not the rate: the expected amount at the route's rate, in the ledger currency (spec §2.3).
    out.fx_source = op.conversion.source;
    out.fx_rate = toScale2(converted(money(op.expected_amount), op.conversion));
  }
  if (op.status === 'completed' && !money(op.actual_amount).isZero()) {
    // The ledger fact exists once the operation completed: a pending pool payout that payers have partly paid
    // shows a non-zero actual_amount (the physical fact) but no recorded_* (spec §2.3, docs/pool.md).
    out.recorded_currency = op.conversion?.ledger_currency ?? op.currency;
    out.recorded_amount = toScale2(converted(money(op.actual_amount), op.conversion));
  }
  if (op.requires_receipt) out.external_confirmation = { required: true, methods: ['receipt'] };
  const d = op.destination;
  if (d) {
    if (d.number !== undefined) out.number = d.number;
    if (d.name !== undefined) out.name = d.name;
    if (d.bankname !== undefined) {
      out.bankname = d.bankname;
      const bank = world.banks.get(d.bankname);
      if (bank && world.methods.get(op.method)?.rail === 'phone') out.bankname_details = bank.name;
    }
  }
  if (op.expires_at) out.expires_at = op.expires_at;
  if (op.status === 'manual_check') out.manual_check_reason = op.manual_check_reason ?? 'potential_fake';
  return out;
}

/** Why an operation stands where it does: the cause of its last transition (why it ended, once terminal). */
export function reasonOf(op: PublicOperation): string | null {
  return op.history.at(-1)?.cause ?? null;
}

/** What the support reads add to the wire operation: whose it is, when, and why it stands where it does. */
export function supportFieldsOf(op: PublicOperation): Omit<OperationRow, keyof Operation> {
  return {
    shop_id: op.shop_id,
    merchant_operation_id: op.merchant_operation_id,
    client_id: op.client_id,
    created_at: op.created_at,
    updated_at: op.updated_at,
    reason: reasonOf(op),
  };
}

/** A row of the sandbox listing: the wire operation plus who and when, and the reason. */
export function toOperationRow(op: PublicOperation, world: WorldIndex): OperationRow {
  return { ...toWireOperation(op, world), ...supportFieldsOf(op) };
}

export interface EvidenceOptions {
  /** Whether provider evidence and URL signing are available now. */
  available: boolean;
  /** A short-lived download link for a stored file, or null when signing is unavailable. */
  signFile: (fileId: string) => string;
}

/**
 * get_operation_state: the operation plus receipts and their evidence status (spec §2.4). Returns
 * `unavailable` (empty list) when evidence is switched off and the operation is terminal.
 */
export function toWireState(op: PublicOperation, world: WorldIndex, evidence: EvidenceOptions): OperationState {
  const base = toWireOperation(op, world);
  if (!isTerminal(op.status)) return { ...base, receipts: [], receipt_evidence_status: 'not_ready' };
  if (op.status !== 'completed' || money(op.actual_amount).isZero()) {
    // No positive leg: nothing to decompose, the (empty) evidence is complete.
    return { ...base, receipts: [], receipt_evidence_status: 'complete' };
  }
  if (!evidence.available) return { ...base, receipts: [], receipt_evidence_status: 'unavailable' };
  const contributions = contributionsOf(op);
  if (contributions.length > 0) {
    // A pool payout: one item per matched payment that paid into it, with that payment's receipt when it had one.
    const items: Receipt[] = contributions
      .map((c) => ({
        id: nameUuid('contribution', op.id, c.payment_id),
        amount: Number(c.amount),
        completed_at: c.completed_at,
        receipt_url: c.file_id ? evidence.signFile(c.file_id) : null,
      }))
      .sort((a, b) =>
        a.completed_at < b.completed_at
          ? -1
          : a.completed_at > b.completed_at
            ? 1
            : a.id < b.id
              ? -1
              : a.id > b.id
                ? 1
                : 0,
      );
    return {
      ...base,
      receipts: items,
      receipt_evidence_status: items.every((i) => i.receipt_url !== null) ? 'complete' : 'partial',
    };
  }
  const upload = [...uploadsOf(op)]
    .reverse()
    .find((u) => u.review.to === 'completed' || u.review.to === 'manual_check');
  if (upload) {
    // The payer's uploaded receipt is the provider evidence of the one leg.
    const item: Receipt = {
      id: upload.id,
      amount: Number(op.actual_amount),
      completed_at: op.completed_at,
      receipt_url: evidence.signFile(upload.file_id),
    };
    return { ...base, receipts: [item], receipt_evidence_status: 'complete' };
  }
  // A leg with no provider file: a synthetic legacy contribution with the leg's authoritative amount.
  const synthetic: Receipt = {
    id: nameUuid('receipt', op.id, 'legacy'),
    amount: Number(op.actual_amount),
    completed_at: op.completed_at,
    receipt_url: null,
  };
  return { ...base, receipts: [synthetic], receipt_evidence_status: 'partial' };
}

export function toWireBalance(row: BalanceFigures): BalanceRow {
  return {
    currency: row.currency,
    balance: toScale2(row.balance),
    current_minus: toScale2(row.current_minus),
    reserved: toScale2(row.reserved),
  };
}
