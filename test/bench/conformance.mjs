// What the conformance checker costs per exchange (src/conformance): creates, state reads of what was created,
// payouts and balances answers, as the sandbox answers them, through one checker; wall time per check() after a
// warm-up, p50 and p99, and its violations (there should be none).
//   npm run build && node test/bench/conformance.mjs [--n 20000]
import { parseArgs } from 'node:util';
import { createConformanceChecker } from '../../dist/conformance/index.js';

const { values: opt } = parseArgs({ options: { n: { type: 'string', default: '20000' } } });
const n = Number(opt.n);
const T0 = Date.parse('2026-01-01T00:00:00Z');
const idOf = (i) => `0f8fad5b-d9cb-469f-a165-${String(i).padStart(12, '0')}`;

const operation = (i, type, status) => ({
  operation_id: idOf(i),
  type,
  status,
  method: 'WT_RUB_C2C',
  expected_amount: '1500.00',
  actual_amount: status === 'completed' ? '1500.00' : '0.00',
  currency: 'RUB',
  ...(status === 'completed' ? { recorded_amount: '1500.00', recorded_currency: 'RUB' } : {}),
  settlement_amount: type === 'payout' ? '1515.00' : '1462.50',
  settlement_currency: 'RUB',
  commission_amount: type === 'payout' ? '15.00' : '37.50',
  number: '2200700000000001',
  name: 'Ivan Petrov',
});
const body = (i) => ({
  merchant_operation_id: `o-${i}`,
  client_id: 'client-1',
  method: 'WT_RUB_C2C',
  amount: '1500.00',
  currency: 'RUB',
});

function exchange(i) {
  const k = i % 4;
  const [method, path, req, res] =
    k === 0
      ? ['POST', '/v1/payment', body(i), operation(i, 'payment', 'pending')]
      : k === 1
        ? [
            'POST',
            '/v1/get_operation_state',
            { operation_id: idOf(i - 1) },
            { ...operation(i - 1, 'payment', 'completed'), receipts: [], receipt_evidence_status: 'complete' },
          ]
        : k === 2
          ? ['POST', '/v1/payout', body(i), operation(i, 'payout', 'pending')]
          : [
              'GET',
              '/v1/balances',
              undefined,
              { balances: [{ currency: 'RUB', balance: '10.00', current_minus: '0.00', reserved: '0.00' }] },
            ];
  return {
    seq: i + 1,
    startedAt: new Date(T0 + i * 10).toISOString(),
    durationMs: 2,
    credential: 'key_0123456789ab',
    request: { method, path, query: {}, headers: {}, ...(req ? { body: req } : {}) },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: res },
  };
}

const xs = Array.from({ length: n }, (_, i) => exchange(i));
const checker = createConformanceChecker();
const times = [];
for (const x of xs) {
  const t = performance.now();
  checker.check(x);
  times.push(performance.now() - t);
}
const warm = times.slice(Math.floor(n / 10)).sort((a, b) => a - b);
const at = (q) => (warm[Math.floor(warm.length * q)] * 1000).toFixed(1);
console.log(
  `conformance check: ${n} exchanges, p50 ${at(0.5)} µs, p99 ${at(0.99)} µs, ${checker.violations.length} violations`,
);
