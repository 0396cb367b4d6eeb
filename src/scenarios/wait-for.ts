// `wait_for`: until the operation reaches a status. On a frozen sandbox clock the runner moves the clock itself,
// to the next pending timer each time (just far enough, never past the timeout), so nothing waits in real time;
// on a real-time clock it polls the state with a timeout. A terminal status other than the awaited one ends the wait.
import { checkAfter, readBalances, readOperation } from './checks.js';
import type { RunContext } from './context.js';
import { TERMINAL_STATUSES } from '../contract/common.js';
import { formatDuration } from '../contract/duration.js';
import { NO_ADMIN_TOKEN } from './admin.js';
import type { ScenarioStep } from './format.js';
import { callById, type Answer } from './http.js';
import type { StepResult } from './results.js';
import type { Target } from './target.js';
import { baseResult } from './steps.js';

type WaitStep = ScenarioStep & { kind: 'wait_for' };

export interface WaitOptions {
  /**
   * Waits between polls of a real-time clock. Default: a real timer. Tests pass one that moves the sandbox clock
   * instead (`clock.advance` on the target), so they never wait.
   */
  sleep?: ((ms: number, target: Target) => Promise<void>) | undefined;
  /** Poll interval on a real-time clock, ms. Default 100. */
  pollMs?: number | undefined;
}

const DEFAULT_FROZEN_TIMEOUT = 3_600_000;
const DEFAULT_REAL_TIMEOUT = 30_000;
/**
 * Against a frozen clock that does not say when its next timer is due (a sandbox in another process), advance 1 s
 * at a time for the first minute, then 1 min at a time: at most a minute past the moment, in few requests.
 */
const blindStep = (waited: number) => (waited < 60_000 ? 1000 : 60_000);

const statusOf = (a: Answer): string | undefined =>
  a.status === 200 ? (a.body as { status?: string }).status : undefined;

async function advance(ctx: RunContext, ms: number): Promise<void> {
  const res = await callById(ctx.target, 'clock.advance', { by: Math.max(0, Math.round(ms)) }, ctx.target.defaultShop);
  if (res.status !== 200)
    throw new Error(
      `wait_for could not move the sandbox clock: clock.advance answered ${res.status} ${JSON.stringify(res.body)}`,
    );
}

interface Waited {
  reached: boolean;
  /** A terminal status other than the awaited ones: nothing more will change. */
  terminal?: string | undefined;
  last: Answer;
  /** How far the clock moved (frozen) or how long was polled (real), ms. */
  moved: number;
}

const terminalOther = (status: string | undefined, wanted: string[]): string | undefined =>
  status !== undefined && (TERMINAL_STATUSES as readonly string[]).includes(status) && !wanted.includes(status)
    ? status
    : undefined;

/**
 * Moves the sandbox clock to each next timer until the status, a terminal status, or the timeout: a timer beyond the
 * timeout (or none) moves the clock to the timeout itself, so what the report says it advanced is what it waited.
 */
async function frozenWait(ctx: RunContext, wanted: string[], timeout: number, now: number): Promise<Waited> {
  const deadline = now + timeout;
  let clockNow = now;
  for (let i = 0; i < 100_000; i++) {
    const last = await readOperation(ctx);
    const status = statusOf(last);
    if (wanted.includes(status ?? '')) return { reached: true, last, moved: clockNow - now };
    const terminal = terminalOther(status, wanted);
    if (terminal || clockNow >= deadline) return { reached: false, terminal, last, moved: clockNow - now };
    const clock = await ctx.target.clockState();
    if (!clock) throw new Error('wait_for on a frozen clock needs the sandbox clock (pass the admin token)');
    clockNow = clock.now;
    const next =
      clock.nextTimerAt ??
      (ctx.target.mode === 'remote' ? Math.min(clockNow + blindStep(clockNow - now), deadline) : undefined);
    const to = next === undefined || next > deadline ? deadline : next;
    await advance(ctx, to - clockNow);
    clockNow = Math.max(clockNow, to);
  }
  throw new Error('wait_for gave up after 100000 timers');
}

async function realWait(ctx: RunContext, wanted: string[], timeout: number, opts: WaitOptions): Promise<Waited> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const poll = opts.pollMs ?? 100;
  let waited = 0;
  for (;;) {
    const last = await readOperation(ctx);
    const status = statusOf(last);
    if (wanted.includes(status ?? '')) return { reached: true, last, moved: waited };
    const terminal = terminalOther(status, wanted);
    if (terminal || waited >= timeout) return { reached: false, terminal, last, moved: waited };
    const ms = Math.min(poll, timeout - waited);
    await sleep(ms, ctx.target);
    waited += ms;
  }
}

/**
 * Without the admin token a sandbox in another process shows no clock: whether it is frozen cannot be told, nor can it
 * be moved. A server that refuses `clock.show` for want of the token is such a sandbox: fail now rather than poll.
 * Any other server (no sandbox controls at all) is polled in real time.
 */
async function refuseWithoutToken(ctx: RunContext): Promise<void> {
  if (ctx.target.mode !== 'remote' || ctx.target.adminToken) return;
  const res = await callById(ctx.target, 'clock.show', {}, ctx.target.defaultShop);
  if (res.status === 401 && (res.body as { code?: string } | undefined)?.code === 'missing_admin_token') {
    throw new Error(`wait_for could not read or move the sandbox clock: ${NO_ADMIN_TOKEN}`);
  }
}

export async function runWaitFor(
  ctx: RunContext,
  step: WaitStep,
  index: number,
  opts: WaitOptions = {},
): Promise<StepResult> {
  const result = baseResult(step, index);
  const w = ctx.resolve(step.wait_for);
  if (w.operation || w.merchant_operation_id) {
    ctx.last = { operation_id: w.operation, merchant_operation_id: w.merchant_operation_id, shop: ctx.shopOf(step) };
  }
  const wanted = [w.status].flat();
  const webhookMark = ctx.target.receiver.accepted.length;
  const clock = await ctx.target.clockState();
  if (!clock) await refuseWithoutToken(ctx);
  const frozen = clock?.frozen ?? false;
  const timeout = w.timeout ?? (frozen ? DEFAULT_FROZEN_TIMEOUT : DEFAULT_REAL_TIMEOUT);
  const balancesBefore = step.expect?.balance_delta ? await readBalances(ctx, ctx.shopOf(step)) : undefined;
  const r = frozen ? await frozenWait(ctx, wanted, timeout, clock!.now) : await realWait(ctx, wanted, timeout, opts);
  result.request = {
    method: 'wait_for',
    path: `${ctx.last?.operation_id ?? ctx.last?.merchant_operation_id} → ${wanted.join(' | ')}`,
  };
  result.response = { status: r.last.status, body: r.last.body };
  result.note = `${frozen ? 'sandbox clock advanced' : 'polled for'} ${formatDuration(r.moved)}`;
  if (!r.reached) {
    const time = `${formatDuration(r.moved)} of ${frozen ? 'sandbox' : 'real'} time`;
    result.mismatches.push({
      what: 'operation.status',
      expected: wanted.join(' | '),
      actual: statusOf(r.last) ?? `${r.last.status} ${JSON.stringify(r.last.body)}`,
      note: r.terminal
        ? `reached ${r.terminal}, a terminal status, while waiting for ${wanted.join(' | ')} (after ${time})`
        : `still not reached after ${time}`,
    });
  }
  const after = await checkAfter(ctx, {
    expect: ctx.resolve(step.expect),
    shop: ctx.shopOf(step),
    webhookMark,
    balancesBefore,
  });
  result.mismatches.push(...after.mismatches);
  result.webhooks = after.webhooks;
  result.status = result.mismatches.length > 0 ? 'failed' : 'passed';
  return result;
}
