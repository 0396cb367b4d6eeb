// The rules of the webhooks the proxy receives from the upstream (`paygate proxy --forward-webhooks-to`): the
// signature (Standard Webhooks) and the payload against the contract's event schema. The status each webhook
// announces goes through the same state rules as the exchanges' (state.illegal_move, presence.*).
import type { RuleInfo, RuleKind } from '../types.js';

const rule = <const Id extends string>(id: Id, kind: RuleKind, section: string, title: string) =>
  ({ id, kind, section, title }) as const;

export const WEBHOOK_RULES = [
  rule(
    'webhook.signature',
    'webhook',
    '§6',
    'a webhook carries webhook-id, webhook-timestamp (within 5 minutes) and a Standard Webhooks signature of the secret',
  ),
  rule(
    'webhook.payload',
    'webhook',
    '§6',
    "a webhook's body is the contract's event (id, type, created_at, data.operation): every field present and well-formed",
  ),
  rule(
    'webhook.type',
    'webhook',
    '§6',
    'the event type names the status of data.operation (operation.completed for completed), and its id is the webhook-id header',
  ),
] as const satisfies readonly RuleInfo[];

export type WebhookRuleId = (typeof WEBHOOK_RULES)[number]['id'];
