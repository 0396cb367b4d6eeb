// `paygate payout create` (flags: define.ts).
import { APIError } from '../../../client/errors.js';
import { showCreate } from '../../create-outcome.js';
import { createRequest } from '../../create-request.js';
import type { CreateOptions } from '../create-flags.js';
import type { CommandDeps } from '../../deps.js';
import { askFor, BANKNAME_FIELD } from '../../prompts.js';
import { operationView } from '../../views.js';

/** The gateway's answers to a bank code it does not take (their message lists the codes that would do). */
const BANK_REFUSED = new Set(['unknown_bank', 'bank_currency_mismatch']);

export async function createPayout(options: CreateOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const { body, moid } = await createRequest(options, deps, 'payout');
  // A bank code picked at the prompt and refused is asked for again (a refused create is not stored); one given as
  // --bankname is the command's error, as is every refusal without a terminal.
  const bankAsked = options.bankname === undefined && body.bankname !== undefined && deps.interactive;
  for (;;) {
    try {
      await showCreate(
        deps,
        client,
        options,
        'Creating payout (the gateway may wait up to 15 s for a provider)…',
        () => client.payouts.create(body),
        (op) => operationView(op, moid),
      );
      return;
    } catch (e) {
      if (!bankAsked || !(e instanceof APIError) || !BANK_REFUSED.has(e.code)) throw e;
      deps.output.note(`${e.code}: ${e.detail}`);
      body.bankname = await askFor(BANKNAME_FIELD, { method: body.method, currency: body.currency });
    }
  }
}
