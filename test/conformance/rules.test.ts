// Every rule of the validator fires on a synthetic exchange that breaks it and stays quiet on its valid twin; a
// valid flow of every kind raises nothing.
import { describe, expect, it } from 'vitest';
import { createConformanceChecker, RULES, type Exchange } from '../../src/conformance/index.js';
import { CORE_RULES } from '../../src/conformance/rules/core.js';
import {
  AVAILABILITY_QUERY,
  KEY2,
  OP_ID,
  OTHER_ID,
  PAYOUT_ID,
  RECOMMENDATIONS_BODY,
  availability,
  completed,
  createBody,
  payment,
  payoutOp,
  receipt,
  sequence,
  stateOf,
} from './exchanges.js';

type Ex = ReturnType<typeof sequence>;
type Flow = (ex: Ex) => Exchange[];
interface Case {
  rule: string;
  fire: Flow;
  quiet: Flow;
}

const MISSING = { code: 'missing_api_key', message: 'x-api-key header is required' };
const create = (ex: Ex, body = createBody(), op: unknown = payment(), status = 200) =>
  ex('POST', '/v1/payment', body, status, op);
const payout = (ex: Ex, op: unknown = payoutOp(), status = 200, body = createBody({ merchant_operation_id: 'p-1' })) =>
  ex('POST', '/v1/payout', body, status, op);
const state = (ex: Ex, answer: unknown, by: object = { operation_id: OP_ID }, status = 200, credential?: string) =>
  ex('POST', '/v1/get_operation_state', by, status, answer, credential ? { credential } : {});
const cancel = (ex: Ex, outcome: string, op: unknown, status = 200, id = OP_ID) =>
  ex(
    'POST',
    '/v1/cancel_operation',
    { operation_id: (op as { operation_id?: string } | undefined)?.operation_id ?? id },
    status,
    status === 200 ? { outcome, operation: op } : { code: 'x', message: 'x' },
  );
const balances = (ex: Ex, rows: object[]) => ex('GET', '/v1/balances', undefined, 200, { balances: rows });
const row = (currency: string, balance: string, reserved: string, current_minus: string) => ({
  currency,
  balance,
  current_minus,
  reserved,
});
const refused = { code: 'validation_error', message: 'bad' };
const awaiting = { status: 'awaiting_confirmation', external_confirmation: { required: true, methods: ['receipt'] } };

const CASES: Case[] = [
  {
    rule: 'request.unknown_endpoint',
    fire: (ex) => [ex('GET', '/v1/nothing', undefined, 404, refused)],
    quiet: (ex) => [balances(ex, [row('RUB', '0.00', '0.00', '0.00')])],
  },
  {
    rule: 'request.not_json',
    fire: (ex) => [ex('POST', '/v1/payment', undefined, 400, refused, { bodyText: '{oops' })],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'request.scope_field',
    fire: (ex) => [create(ex, createBody({ shop_id: 'shop_a' }), refused, 400)],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'request.amount',
    fire: (ex) => [create(ex, createBody({ amount: '10.005' }), refused, 400)],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'request.identifier',
    fire: (ex) => [state(ex, refused, { operation_id: OP_ID, merchant_operation_id: 'order-1' }, 400)],
    quiet: (ex) => [create(ex), state(ex, stateOf(payment()))],
  },
  {
    rule: 'request.bounds',
    fire: (ex) => [
      ex(
        'POST',
        '/v1/payment/link/flexible',
        {
          ...createBody({ amount: undefined }),
          recommended_amount: '1500.00',
          min_amount: '2000.00',
          max_amount: '1000.00',
        },
        400,
        refused,
      ),
    ],
    quiet: (ex) => [
      ex(
        'POST',
        '/v1/payment/link/flexible',
        {
          ...createBody({ amount: undefined }),
          recommended_amount: '1500.00',
          min_amount: '1000.00',
          max_amount: '2000.00',
        },
        200,
        {
          operation_id: OP_ID,
          status: 'amount_selection',
          method: 'WT_RUB_C2C',
          currency: 'RUB',
          recommended_amount: '1500.00',
          payment_url: 'http://pages.local/pay/x?k=1',
          expires_at: '2026-01-01T00:30:00Z',
        },
      ),
    ],
  },
  {
    rule: 'request.schema',
    fire: (ex) => [create(ex, createBody({ client_id: undefined }), refused, 400)],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'auth.key_required',
    fire: (ex) => [ex('GET', '/v1/balances', undefined, 200, { balances: [] }, { credential: null })],
    quiet: (ex) => [ex('GET', '/v1/balances', undefined, 401, MISSING, { credential: null })],
  },
  {
    rule: 'auth.message',
    fire: (ex) => [
      ex('GET', '/v1/balances', undefined, 401, { code: 'x', message: 'invalid api key' }, { credential: null }),
    ],
    quiet: (ex) => [ex('GET', '/v1/balances', undefined, 401, { code: 'invalid_api_key', message: 'invalid api key' })],
  },
  {
    rule: 'response.undeclared_status',
    fire: (ex) => [create(ex, createBody(), payment(), 202)],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'response.not_json',
    fire: (ex) => [ex('POST', '/v1/payment', createBody(), 200, undefined, { resText: 'ok' })],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'response.missing_field',
    fire: (ex) => [create(ex, createBody(), payment({ settlement_currency: undefined }))],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'response.unknown_field',
    fire: (ex) => [create(ex, createBody(), payment({ provider_id: 'prov_1' }))],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'response.bad_format',
    fire: (ex) => [create(ex, createBody(), payment({ expires_at: 'tomorrow' }))],
    quiet: (ex) => [create(ex, createBody(), payment({ expires_at: '2026-01-02T00:00:00Z' }))],
  },
  {
    rule: 'response.accepted_invalid_request',
    fire: (ex) => [create(ex, createBody({ shop_id: 'shop_a' }))],
    quiet: (ex) => [create(ex, createBody({ shop_id: 'shop_a' }), refused, 400)],
  },
  {
    rule: 'response.no_store',
    fire: (ex) => [
      ex('GET', '/v1/payment/availability', undefined, 200, availability(), { query: AVAILABILITY_QUERY }),
    ],
    quiet: (ex) => [
      ex('GET', '/v1/payment/availability', undefined, 200, availability(), {
        query: AVAILABILITY_QUERY,
        resHeaders: { 'cache-control': 'no-store' },
      }),
    ],
  },
  {
    rule: 'response.retry_after',
    fire: (ex) => [ex('POST', '/v1/payment/recommendations', RECOMMENDATIONS_BODY, 429, refused)],
    quiet: (ex) => [
      ex('POST', '/v1/payment/recommendations', RECOMMENDATIONS_BODY, 429, refused, {
        resHeaders: { 'retry-after': '1' },
      }),
    ],
  },
  {
    rule: 'state.illegal_move',
    fire: (ex) => [create(ex), state(ex, stateOf(completed())), state(ex, stateOf(payment()))],
    quiet: (ex) => [create(ex), state(ex, stateOf(payment())), state(ex, stateOf(completed()))],
  },
  {
    rule: 'state.immutable_field',
    fire: (ex) => [create(ex), state(ex, stateOf(payment({ currency: 'KZT' })))],
    quiet: (ex) => [create(ex), state(ex, stateOf(payment()))],
  },
  {
    rule: 'state.wrong_operation',
    fire: (ex) => [state(ex, stateOf(payment({ operation_id: OTHER_ID })))],
    quiet: (ex) => [state(ex, stateOf(payment()))],
  },
  {
    rule: 'presence.recorded',
    fire: (ex) => [create(ex, createBody(), payment({ recorded_amount: '1500.00', recorded_currency: 'RUB' }))],
    quiet: (ex) => [state(ex, stateOf(completed()))],
  },
  {
    rule: 'presence.manual_check_reason',
    fire: (ex) => [state(ex, stateOf(payment({ ...awaiting, status: 'manual_check' })))],
    quiet: (ex) => [
      state(ex, stateOf(payment({ ...awaiting, status: 'manual_check', manual_check_reason: 'potential_fake' }))),
    ],
  },
  {
    rule: 'presence.payment_url',
    fire: (ex) => [create(ex, createBody(), { ...payment(), payment_url: null })],
    quiet: (ex) => [ex('POST', '/v1/payment/link', createBody(), 200, { ...payment(), payment_url: null })],
  },
  {
    rule: 'presence.fx_pair',
    fire: (ex) => [create(ex, createBody(), payment({ fx_source: 'cbr' }))],
    quiet: (ex) => [create(ex, createBody(), payment({ fx_source: 'cbr', fx_rate: '1500.00' }))],
  },
  {
    rule: 'presence.bankname_details',
    fire: (ex) => [payout(ex, payoutOp({ method: 'WT_RUB_PHONE', bankname: 'sber' }))],
    quiet: (ex) => [payout(ex, payoutOp({ method: 'WT_RUB_PHONE', bankname: 'sber', bankname_details: 'Sberbank' }))],
  },
  {
    rule: 'presence.external_confirmation',
    fire: (ex) => [create(ex, createBody(), payment({ status: 'awaiting_confirmation' }))],
    quiet: (ex) => [create(ex, createBody(), payment(awaiting))],
  },
  {
    rule: 'presence.state_only',
    fire: (ex) => [create(ex, createBody(), { ...payment(), receipts: [] })],
    quiet: (ex) => [state(ex, stateOf(payment()))],
  },
  {
    rule: 'money.expected_amount',
    fire: (ex) => [create(ex, createBody(), payment({ expected_amount: '1600.00', settlement_amount: '1562.50' }))],
    quiet: (ex) => [create(ex, createBody({ amount: '1500' }))],
  },
  {
    rule: 'money.actual_amount',
    fire: (ex) => [create(ex, createBody(), payment({ actual_amount: '1500.00' }))],
    quiet: (ex) => [create(ex)],
  },
  {
    rule: 'money.settlement',
    fire: (ex) => [payout(ex, payoutOp({ settlement_amount: '1500.00' }))],
    quiet: (ex) => [payout(ex), create(ex)],
  },
  {
    rule: 'idempotency.replay',
    fire: (ex) => [create(ex), create(ex, createBody(), payment({ operation_id: OTHER_ID }))],
    quiet: (ex) => [create(ex), create(ex, createBody({ amount: '1500' }))],
  },
  {
    rule: 'idempotency.conflict',
    fire: (ex) => [
      create(ex),
      create(
        ex,
        createBody({ amount: '1600.00' }),
        payment({ operation_id: OTHER_ID, expected_amount: '1600.00', settlement_amount: '1562.50' }),
      ),
    ],
    quiet: (ex) => [
      create(ex),
      create(ex, createBody({ amount: '1600.00' }), { code: 'idempotency_conflict', message: 'x' }, 412),
    ],
  },
  {
    rule: 'cancel.outcome',
    fire: (ex) => [create(ex), cancel(ex, 'cancelled', payment())],
    quiet: (ex) => [
      create(ex),
      cancel(ex, 'cancelled', payment({ status: 'cancelled', settlement_amount: '0.00', commission_amount: '0.00' })),
    ],
  },
  {
    rule: 'cancel.already_terminal',
    fire: (ex) => [
      create(ex),
      state(ex, stateOf(completed())),
      cancel(ex, 'cancelled', payment({ status: 'cancelled' })),
    ],
    quiet: (ex) => [create(ex), state(ex, stateOf(completed())), cancel(ex, 'already_terminal', completed())],
  },
  {
    rule: 'cancel.same_decision',
    fire: (ex) => [
      create(ex),
      cancel(ex, 'cancelled', payment({ status: 'cancelled' })),
      cancel(ex, 'already_terminal', payment({ status: 'cancelled' })),
    ],
    quiet: (ex) => [
      create(ex),
      cancel(ex, 'cancelled', payment({ status: 'cancelled' })),
      cancel(ex, 'cancelled', payment({ status: 'cancelled' })),
    ],
  },
  {
    rule: 'cancel.payout',
    fire: (ex) => [
      payout(ex),
      cancel(
        ex,
        'already_terminal',
        payoutOp({
          status: 'completed',
          actual_amount: '1500.00',
          recorded_amount: '1500.00',
          recorded_currency: 'RUB',
        }),
      ),
    ],
    quiet: (ex) => [payout(ex), cancel(ex, '', undefined, 412, PAYOUT_ID)],
  },
  {
    rule: 'evidence.order',
    fire: (ex) => [
      state(
        ex,
        stateOf(completed(), {
          receipts: [receipt(OTHER_ID, 500, '2026-01-01T00:02:00Z'), receipt(OP_ID, 1000, '2026-01-01T00:01:00Z')],
        }),
      ),
    ],
    quiet: (ex) => [
      state(
        ex,
        stateOf(completed(), {
          receipts: [
            receipt(OTHER_ID, 500, '2026-01-01T00:01:00Z'),
            receipt(OP_ID, 1000, '2026-01-01T00:01:00Z'),
          ].reverse(),
        }),
      ),
    ],
  },
  {
    rule: 'evidence.before_completed',
    fire: (ex) => [state(ex, stateOf(payment(), { receipts: [receipt(OTHER_ID, 1500, '2026-01-01T00:01:00Z')] }))],
    quiet: (ex) => [state(ex, stateOf(payment()))],
  },
  {
    rule: 'evidence.status',
    fire: (ex) => [state(ex, stateOf(payment(), { receipt_evidence_status: 'complete' }))],
    quiet: (ex) => [state(ex, stateOf(payment()))],
  },
  {
    rule: 'evidence.unavailable_by_id',
    fire: (ex) => [state(ex, stateOf(completed(), { receipt_evidence_status: 'unavailable' }))],
    quiet: (ex) => [
      state(ex, stateOf(completed(), { receipt_evidence_status: 'unavailable' }), { merchant_operation_id: 'order-1' }),
    ],
  },
  {
    rule: 'evidence.sum',
    fire: (ex) => [state(ex, stateOf(completed(), { receipts: [receipt(OTHER_ID, 1000, '2026-01-01T00:01:00Z')] }))],
    quiet: (ex) => [
      state(
        ex,
        stateOf(completed(), {
          receipts: [receipt(OTHER_ID, 1500, '2026-01-01T00:01:00Z')],
          receipt_evidence_status: 'partial',
        }),
      ),
    ],
  },
  {
    rule: 'balance.formula',
    fire: (ex) => [balances(ex, [row('RUB', '-100.00', '0.00', '0.00')])],
    quiet: (ex) => [balances(ex, [row('RUB', '-100.00', '40.00', '60.00'), row('USD', '5.00', '0.00', '0.00')])],
  },
  {
    rule: 'balance.currencies',
    fire: (ex) => [
      balances(ex, [row('RUB', '0.00', '0.00', '0.00'), row('USD', '0.00', '0.00', '0.00')]),
      balances(ex, [row('RUB', '0.00', '0.00', '0.00')]),
    ],
    quiet: (ex) => [
      balances(ex, [row('RUB', '0.00', '0.00', '0.00')]),
      balances(ex, [row('RUB', '1.00', '0.00', '0.00')]),
    ],
  },
  {
    rule: 'balance.currencies',
    fire: (ex) => [balances(ex, [row('RUB', '0.00', '0.00', '0.00'), row('RUB', '0.00', '0.00', '0.00')])],
    quiet: (ex) => [balances(ex, [row('RUB', '0.00', '0.00', '0.00')])],
  },
  {
    rule: 'isolation.foreign_operation',
    fire: (ex) => [
      create(ex),
      state(ex, { code: 'operation_not_found', message: 'x' }, undefined, 404, KEY2),
      state(ex, stateOf(payment()), undefined, 200, KEY2),
    ],
    // Two keys of one shop (a key rotated): nothing says they are of different shops.
    quiet: (ex) => [create(ex), state(ex, stateOf(payment()), undefined, 200, KEY2)],
  },
];

const run = (flow: Flow) => {
  const checker = createConformanceChecker();
  for (const x of flow(sequence())) checker.check(x);
  return checker.violations;
};

describe('conformance rules', () => {
  it('every rule of the validator has a case here; the catalogue holds each id once', () => {
    expect(new Set(CASES.map((c) => c.rule))).toEqual(new Set(CORE_RULES.map((r) => r.id)));
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  });

  describe.each(CASES.map((c, i) => ({ ...c, name: `${c.rule} #${i}` })))('$name', (c) => {
    it('fires', () => {
      const found = run(c.fire).filter((v) => v.rule === c.rule);
      expect(found.length).toBeGreaterThan(0);
      const rule = RULES.find((r) => r.id === c.rule)!;
      expect(found[0]).toMatchObject({ section: rule.section });
      expect(found[0]!.expected).toMatch(/^expected /);
      expect(found[0]!.got).toMatch(/^got /);
    });
    it('stays quiet', () => {
      expect(run(c.quiet).filter((v) => v.rule === c.rule)).toEqual([]);
    });
  });

  it('a valid flow raises nothing: creates, replays, reads, a cancel, balances, amount reads', () => {
    const violations = run((ex) => [
      create(ex),
      create(ex, createBody({ amount: '1500' })),
      state(ex, stateOf(payment())),
      state(ex, stateOf(payment()), { merchant_operation_id: 'order-1' }),
      cancel(ex, 'cancelled', payment({ status: 'cancelled', settlement_amount: '0.00', commission_amount: '0.00' })),
      cancel(ex, 'cancelled', payment({ status: 'cancelled', settlement_amount: '0.00', commission_amount: '0.00' })),
      payout(ex),
      state(
        ex,
        stateOf(
          payoutOp({
            status: 'completed',
            actual_amount: '1500.00',
            recorded_amount: '1500.00',
            recorded_currency: 'RUB',
          }),
        ),
        { merchant_operation_id: 'p-1' },
      ),
      balances(ex, [row('RUB', '-100.00', '40.00', '60.00')]),
      ex('GET', '/v1/payment/availability', undefined, 200, availability(), {
        query: AVAILABILITY_QUERY,
        resHeaders: { 'cache-control': 'no-store' },
      }),
      ex(
        'POST',
        '/v1/payment/recommendations',
        RECOMMENDATIONS_BODY,
        200,
        availability({ recommendations: [{ amount: '150.00', delta: '0.00' }] }),
      ),
      ex('GET', '/livez', undefined, 204, undefined, { credential: null }),
      ex('HEAD', '/v1/balances', undefined, 200, undefined),
      ex('OPTIONS', '/v1/payment', undefined, 204, undefined, { credential: null }),
    ]);
    expect(violations).toEqual([]);
  });

  it('a state read that began before the read showing a later status ended is not a move backwards', () => {
    const violations = run((ex) => [
      create(ex),
      ex('POST', '/v1/get_operation_state', { operation_id: OP_ID }, 200, stateOf(completed()), { durationMs: 500 }),
      ex('POST', '/v1/get_operation_state', { operation_id: OP_ID }, 200, stateOf(payment()), { gap: 100 }),
    ]);
    expect(violations).toEqual([]);
  });

  it('remembers at most maxOperations operations: the oldest is forgotten', () => {
    const checker = createConformanceChecker({ maxOperations: 1 });
    const ex = sequence();
    checker.check(create(ex));
    checker.check(state(ex, stateOf(completed())));
    checker.check(create(ex, createBody({ merchant_operation_id: 'order-2' }), payment({ operation_id: OTHER_ID })));
    // OP_ID was forgotten: its pending is checked as a first sighting, not as completed → pending.
    checker.check(state(ex, stateOf(payment())));
    expect(checker.violations).toEqual([]);
  });

  it('a violation names the endpoint, operation, merchant_operation_id and the exchanges it contradicts', () => {
    const v = run((ex) => [
      create(ex),
      state(ex, stateOf(completed())),
      state(ex, stateOf(payment()), { merchant_operation_id: 'order-1' }),
    ]);
    expect(v).toEqual([
      {
        rule: 'state.illegal_move',
        section: '§3',
        endpoint: 'operation.state',
        operationId: OP_ID,
        merchantOperationId: 'order-1',
        expected: 'expected a status reachable from completed (state table, §3)',
        got: 'got pending',
        exchange: 3,
        at: '2026-01-01T00:00:03.000Z',
        related: [2],
      },
    ]);
  });
});
