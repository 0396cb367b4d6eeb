// The create request shared by `payment create`, `payment link` and `payout create`: required flags (prompted
// on a TTY), amount checks, and the merchant_operation_id the CLI generates and prints when it is omitted.
import { randomUUID } from 'node:crypto';
import type { CreateOperationRequest } from '../contract/index.js';
import { checkAmounts, fillRequired, type RequiredField } from './prompts.js';
import { note } from './render.js';

export interface MerchantOperationId {
  id: string;
  generated: boolean;
}

export const METHOD_FIELD: RequiredField = { key: 'method', flag: '--method', kind: 'method', message: 'Payment method' };
export const CURRENCY_FIELD: RequiredField = { key: 'currency', flag: '--currency', kind: 'currency', message: 'Currency (ISO 4217)' };
export const AMOUNT_FIELD: RequiredField = { key: 'amount', flag: '--amount', kind: 'amount', message: 'Amount (e.g. 1500.00)' };
const CLIENT_ID_FIELD: RequiredField = { key: 'clientId', flag: '--client-id', kind: 'text', message: 'Client id (end-user identifier)' };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Pick or generate the idempotency key; when generated in --json mode, say so on stderr (stdout stays the body). */
export function merchantOperationId(opts: Record<string, unknown>): MerchantOperationId {
  const given = str(opts.merchantOperationId);
  if (given) return { id: given, generated: false };
  const id = randomUUID();
  if (opts.json) note(`merchant_operation_id: ${id} (generated)`);
  return { id, generated: true };
}

/** The create body without amount, after required flags are filled and checked. */
export async function createFields(
  opts: Record<string, unknown>,
  amountFields: readonly RequiredField[],
  amountFlags: Record<string, string>,
): Promise<{ body: Omit<CreateOperationRequest, 'amount'>; moid: MerchantOperationId }> {
  await fillRequired(opts, [METHOD_FIELD, ...amountFields, CURRENCY_FIELD, CLIENT_ID_FIELD]);
  await checkAmounts(opts, amountFlags);
  const moid = merchantOperationId(opts);
  const optional: Partial<Record<'client_ip' | 'number' | 'name' | 'bankname', string>> = {};
  for (const [field, key] of [['client_ip', 'clientIp'], ['number', 'number'], ['name', 'name'], ['bankname', 'bankname']] as const) {
    const v = str(opts[key]);
    if (v !== undefined) optional[field] = v;
  }
  const body: Omit<CreateOperationRequest, 'amount'> = {
    merchant_operation_id: moid.id,
    client_id: str(opts.clientId)!,
    method: str(opts.method)!,
    currency: str(opts.currency)!,
    ...optional,
  };
  return { body, moid };
}

/** The full create body (payment, link, payout). */
export async function createRequest(opts: Record<string, unknown>): Promise<{ body: CreateOperationRequest; moid: MerchantOperationId }> {
  const { body, moid } = await createFields(opts, [AMOUNT_FIELD], { amount: '--amount' });
  return { body: { ...body, amount: str(opts.amount)! }, moid };
}
