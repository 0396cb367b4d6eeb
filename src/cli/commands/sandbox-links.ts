// `paygate sandbox links show | confirm`: a flexible link from the payer's side (shop API key): read it, pick an amount.
import { connect } from '../api.js';
import { AMOUNT_FIELD } from '../create-request.js';
import { show } from '../output.js';
import { confirmedLinkView, linkView } from '../pool-views.js';
import { checkAmounts, fillRequired } from '../prompts.js';

type Opts = Record<string, unknown>;

export async function showLink(operationId: string, opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await show(opts, 'Reading the flexible link…', () => client.sandbox.links.get(operationId), linkView);
}

export async function confirmLink(operationId: string, opts: Opts): Promise<void> {
  const { client } = connect(opts);
  await fillRequired(opts, [{ ...AMOUNT_FIELD, message: 'Amount the payer picks (e.g. 2500.00)' }]);
  await checkAmounts(opts, { amount: '--amount' });
  const amount = opts.amount as string;
  await show(opts, 'The payer confirms the amount…', () => client.sandbox.links.confirm(operationId, { amount }), confirmedLinkView);
}
