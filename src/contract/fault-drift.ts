// Drift on purpose (issue 27 §4): a fault that changes an endpoint's successful answer instead of failing it — a
// field removed, renamed or changed, an operation's status reported out of order, or a status code the contract does
// not declare — so the conformance checker, and a merchant's code, can be tested against a gateway that drifts.
// The wire fields of such a fault and their checks; src/contract/faults.ts takes them into a fault.
import { z } from 'zod';
import { OperationStatus } from './common.js';
import { echo } from './echo.js';
import { successStatus, type EndpointRow } from './endpoint-row.js';
import { endpoints, type EndpointId } from './endpoints.js';
import { answeredErrors } from './statuses.js';

export const DRIFT_KINDS = ['remove_field', 'rename_field', 'change_field', 'out_of_order', 'extra_status'] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** A field path of an answer: dotted names, an array index, or `*` for every item (`receipts.*.amount`). */
export const DRIFT_FIELD = /^[A-Za-z0-9_]+(\.([A-Za-z0-9_]+|\*))*$/;
const PLAIN_NAME = /^[A-Za-z0-9_]+$/;

/** The endpoints whose answer is (or carries) an operation: where a status can be reported out of order. */
export const OPERATION_ANSWERS: readonly EndpointId[] = [
  'payment.create',
  'payment.link',
  'payment.flexible_link',
  'payout.create',
  'payment.confirm',
  'operation.state',
  'operation.cancel',
];

export const driftFields = {
  drift: z
    .enum(DRIFT_KINDS, {
      error: `must be one of ${DRIFT_KINDS.join(', ')}`,
    })
    .optional()
    .meta({
      description:
        'Change the successful answer instead of failing it: remove_field, rename_field (to `to`), change_field (to `value`), out_of_order (an operation shown in an earlier status), extra_status (answer with `status`, one the contract does not declare).',
    }),
  field: z
    .string()
    .max(200)
    .optional()
    .meta({
      description:
        'With remove_field, rename_field, change_field: the field, dotted (`operation.status`, `receipts.*.amount`).',
      examples: ['settlement_amount'],
    }),
  to: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'With rename_field: the new name.', examples: ['amount_settled'] }),
  value: z.unknown().optional().meta({
    description:
      'With change_field: the JSON value the field takes (added where absent). With out_of_order: the status to show (default: pending, or awaiting_confirmation for a payment that needs a receipt).',
  }),
};

type DriftInput = { [K in keyof typeof driftFields]?: unknown } & { status?: number | undefined; code?: unknown };
type Issue = (path: string, message: string) => void;

/** Every status the contract declares for an endpoint (its success and each error it can answer). */
export const declaredStatuses = (id: EndpointId): number[] =>
  [successStatus(endpoints[id]), ...answeredErrors(endpoints[id])].sort((a, b) => a - b);

/** The checks of a drift fault: the parameters its kind needs, and none it does not. */
export function checkDrift(f: DriftInput & { drift: DriftKind }, endpoint: EndpointId, issue: Issue): void {
  const kind = f.drift;
  const row: EndpointRow = endpoints[endpoint];
  const fieldKind = kind === 'remove_field' || kind === 'rename_field' || kind === 'change_field';
  if (fieldKind) {
    if (typeof f.field !== 'string' || !DRIFT_FIELD.test(f.field))
      issue(
        'field',
        `${kind} needs field: a field of the answer, dotted, such as settlement_amount or operation.status`,
      );
    if (!row.response) issue('drift', `${row.id} answers without a body: only extra_status can drift it`);
  } else if (f.field !== undefined) issue('field', `field goes with remove_field, rename_field or change_field`);
  if (kind === 'rename_field') {
    if (typeof f.to !== 'string' || !PLAIN_NAME.test(f.to))
      issue('to', 'rename_field needs to: the new name (letters, digits, _)');
  } else if (f.to !== undefined) issue('to', 'to goes with rename_field');
  if (kind === 'change_field' && f.value === undefined)
    issue('value', 'change_field needs value: the JSON value to show');
  if (kind !== 'change_field' && kind !== 'out_of_order' && f.value !== undefined)
    issue('value', 'value goes with change_field or out_of_order');
  if (kind === 'out_of_order') {
    if (!OPERATION_ANSWERS.includes(endpoint))
      issue('drift', `out_of_order needs an endpoint that answers an operation: ${OPERATION_ANSWERS.join(', ')}`);
    if (f.value !== undefined && !OperationStatus.safeParse(f.value).success)
      issue('value', `with out_of_order: a status, one of ${OperationStatus.options.join(', ')}`);
  }
  if (kind === 'extra_status') {
    const declared = declaredStatuses(endpoint);
    if (f.status === undefined || f.status < 200 || f.status > 599)
      issue('status', 'extra_status needs status: an HTTP status from 200 to 599 the contract does not declare');
    else if (declared.includes(f.status))
      issue(
        'status',
        `${row.id} declares ${declared.join(', ')}; extra_status needs one it does not, such as ${f.status === 418 ? 299 : 418} (not ${echo(String(f.status))})`,
      );
  } else if (f.status !== undefined) issue('status', 'status goes with extra_status in a drift');
  if (f.code !== undefined) issue('code', 'code goes with a status fault, not a drift');
}
