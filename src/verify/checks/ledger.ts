// Balances (§2.5, §4.8) and the advisory amount lookups (§4.9, §4.10): the balances of the key's shop and, with
// --second-key, of the other (each obeys current_minus = max(-(balance + reserved), 0)); availability and
// recommendations for the method, when the gateway offers them for it (a 403 or 412 means it does not: skipped).
import { Decimal } from 'decimal.js';
import { expectStatus, type VerifyContext } from '../context.js';
import type { Answer } from '../wire.js';

interface Row {
  currency?: unknown;
  balance?: unknown;
  current_minus?: unknown;
  reserved?: unknown;
}

const dec = (v: unknown): Decimal | undefined => {
  if (typeof v !== 'string') return undefined;
  try {
    return new Decimal(v);
  } catch {
    return undefined;
  }
};

/** Each row's formula, under the catalogue's balance rule (the checker reports it too; a drift is named once). */
function checkFormula(ctx: VerifyContext, a: Answer): void {
  const rows = (a.body as { balances?: unknown } | undefined)?.balances;
  if (!Array.isArray(rows)) return;
  for (const row of rows as Row[]) {
    const [balance, minus, reserved] = [dec(row.balance), dec(row.current_minus), dec(row.reserved)];
    if (!balance || !minus || !reserved) continue; // a missing or malformed field is the response rules' finding
    const want = Decimal.max(balance.plus(reserved).neg(), 0);
    ctx.findings.expect('balance.formula', minus.eq(want), a, {
      endpoint: 'balances.list',
      expected: `expected current_minus ${want.toFixed(2)} = max(-(balance + reserved), 0) for ${String(row.currency)}`,
      got: `got ${String(row.current_minus)}`,
    });
  }
}

export async function checkBalances(ctx: VerifyContext): Promise<void> {
  ctx.progress('balances and the §2.5 formula');
  const keys = ctx.secondKey ? [ctx.key, ctx.secondKey] : [ctx.key];
  for (const key of keys) {
    const a = await ctx.call('balances.list', { method: 'GET', path: '/v1/balances', key });
    const ok = expectStatus(ctx, 'response.valid_request_answered', a, {
      endpoint: 'balances.list',
      statuses: [200],
      what: key === ctx.key ? 'the balances of the shop' : 'the balances of the other shop',
    });
    if (ok) checkFormula(ctx, a);
  }
}

/** 200, or 403 / 412 (the gateway does not offer the lookup for this method and shop: skipped, not failed). */
function offered(ctx: VerifyContext, endpoint: string, a: Answer): void {
  if (a.status === 403 || a.status === 412) {
    const check = `${endpoint} for ${ctx.method} ${ctx.currency}`;
    ctx.findings.skip(check, `the gateway answered ${a.status}: not offered`, ['response.valid_request_answered']);
    return;
  }
  expectStatus(ctx, 'response.valid_request_answered', a, {
    endpoint,
    statuses: [200],
    what: `${endpoint} for ${ctx.method} ${ctx.currency}`,
  });
}

export async function checkAmounts(ctx: VerifyContext): Promise<void> {
  ctx.progress('availability and recommendations');
  const amount = new Decimal(ctx.amount);
  const range = { min_amount: amount.toFixed(2), max_amount: amount.times(10).toFixed(2) };
  const query = { method: ctx.method, currency: ctx.currency, ...range };
  let a = await ctx.call('payment.availability', {
    method: 'GET',
    path: '/v1/payment/availability',
    query,
    key: ctx.key,
  });
  offered(ctx, 'payment.availability', a);
  const json = { ...query, amount: amount.toFixed(2), limit: 3 };
  a = await ctx.call('payment.recommendations', {
    method: 'POST',
    path: '/v1/payment/recommendations',
    json,
    key: ctx.key,
  });
  offered(ctx, 'payment.recommendations', a);
}
