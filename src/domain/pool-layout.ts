// Generated pool layouts: `count` payout amounts between min and max in multiples of step, from a seeded generator,
// so the same layout comes out on every run (fixtures' pool_layouts and POST /sandbox/pool/layout).
import { DomainError } from './errors.js';
import { money, toScale2 } from './money.js';
import type { CreateParams } from './create.js';
import type { WorldIndex } from './world.js';

export interface LayoutGenerator {
  count: number;
  min: string;
  max: string;
  step: string;
  seed: number;
}

/** mulberry32: a small, well-known 32-bit PRNG; deterministic for a seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The amounts of a generated layout; `validation_error` (400) when min exceeds max. */
export function generateAmounts(g: LayoutGenerator): string[] {
  const min = money(g.min);
  if (min.greaterThan(money(g.max)))
    throw new DomainError('validation_error', 'must not exceed generate.max', 'generate.min');
  const step = money(g.step);
  const steps = money(g.max).minus(min).dividedToIntegerBy(step).toNumber();
  const next = prng(g.seed);
  const out: string[] = [];
  // In whole cents when they are exact in a double (every real layout): the same amounts, some 10× faster than in
  // decimals, so a layout of 10,000 does not hold the event loop while its amounts are drawn.
  const minCents = min.times(100);
  const stepCents = step.times(100);
  if (
    minCents.isInteger() &&
    stepCents.isInteger() &&
    minCents.gte(0) &&
    stepCents.gt(0) &&
    minCents.plus(stepCents.times(steps)).lte(Number.MAX_SAFE_INTEGER)
  ) {
    const [lo, by] = [minCents.toNumber(), stepCents.toNumber()];
    for (let i = 0; i < g.count; i++) {
      const c = lo + by * Math.floor(next() * (steps + 1));
      out.push(`${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`);
    }
    return out;
  }
  for (let i = 0; i < g.count; i++) out.push(toScale2(min.plus(step.times(Math.floor(next() * (steps + 1))))));
  return out;
}

/**
 * The i-th create request of a pool layout (one payout per amount, numbered in matching order within `batch`), made
 * when it is planned: a layout of 10,000 keeps no 10,000 requests alive for its whole run (they would outlive young
 * collections and be copied by each).
 */
export function layoutParamsOf(
  world: WorldIndex,
  methodId: string,
  batch: string,
): (amount: string, i: number) => CreateParams {
  const method = world.methods.get(methodId);
  const bankname =
    method?.payout_bankname === 'required'
      ? world.data.banks.find((b) => b.currency === method.currency)?.code
      : undefined;
  const currency = method?.currency ?? '';
  return (amount, i) => {
    const n = String(i + 1).padStart(6, '0');
    return {
      merchant_operation_id: `pool-layout-${batch}-${n}`,
      client_id: `pool-recipient-${n}`,
      method: methodId,
      amount,
      currency,
      number: `22007000${String(i + 1).padStart(8, '0')}`,
      name: `Pool recipient ${n}`,
      ...(bankname ? { bankname } : {}),
    };
  };
}
