// `paygate sandbox links show | confirm` (flags: define.ts): a flexible link from the payer's side
// (shop API key): read it, pick an amount.
import type { LinkConfirmOptions, LinkShowOptions } from './define.js';
import type { CommandDeps } from '../../../deps.js';
import { show } from '../../../output.js';
import { confirmedLinkView, linkView } from '../../../pool-views.js';
import { AMOUNT_FIELD, checkAmounts, fillRequired } from '../../../prompts.js';

export async function showLink({ operationId, json }: LinkShowOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(deps.output, json, 'Reading the flexible link…', () => client.sandbox.links.get(operationId), linkView);
}

export async function confirmLink(options: LinkConfirmOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const { amount } = await fillRequired(
    options,
    [{ ...AMOUNT_FIELD, message: 'Amount the payer picks (e.g. 2500.00)' }],
    deps.interactive,
  );
  await checkAmounts({ amount }, { amount: '--amount' });
  await show(
    deps.output,
    options.json,
    'The payer confirms the amount…',
    () => client.sandbox.links.confirm(options.operationId, { amount }),
    confirmedLinkView,
  );
}
