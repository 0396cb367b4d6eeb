// The request of an exchange against the contract (spec §2.2, §4, §7): what the integration sends that the gateway
// will refuse. The endpoint's own zod schema decides; its issues are sorted into the request.* rules.
import { Decimal } from 'decimal.js';
import type { z } from 'zod';
import { AMOUNT_PATTERN } from '../contract/money.js';
import { isGatewayPath, isObject, shown, type CheckContext } from './context.js';
import type { CoreRuleId } from './rules/core.js';

const AMOUNT_FIELDS = new Set(['amount', 'recommended_amount', 'min_amount', 'max_amount']);
const SCOPE_FIELDS = new Set(['merchant_id', 'shop_id']);
const ID_ENDPOINTS = new Set(['operation.state', 'operation.cancel']);

/** The rule a zod issue of the request falls under. */
function ruleOfIssue(ctx: CheckContext, path: readonly PropertyKey[]): CoreRuleId {
  const first = String(path[0] ?? '');
  if (SCOPE_FIELDS.has(first)) return 'request.scope_field';
  if (AMOUNT_FIELDS.has(first)) return 'request.amount';
  if (ctx.endpoint && ID_ENDPOINTS.has(ctx.endpoint.id) && (first === '' || first === 'operation_id'))
    return 'request.identifier';
  return 'request.schema';
}

function refused(ctx: CheckContext, rule: CoreRuleId, expected: string, got: string): void {
  ctx.requestRefused = true;
  ctx.report(rule, expected, got);
}

/** The request's violations. Sets ctx.requestRefused when any fired. */
export function checkRequest(ctx: CheckContext): void {
  const { x, endpoint } = ctx;
  if (!endpoint) {
    if (isGatewayPath(x.request.path))
      refused(
        ctx,
        'request.unknown_endpoint',
        'an endpoint of the contract (spec §1)',
        `${x.request.method} ${x.request.path}`,
      );
    return;
  }
  let schema: z.ZodType | undefined;
  let input: unknown;
  if (endpoint.body) {
    if (x.request.body === undefined && x.request.bodyText !== undefined) {
      refused(ctx, 'request.not_json', 'a JSON body', `a body that is not JSON: ${shown(x.request.bodyText)}`);
      return;
    }
    schema = endpoint.body;
    input = x.request.body;
  } else if (endpoint.query) {
    schema = endpoint.query;
    input = x.request.query;
  }
  if (!schema) return;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join('.');
      const value = field === '' ? undefined : (input as Record<string, unknown> | undefined)?.[field];
      refused(
        ctx,
        ruleOfIssue(ctx, issue.path),
        field === '' ? issue.message : `${field}: ${issue.message}`,
        field === '' ? shown(input) : `${field} ${shown(value)}`,
      );
    }
    return;
  }
  checkBounds(ctx, input);
}

const amount = (v: unknown): Decimal | undefined =>
  typeof v === 'string' && AMOUNT_PATTERN.test(v) ? new Decimal(v) : undefined;

/** min_amount ≤ max_amount, and a flexible link's recommended_amount within the bounds set (§4.3, §4.9, §4.10). */
function checkBounds(ctx: CheckContext, input: unknown): void {
  if (!isObject(input)) return;
  const min = amount(input.min_amount);
  const max = amount(input.max_amount);
  if (min && max && min.greaterThan(max)) {
    refused(ctx, 'request.bounds', 'min_amount not above max_amount', `min_amount ${min} > max_amount ${max}`);
    return;
  }
  if (ctx.endpoint?.id !== 'payment.flexible_link') return;
  const rec = amount(input.recommended_amount);
  if (!rec) return;
  if ((min && rec.lessThan(min)) || (max && rec.greaterThan(max)))
    refused(
      ctx,
      'request.bounds',
      `recommended_amount within [${min ?? '…'}, ${max ?? '…'}]`,
      `recommended_amount ${rec}`,
    );
}
