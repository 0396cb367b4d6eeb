// Fixtures of the client suites: valid wire bodies of the gateway. The scripted fake gateway and its test client live in
// test/helpers/scripted.ts (use them through useScripted), the instant sleep in test/helpers/transport.ts.
export { KEY, type Recorded, type Reply, type Script, type TestClient, type TestServer } from '../helpers/scripted.js';
export { instantSleep } from '../helpers/transport.js';

export const OPERATION = {
  operation_id: '0b5c7e52-4a8e-4c8f-9d0e-2f1a3b4c5d6e',
  type: 'payment',
  status: 'pending',
  method: 'WT_RUB_C2C',
  expected_amount: '100.00',
  actual_amount: '0.00',
  currency: 'RUB',
  settlement_amount: '97.00',
  settlement_currency: 'RUB',
  commission_amount: '3.00',
  number: '4111111111111111',
  name: 'Ivan',
} as const;

export const OPERATION_STATE = { ...OPERATION, receipts: [], receipt_evidence_status: 'not_ready' } as const;

export const BALANCES = { balances: [{ currency: 'RUB', balance: '0.00', current_minus: '0.00', reserved: '0.00' }] };

export const AVAILABILITY = {
  method: 'WT_RUB_C2C',
  currency: 'RUB',
  evaluated_at: '2025-01-01T00:00:00Z',
  coverage: 'full',
  reserved: false,
  truncated: false,
  intervals: [{ min_amount: '100.00', max_amount: '200.00' }],
};

export const CREATE = { client_id: 'c-1', method: 'WT_RUB_C2C', amount: '100.00', currency: 'RUB' } as const;

export function json(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8'));
}
