// `paygate verify` as a library: a safe, bounded contract check of a running gateway. It sends the requests of
// checks/ (authentication, validation, creates and their replays, reads, cross-shop 404s, cancels, balances, amount
// lookups), passes every exchange through the conformance checker, adds its own expectations, cancels what it
// created, and returns the outcome per rule of the catalogue. It never names an operation it did not create.
import { Decimal } from 'decimal.js';
import type { Transport } from '../client/wire.js';
import { createConformanceChecker, RULES } from '../conformance/index.js';
import { VERIFY_RULES } from '../conformance/rules/verify.js';
import type { RuleInfo, Violation } from '../conformance/types.js';
import { Budget, DEFAULT_AMOUNT, DEFAULT_MAX_AMOUNT, DEFAULT_MAX_CREATES } from './budget.js';
import { checkAuth } from './checks/auth.js';
import { checkCancels, checkIsolation, cleanUp } from './checks/cancels.js';
import { checkCreates } from './checks/creates.js';
import { checkAmounts, checkBalances } from './checks/ledger.js';
import { checkValidation } from './checks/validation.js';
import { verifyContext, type Created } from './context.js';
import { Findings, type Skip } from './findings.js';
import { InterruptedError, UnreachableError, VerifyWire } from './wire.js';

export { InterruptedError, UnreachableError } from './wire.js';
export { DEFAULT_AMOUNT, DEFAULT_MAX_AMOUNT, DEFAULT_MAX_CREATES } from './budget.js';

export interface VerifyOptions {
  /** The gateway's base URL (without /v1). */
  baseUrl: string;
  /** One HTTP exchange (the CLI's node:http transport, or a sandbox's fetch handler in tests). */
  transport: Transport;
  /** The API key of the shop verify acts as. */
  apiKey: string;
  /** The key of another shop, for the cross-shop 404s. Default: none (those checks are skipped). */
  secondKey?: string | undefined;
  /** The payment method of the creates and lookups. Default WT_RUB_C2C. */
  method?: string | undefined;
  /** Its currency. Default RUB. */
  currency?: string | undefined;
  /** The amount of each payment verify creates. Default 100.00. */
  amount?: string | undefined;
  /** At most this many requests that could create an operation. Default 8. */
  maxCreates?: number | undefined;
  /** Their amounts add up to at most this. Default 500.00. */
  maxAmount?: string | undefined;
  /** Told what runs now. Default: nothing. */
  progress?: ((text: string) => void) | undefined;
  /** How long one exchange may take. Default 30 s. */
  timeoutMs?: number | undefined;
  /** Stops the run (InterruptedError) before its next request; what it created is cancelled first. */
  signal?: AbortSignal | undefined;
}

export interface RuleResult extends RuleInfo {
  /** skipped: a rule only verify checks, which this run could not check (see `skipped` for why). */
  result: 'passed' | 'failed' | 'skipped';
  violations: Violation[];
}

export interface VerifyResult {
  baseUrl: string;
  passed: boolean;
  exchanges: number;
  /** Every rule of the catalogue but the webhook ones (VERIFIABLE_RULES): failed with its violations, passed (no exchange broke it), or skipped. */
  rules: RuleResult[];
  /** Every violation, in the order of the exchanges. */
  violations: Violation[];
  skipped: Skip[];
  created: Created[];
  caps: { maxCreates: number; maxAmount: string; creates: number; amount: string };
}

const OWN = new Set(VERIFY_RULES.map((r) => r.id));
/** The rules verify reports on: all but the webhook ones (it receives no webhooks; only the proxy does). */
export const VERIFIABLE_RULES: readonly RuleInfo[] = RULES.filter((r) => r.kind !== 'webhook');

function outcome(o: VerifyOptions, findings: Findings, wire: VerifyWire, ctx: { budget: Budget; created: Created[] }) {
  const violations = [...wire.checkerViolations(), ...findings.violations].sort((a, b) => a.exchange - b.exchange);
  const skippedRules = new Set(findings.skipped.flatMap((s) => s.rules));
  const rules: RuleResult[] = VERIFIABLE_RULES.map((r) => {
    const mine = violations.filter((v) => v.rule === r.id);
    // Not checked by verify itself: one of its own rules, or one whose every check was skipped (see `skipped`).
    const unchecked = !findings.checked.has(r.id) && (OWN.has(r.id) || skippedRules.has(r.id));
    return { ...r, result: mine.length > 0 ? 'failed' : unchecked ? 'skipped' : 'passed', violations: mine };
  });
  const result: VerifyResult = {
    baseUrl: o.baseUrl,
    passed: violations.length === 0,
    exchanges: wire.exchanges.length,
    rules,
    violations,
    skipped: findings.skipped,
    created: ctx.created,
    caps: {
      maxCreates: ctx.budget.maxCreates,
      maxAmount: ctx.budget.maxAmount.toFixed(2),
      creates: ctx.budget.creates,
      amount: ctx.budget.amount.toFixed(Math.max(2, ctx.budget.amount.decimalPlaces())),
    },
  };
  return result;
}

/**
 * Runs every check. Throws UnreachableError when the gateway does not answer, InterruptedError when `signal` stopped
 * the run — after cancelling what it created, as far as it can.
 */
export async function runVerify(o: VerifyOptions): Promise<VerifyResult> {
  const kinds = new Map(RULES.map((r) => [r.id, r.kind]));
  const wire = new VerifyWire({
    baseUrl: o.baseUrl,
    transport: o.transport,
    checker: createConformanceChecker(),
    isRequestRule: (rule) => kinds.get(rule) === 'request',
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  });
  const sections = new Map(RULES.map((r) => [r.id, r.section]));
  const findings = new Findings((rule) => sections.get(rule) ?? '');
  const budget = new Budget(o.maxCreates ?? DEFAULT_MAX_CREATES, new Decimal(o.maxAmount ?? DEFAULT_MAX_AMOUNT));
  const ctx = verifyContext({
    wire,
    findings,
    budget,
    key: o.apiKey,
    secondKey: o.secondKey,
    method: o.method ?? 'WT_RUB_C2C',
    currency: o.currency ?? 'RUB',
    amount: o.amount ?? DEFAULT_AMOUNT,
    progress: o.progress ?? (() => undefined),
    signal: o.signal,
  });
  try {
    await checkAuth(ctx);
    const [payment, link] = await checkCreates(ctx);
    await checkIsolation(ctx, payment);
    await checkValidation(ctx);
    await checkBalances(ctx);
    await checkAmounts(ctx);
    await checkCancels(ctx, payment, link);
  } catch (e) {
    if (e instanceof UnreachableError || e instanceof InterruptedError) await cleanUp(ctx).catch(() => undefined);
    throw e;
  }
  await cleanUp(ctx);
  return outcome(o, findings, wire, ctx);
}
