// The validator's rules (src/conformance): one entry per rule id, with its kind and the section of the spec it
// stands for. The ids are stable: reports, JUnit files and docs/conformance.md name them.
import type { RuleInfo, RuleKind } from '../types.js';

const rule = <const Id extends string>(id: Id, kind: RuleKind, section: string, title: string) =>
  ({ id, kind, section, title }) as const;

export const CORE_RULES = [
  rule('request.unknown_endpoint', 'request', '§1', 'the method and path are an endpoint of the contract'),
  rule('request.not_json', 'request', '§7', 'a JSON endpoint gets a JSON body'),
  rule('request.scope_field', 'request', '§2.2', 'no merchant_id or shop_id is sent: the API key fixes them'),
  rule('request.amount', 'request', '§2.2, §8', 'amounts are decimal strings of scale 2 at most, greater than 0'),
  rule(
    'request.identifier',
    'request',
    '§4.6, §4.7',
    'exactly one of operation_id (a UUID) and merchant_operation_id names the operation',
  ),
  rule(
    'request.bounds',
    'request',
    '§4.3, §4.9, §4.10',
    'min_amount does not exceed max_amount; a recommended_amount lies within the bounds set',
  ),
  rule('request.schema', 'request', '§7', "every other field: required ones present, types and formats the contract's"),
  rule('auth.key_required', 'auth', '§5', 'a /v1 request without X-API-Key is answered 401'),
  rule('auth.message', 'auth', '§5, §7', "a 401 carries the spec's message for its case, one of the two"),
  rule('response.undeclared_status', 'response', '§7', 'the status is one the contract declares for the endpoint'),
  rule('response.not_json', 'response', '§4', 'a successful answer of a JSON endpoint is JSON'),
  rule('response.missing_field', 'response', '§2', 'every field the contract requires in the answer is present'),
  rule('response.unknown_field', 'response', '§2, §9', 'the answer carries no field the contract does not know'),
  rule('response.bad_format', 'response', '§2', "every field of the answer has the contract's type and format"),
  rule(
    'response.accepted_invalid_request',
    'response',
    '§7',
    'a request the contract refuses (a request.* rule fired) is not answered 2xx',
  ),
  rule('response.no_store', 'response', '§4.9', 'an availability answer carries Cache-Control: no-store'),
  rule('response.retry_after', 'response', '§7, §8', 'a 429 of availability or recommendations carries Retry-After'),
  rule(
    'state.illegal_move',
    'state',
    '§3',
    'every status seen for an operation is reachable from the one seen before (the state table)',
  ),
  rule(
    'state.immutable_field',
    'state',
    '§2.3, §9',
    'type, method, currency and expected_amount of an operation never change',
  ),
  rule(
    'state.wrong_operation',
    'state',
    '§4.6, §4.7',
    'a state read or cancel answers the operation it named, in the shop of the key',
  ),
  rule(
    'presence.recorded',
    'presence',
    '§2.3',
    'recorded_amount and recorded_currency come together, only once actual_amount is non-zero, never on pending',
  ),
  rule('presence.manual_check_reason', 'presence', '§2.3', 'manual_check_reason is present exactly while manual_check'),
  rule(
    'presence.payment_url',
    'presence',
    '§2.3, §2.6',
    'payment_url only on answers of the link endpoints; null on a rejected flexible link',
  ),
  rule('presence.fx_pair', 'presence', '§2.3', 'fx_source and fx_rate come together'),
  rule(
    'presence.bankname_details',
    'presence',
    '§2.3, §4.4',
    'bankname_details comes with bankname on WT_RUB_PHONE, and never without bankname',
  ),
  rule(
    'presence.external_confirmation',
    'presence',
    '§2.3, §3',
    'an operation awaiting confirmation or in manual_check carries external_confirmation { required: true }',
  ),
  rule(
    'presence.state_only',
    'presence',
    '§2.3',
    'receipts and receipt_evidence_status only on get_operation_state answers',
  ),
  rule('money.expected_amount', 'money', '§2.3', 'expected_amount mirrors the amount the create sent'),
  rule(
    'money.actual_amount',
    'money',
    '§2.3',
    'actual_amount is zero when the operation is created: it is never the requested amount standing in for a fact',
  ),
  rule(
    'money.settlement',
    'money',
    '§2.3, §4.4',
    'settlement_amount = amount ∓ commission_amount (payment: minus, payout: plus), in settlement_currency',
  ),
  rule('idempotency.replay', 'idempotency', '§2.2, §4.1', 'the same key and body return the same operation'),
  rule('idempotency.conflict', 'idempotency', '§2.2, §7', 'the same key with a different body is answered 412'),
  rule(
    'cancel.outcome',
    'cancel',
    '§4.7',
    "outcome cancelled shows a cancelled payment; already_terminal a terminal one; the answer's operation is a payment",
  ),
  rule(
    'cancel.already_terminal',
    'cancel',
    '§3, §4.7',
    'a cancel of a payment already seen completed or rejected answers already_terminal',
  ),
  rule('cancel.same_decision', 'cancel', '§4.7', 'repeating a cancel returns the same decision'),
  rule('cancel.payout', 'cancel', '§4.7, §7', 'a payout is never cancelled: its cancel is answered 412'),
  rule('evidence.order', 'evidence', '§2.4', 'receipts are ordered by completed_at, then id'),
  rule('evidence.before_completed', 'evidence', '§2.4', 'receipts is empty until the operation is completed'),
  rule(
    'evidence.status',
    'evidence',
    '§2.4',
    'receipt_evidence_status is one of the four; not_ready exactly while mutable; unavailable with no receipts',
  ),
  rule(
    'evidence.unavailable_by_id',
    'evidence',
    '§4.6',
    'a read by operation_id never answers 200 with evidence unavailable (503 instead)',
  ),
  rule('evidence.sum', 'evidence', '§2.4', 'complete or partial receipts add up to actual_amount'),
  rule('balance.formula', 'balance', '§2.5', 'current_minus = max(-(balance + reserved), 0) on every row'),
  rule(
    'balance.currencies',
    'balance',
    '§4.8',
    'one row per currency, and no currency seen before for the key goes missing',
  ),
  rule(
    'isolation.foreign_operation',
    'isolation',
    '§5',
    'an operation created with one key is never answered 200 to a key of another shop (one that was refused it with 404)',
  ),
] as const satisfies readonly RuleInfo[];

export type CoreRuleId = (typeof CORE_RULES)[number]['id'];
