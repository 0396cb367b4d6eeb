// Carrying out one step: a `call` (now, or in the background), an `await` of a background call, a change of the
// webhook receiver. Each returns the step's result with every expectation that did not hold.
import { needsAdminToken, NO_ADMIN_TOKEN } from './admin.js';
import { checkAfter, checkContract, readBalances } from './checks.js';
import type { Pending, RunContext } from './context.js';
import { checkFields, checkStatus, type BalanceRows, type Mismatch } from './expectations.js';
import type { Expect, ScenarioStep } from './format.js';
import { buildRequest, exchange, type Answer } from './http.js';
import type { StepResult } from './results.js';
import { callableOf } from './vocabulary.js';

type CallStep = ScenarioStep & { kind: 'call' };

export function labelOf(step: ScenarioStep): string {
  if (step.name) return step.name;
  switch (step.kind) {
    case 'call':
      return step.call;
    case 'wait_for':
      return `wait_for ${[step.wait_for.status].flat().join(' | ')}`;
    case 'await':
      return `await ${step.await}`;
    case 'receiver':
      return `receiver ${typeof step.receiver === 'string' ? step.receiver : step.receiver.status}`;
    case 'skip':
      return 'skipped step';
  }
}

export function baseResult(step: ScenarioStep, index: number): StepResult {
  return { index, id: step.id, label: labelOf(step), line: step.line, status: 'passed', durationMs: 0, mismatches: [] };
}

/** Background: go on once the server has the request (it answered, or it scheduled a timer for it). */
async function untilReceived(
  ctx: RunContext,
  answer: Promise<Answer>,
  timersBefore: number | undefined,
): Promise<void> {
  let settled = false;
  void answer.then(
    () => (settled = true),
    () => (settled = true),
  );
  const remote = ctx.target.mode === 'remote';
  for (let i = 0; i < 200 && !settled; i++) {
    await new Promise<void>((r) => (remote ? setTimeout(r, 10) : setImmediate(r)));
    if (settled) return;
    const clock = i % 5 === 4 || !remote ? await ctx.target.clockState() : undefined;
    if (clock && timersBefore !== undefined && clock.pendingTimers > timersBefore) return;
    if (timersBefore === undefined && i >= 20) return;
  }
}

/** Start a call step: send it and, unless it runs in the background, conclude it. */
export async function runCall(ctx: RunContext, step: CallStep, index: number): Promise<StepResult> {
  if (ctx.target.mode === 'remote' && !ctx.target.adminToken && needsAdminToken(step)) {
    throw new Error(`the sandbox control ${step.call} could not be called: ${NO_ADMIN_TOKEN}`);
  }
  const result = baseResult(step, index);
  const fields = ctx.resolve(step.with ?? {});
  const key = ctx.resolve(step.key);
  const shop = ctx.shopOf(step);
  const { request, sent } = await buildRequest(ctx.target, {
    call: step.call,
    with: fields,
    shop,
    key,
    headers: step.headers,
    baseDir: ctx.baseDir,
  });
  result.request = sent;
  const balancesBefore = step.expect?.balance_delta ? await readBalances(ctx, shop) : undefined;
  const webhookMark = ctx.target.receiver.accepted.length;
  const timersBefore = step.background ? (await ctx.target.clockState())?.pendingTimers : undefined;
  const answer = exchange(ctx.target, request);
  const pending: Pending = { step, sent, answer, startedAt: Date.now(), webhookMark, balancesBefore };
  if (step.background) {
    answer.catch(() => undefined);
    ctx.pending.set(step.id!, pending);
    await untilReceived(ctx, answer, timersBefore);
    result.note = 'sent in the background';
    return result;
  }
  return conclude(ctx, pending, step.expect, result, fields);
}

/** Collect a background call's answer and check it against the call's and the await step's expectations. */
export async function runAwait(
  ctx: RunContext,
  step: ScenarioStep & { kind: 'await' },
  index: number,
): Promise<StepResult> {
  const result = baseResult(step, index);
  const pending = ctx.pending.get(step.await);
  if (!pending) throw new Error(`no background step "${step.await}" is waiting`);
  ctx.pending.delete(step.await);
  result.request = pending.sent;
  const expect = mergeExpect(pending.step.expect, step.expect);
  const res = await conclude(ctx, pending, expect, result, ctx.resolve(pending.step.with ?? {}));
  if (step.id) ctx.answers.set(step.id, ctx.answers.get(step.await)!);
  return res;
}

function mergeExpect(a: Expect | undefined, b: Expect | undefined): Expect | undefined {
  if (!a) return b;
  if (!b) return a;
  return { ...a, ...b, body: { ...a.body, ...b.body }, operation: { ...a.operation, ...b.operation } };
}

async function conclude(
  ctx: RunContext,
  p: Pending,
  rawExpect: Expect | undefined,
  result: StepResult,
  fields: Record<string, unknown>,
): Promise<StepResult> {
  const c = callableOf(p.step.call)!;
  const answer = await p.answer;
  result.response = { status: answer.status, body: answer.body };
  ctx.record(p.step, fields, answer);
  learnSecret(ctx, p.step.call, answer);
  const expect = ctx.resolve(rawExpect);
  const mismatches: Mismatch[] = [
    ...checkStatus(expect, c.okStatus, answer.status, answer.body),
    ...checkContract(c, answer),
    ...checkFields('body', expect?.body, answer.body),
  ];
  const after = await checkAfter(ctx, {
    expect,
    shop: ctx.shopOf(p.step),
    webhookMark: p.webhookMark,
    balancesBefore: p.balancesBefore as BalanceRows | undefined,
  });
  mismatches.push(...after.mismatches);
  result.webhooks = after.webhooks;
  result.mismatches = mismatches;
  result.status = mismatches.length > 0 ? 'failed' : 'passed';
  return result;
}

/** A secret from `webhooks.add` or a rotation: the receiver trusts it from now on. */
function learnSecret(ctx: RunContext, call: string, answer: Answer): void {
  const secret = (answer.body as { secret?: unknown } | undefined)?.secret;
  if ((call === 'webhooks.add' || call === 'webhooks.rotate_secret') && typeof secret === 'string')
    ctx.target.receiver.addSecret(secret);
}

export async function runReceiver(
  ctx: RunContext,
  step: ScenarioStep & { kind: 'receiver' },
  index: number,
): Promise<StepResult> {
  const r = step.receiver;
  ctx.target.receiver.status = r === 'up' ? 204 : r === 'down' ? 503 : r.status;
  return baseResult(step, index);
}
