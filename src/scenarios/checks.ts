// The expectations that need more than the step's own answer: the operation's state after the step, the shop's
// balances (after, and moved by), the webhook events the step caused, and the answer's fit to the contract.
import type { RunContext } from './context.js';
import {
  balanceRows,
  checkBalanceDelta,
  checkBalances,
  checkFields,
  checkWebhooks,
  orderEvents,
  type BalanceRows,
  type Mismatch,
} from './expectations.js';
import type { Expect } from './format.js';
import { callById, type Answer } from './http.js';
import type { ReceivedEvent } from './receiver.js';
import type { Callable } from './vocabulary.js';

/** The shop's balance rows now (for balance expectations). */
export async function readBalances(ctx: RunContext, shop: string): Promise<BalanceRows> {
  const res = await callById(ctx.target, 'balances.list', {}, shop);
  if (res.status !== 200)
    throw new Error(`reading the balances of ${shop} answered ${res.status} ${JSON.stringify(res.body)}`);
  return balanceRows(res.body);
}

/** The current operation's state, read with operation.state. */
export async function readOperation(ctx: RunContext): Promise<Answer> {
  const ref = ctx.last;
  if (!ref || (!ref.operation_id && !ref.merchant_operation_id))
    throw new Error('no operation to read: no earlier step answered with an operation_id');
  const by = ref.operation_id
    ? { operation_id: ref.operation_id }
    : { merchant_operation_id: ref.merchant_operation_id };
  return callById(ctx.target, 'operation.state', by, ref.shop);
}

/** The 2xx answer must match the endpoint's response schema: a server that does not speak the spec fails here. */
export function checkContract(c: Callable, answer: Answer): Mismatch[] {
  if (!c.response || answer.status !== c.okStatus) return [];
  const r = c.response.safeParse(answer.body);
  if (r.success) return [];
  const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  return [{ what: 'contract', expected: `the response schema of ${c.id}`, actual: issues.join('; ') }];
}

/** Webhook events accepted since `mark` that belong to this scenario. */
export function eventsSince(ctx: RunContext, mark: number): ReceivedEvent[] {
  const all = ctx.target.receiver.accepted.slice(mark);
  // On a sandbox that also holds others' operations, only events about operations this scenario has seen count.
  const mine = ctx.target.fresh ? all : all.filter((e) => ctx.operations.has(e.event.data?.operation?.operation_id));
  return orderEvents(mine);
}

export interface AfterInput {
  expect: Expect | undefined;
  shop: string;
  webhookMark: number;
  balancesBefore: BalanceRows | undefined;
}

export interface AfterResult {
  mismatches: Mismatch[];
  webhooks?: string[] | undefined;
}

/** Checks that read the sandbox after the step: operation state, balances, webhooks. */
export async function checkAfter(ctx: RunContext, input: AfterInput): Promise<AfterResult> {
  const { expect } = input;
  const out: Mismatch[] = [];
  if (expect?.operation_status !== undefined || expect?.operation !== undefined) {
    const state = await readOperation(ctx);
    if (state.status !== 200) {
      out.push({
        what: 'operation',
        expected: 'a readable operation',
        actual: `${state.status} ${JSON.stringify(state.body)}`,
      });
    } else {
      if (expect.operation_status !== undefined)
        out.push(...checkFields('operation', { status: expect.operation_status }, state.body));
      out.push(...checkFields('operation', expect.operation, state.body));
    }
  }
  if (expect?.balances !== undefined || expect?.balance_delta !== undefined) {
    const after = await readBalances(ctx, input.shop);
    out.push(...checkBalances(expect.balances, after));
    if (input.balancesBefore) out.push(...checkBalanceDelta(expect.balance_delta, input.balancesBefore, after));
  }
  let webhooks: string[] | undefined;
  if (ctx.hooks) {
    const want = expect?.webhooks?.length ?? 0;
    await ctx.target.settleWebhooks(() => eventsSince(ctx, input.webhookMark).length >= want);
    const events = eventsSince(ctx, input.webhookMark);
    webhooks = events.map((e) => e.event.type);
    out.push(...checkWebhooks(expect?.webhooks, events));
  }
  return { mismatches: out, webhooks };
}
