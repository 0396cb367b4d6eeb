// Synthetic exchanges for the checker's unit tests: a valid payment, payout, state read, cancel and balances answer,
// each changed by overrides (a field set to undefined is removed).
import type { Exchange } from '../../src/conformance/index.js';

export const KEY = 'key_aaaaaaaaaaaa';
export const KEY2 = 'key_bbbbbbbbbbbb';
export const OP_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const OTHER_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
export const PAYOUT_ID = '16fd2706-8baf-433b-82eb-8c7fada847da';
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

type Obj = Record<string, unknown>;
const clean = (o: Obj): Obj => JSON.parse(JSON.stringify(o)) as Obj;

export interface ExOptions {
  credential?: string | null;
  query?: Record<string, string>;
  bodyText?: string;
  resHeaders?: Record<string, string>;
  resText?: string;
  /** ms after the previous exchange's start (default 1000) and its duration (default 5). */
  gap?: number;
  durationMs?: number;
}

/** Builds a sequence of exchanges: seq 1, 2, 3…, one second apart unless told. */
export function sequence() {
  let seq = 0;
  let at = T0;
  return function ex(
    method: string,
    path: string,
    body: unknown,
    status: number,
    resBody: unknown,
    o: ExOptions = {},
  ): Exchange {
    seq++;
    at += o.gap ?? 1000;
    const credential = o.credential === undefined ? KEY : o.credential;
    return {
      seq,
      startedAt: new Date(at).toISOString(),
      durationMs: o.durationMs ?? 5,
      ...(credential !== null ? { credential } : {}),
      request: {
        method,
        path,
        query: o.query ?? {},
        headers: body !== undefined ? { 'content-type': 'application/json' } : {},
        ...(body !== undefined ? { contentType: 'application/json', body } : {}),
        ...(o.bodyText !== undefined ? { bodyText: o.bodyText } : {}),
      },
      response: {
        status,
        headers: { 'content-type': 'application/json', ...(o.resHeaders ?? {}) },
        ...(resBody !== undefined ? { body: resBody } : {}),
        ...(o.resText !== undefined ? { bodyText: o.resText } : {}),
      },
    };
  };
}

export const createBody = (o: Obj = {}): Obj =>
  clean({
    merchant_operation_id: 'order-1',
    client_id: 'client-1',
    method: 'WT_RUB_C2C',
    amount: '1500.00',
    currency: 'RUB',
    ...o,
  });

/** A pending payment of 1500.00 RUB, commission 37.50. */
export const payment = (o: Obj = {}): Obj =>
  clean({
    operation_id: OP_ID,
    type: 'payment',
    status: 'pending',
    method: 'WT_RUB_C2C',
    expected_amount: '1500.00',
    actual_amount: '0.00',
    currency: 'RUB',
    settlement_amount: '1462.50',
    settlement_currency: 'RUB',
    commission_amount: '37.50',
    number: '2200700000000001',
    name: 'Ivan Petrov',
    ...o,
  });

/** The same payment completed for 1500.00. */
export const completed = (o: Obj = {}): Obj =>
  payment({
    status: 'completed',
    actual_amount: '1500.00',
    recorded_amount: '1500.00',
    recorded_currency: 'RUB',
    ...o,
  });

/** A pending payout of 1500.00 RUB, commission 15.00. */
export const payoutOp = (o: Obj = {}): Obj =>
  payment({ operation_id: PAYOUT_ID, type: 'payout', settlement_amount: '1515.00', commission_amount: '15.00', ...o });

export const stateOf = (op: Obj, o: Obj = {}): Obj =>
  clean({
    ...op,
    receipts: [],
    receipt_evidence_status: ['completed', 'cancelled', 'rejected'].includes(String(op.status))
      ? 'complete'
      : 'not_ready',
    ...o,
  });

export const receipt = (id: string, amount: number, at: string) => ({
  id,
  amount,
  completed_at: at,
  receipt_url: null,
});

export const availability = (o: Obj = {}): Obj =>
  clean({
    method: 'WT_RUB_C2C',
    currency: 'RUB',
    evaluated_at: '2026-01-01T00:00:00Z',
    coverage: 'full',
    reserved: false,
    truncated: false,
    intervals: [{ min_amount: '100.00', max_amount: '200.00' }],
    ...o,
  });

export const AVAILABILITY_QUERY = {
  method: 'WT_RUB_C2C',
  currency: 'RUB',
  min_amount: '100.00',
  max_amount: '5000.00',
};
export const RECOMMENDATIONS_BODY = { ...AVAILABILITY_QUERY, amount: '150.00' };
