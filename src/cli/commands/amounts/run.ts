// `paygate availability` and `paygate recommend` (flags: commands/top-level.ts): advisory amount lookups (the
// self-matching pool, docs/pool.md). Human output: intervals as `min … max` rows, deltas signed; --json is the body.
import type { AvailabilityOptions, RecommendOptions } from '../top-level.js';
import type { CommandDeps } from '../../deps.js';
import { show } from '../../output.js';
import {
  AMOUNT_FIELD,
  checkAmounts,
  CURRENCY_FIELD,
  fillRequired,
  METHOD_FIELD,
  type RequiredField,
} from '../../prompts.js';
import { availabilityView, recommendationsView } from '../../views.js';

const MIN: RequiredField<'minAmount'> = {
  ...AMOUNT_FIELD,
  key: 'minAmount',
  flag: '--min-amount',
  message: 'Minimum amount',
};
const MAX: RequiredField<'maxAmount'> = {
  ...AMOUNT_FIELD,
  key: 'maxAmount',
  flag: '--max-amount',
  message: 'Maximum amount',
};

export async function availability(options: AvailabilityOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const o = await fillRequired(options, [METHOD_FIELD, CURRENCY_FIELD, MIN, MAX], deps.interactive);
  await checkAmounts(o, { minAmount: '--min-amount', maxAmount: '--max-amount' });
  const q = { method: o.method, currency: o.currency, min_amount: o.minAmount, max_amount: o.maxAmount };
  await show(
    deps.output,
    options.json,
    'Checking availability…',
    () => client.payments.availability(q),
    (res) => availabilityView(res, q),
  );
}

export async function recommend(options: RecommendOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const o = await fillRequired(options, [METHOD_FIELD, CURRENCY_FIELD, AMOUNT_FIELD, MIN, MAX], deps.interactive);
  await checkAmounts(o, { amount: '--amount', minAmount: '--min-amount', maxAmount: '--max-amount' });
  const body = {
    method: o.method,
    currency: o.currency,
    amount: o.amount,
    min_amount: o.minAmount,
    max_amount: o.maxAmount,
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
  };
  await show(
    deps.output,
    options.json,
    'Finding recommendations…',
    () => client.payments.recommendations(body),
    (res) => recommendationsView(res, body),
  );
}
