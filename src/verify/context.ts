// What verify's checks share: the wire, the findings, the caps, the keys, the method and amounts to use, and the
// operations verify created (the only ones it ever names in a request). `call` sends one request and notes any
// operation a create endpoint answered with — a probe the gateway should have refused included — so that it is
// cancelled at the end.
import { randomBytes } from 'node:crypto';
import type { Budget } from './budget.js';
import { describe, type Findings } from './findings.js';
import { InterruptedError, type Answer, type Send, type VerifyWire } from './wire.js';

/** An operation verify created (or a gateway created for one of its requests). */
export interface Created {
  operationId: string;
  merchantOperationId: string;
  /** The endpoint that created it. */
  endpoint: string;
  amount: string;
  /** The last status seen. */
  status: string;
  /** The cancel outcome verify got for it, if it cancelled it. */
  cancelled?: string;
}

export const TERMINAL = new Set(['completed', 'cancelled', 'rejected']);

export const CREATE_ENDPOINTS = new Set(['payment.create', 'payment.link', 'payment.flexible_link', 'payout.create']);

export interface VerifyContext {
  readonly wire: VerifyWire;
  readonly findings: Findings;
  readonly budget: Budget;
  readonly key: string;
  readonly secondKey: string | undefined;
  readonly method: string;
  readonly currency: string;
  /** The amount of each payment verify creates. */
  readonly amount: string;
  readonly created: Created[];
  /** A fresh merchant_operation_id: `paygate-verify-<run>-<n>`, never one anybody else used. */
  newKey(): string;
  /** Sends one request of endpoint `endpoint` and keeps any operation a create endpoint answered with. */
  call(endpoint: string, send: Send): Promise<Answer>;
  /** Says what runs now (the spinner's text on a terminal). */
  progress(text: string): void;
  /** Set by the clean-up: its requests go out even after an interruption. */
  cleaning: boolean;
}

export interface ContextOptions {
  wire: VerifyWire;
  findings: Findings;
  budget: Budget;
  key: string;
  secondKey: string | undefined;
  method: string;
  currency: string;
  amount: string;
  progress: (text: string) => void;
  /** Aborted: no request but the clean-up's is sent any more (InterruptedError). */
  signal: AbortSignal | undefined;
}

export function verifyContext(o: ContextOptions): VerifyContext {
  const run = randomBytes(6).toString('hex');
  let n = 0;
  const created: Created[] = [];
  const remember = (endpoint: string, send: Send, a: Answer): void => {
    const body = a.body as Record<string, unknown> | undefined;
    if (a.status < 200 || a.status > 299 || !body || typeof body.operation_id !== 'string') return;
    if (created.some((c) => c.operationId === body.operation_id)) return;
    const sent = (send.json ?? {}) as Record<string, unknown>;
    created.push({
      operationId: body.operation_id,
      merchantOperationId: String(sent.merchant_operation_id ?? ''),
      endpoint,
      amount: String(sent.amount ?? sent.recommended_amount ?? ''),
      status: typeof body.status === 'string' ? body.status : 'unknown',
    });
  };
  const ctx: VerifyContext = {
    ...o,
    created,
    cleaning: false,
    newKey: () => `paygate-verify-${run}-${++n}`,
    async call(endpoint, send) {
      if (o.signal?.aborted && !ctx.cleaning) throw new InterruptedError('interrupted');
      const a = await o.wire.send(send);
      if (CREATE_ENDPOINTS.has(endpoint)) remember(endpoint, send, a);
      return a;
    },
  };
  return ctx;
}

/** Expects one of `statuses`; the violation says what the request was for. */
export function expectStatus(
  ctx: VerifyContext,
  rule: string,
  a: Answer,
  facts: {
    endpoint: string;
    statuses: number[];
    what: string;
    operationId?: string;
    merchantOperationId?: string;
    covered?: string[];
  },
): boolean {
  const ok = facts.statuses.includes(a.status);
  return ctx.findings.expect(rule, ok, a, {
    endpoint: facts.endpoint,
    expected: `expected ${facts.statuses.join(' or ')} for ${facts.what}`,
    got: `got ${describe(a)}`,
    operationId: facts.operationId,
    merchantOperationId: facts.merchantOperationId,
    ...(facts.covered ? { covered: facts.covered } : {}),
  });
}

/** The last status an answer shows for one of verify's operations, kept on its record. */
export function noteStatus(ctx: VerifyContext, operationId: string, a: Answer): void {
  const body = a.body as { status?: unknown; operation?: { status?: unknown } } | undefined;
  const status = body?.operation?.status ?? body?.status;
  const c = ctx.created.find((x) => x.operationId === operationId);
  if (c && typeof status === 'string' && a.status === 200) c.status = status;
}
