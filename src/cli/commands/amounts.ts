// `paygate availability` and `paygate recommend`: advisory amount lookups (the self-matching pool, docs/pool.md).
// Human output: intervals as `min … max` rows, deltas signed; --json is the body as received.
import { connect } from '../api.js';
import { AMOUNT_FIELD, CURRENCY_FIELD, METHOD_FIELD } from '../create-request.js';
import { show } from '../output.js';
import { checkAmounts, fillRequired, type RequiredField } from '../prompts.js';
import { availabilityView, recommendationsView } from '../views.js';

type Opts = Record<string, unknown>;
const MIN: RequiredField = { ...AMOUNT_FIELD, key: 'minAmount', flag: '--min-amount', message: 'Minimum amount' };
const MAX: RequiredField = { ...AMOUNT_FIELD, key: 'maxAmount', flag: '--max-amount', message: 'Maximum amount' };

export async function availability(opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await fillRequired(opts, [METHOD_FIELD, CURRENCY_FIELD, MIN, MAX]);
  await checkAmounts(opts, { minAmount: '--min-amount', maxAmount: '--max-amount' });
  const q = { method: opts.method as string, currency: opts.currency as string, min_amount: opts.minAmount as string, max_amount: opts.maxAmount as string };
  await show(opts, 'Checking availability…', () => client.payments.availability(q), (res) => availabilityView(res, q));
}

export async function recommend(opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await fillRequired(opts, [METHOD_FIELD, CURRENCY_FIELD, AMOUNT_FIELD, MIN, MAX]);
  await checkAmounts(opts, { amount: '--amount', minAmount: '--min-amount', maxAmount: '--max-amount' });
  const body = {
    method: opts.method as string,
    currency: opts.currency as string,
    amount: opts.amount as string,
    min_amount: opts.minAmount as string,
    max_amount: opts.maxAmount as string,
    ...(typeof opts.limit === 'number' ? { limit: opts.limit } : {}),
  };
  await show(opts, 'Finding recommendations…', () => client.payments.recommendations(body), (res) => recommendationsView(res, body));
}
