// `paygate payout create` (flags: define/payout.ts).
import { showCreate } from '../create-outcome.js';
import { createRequest } from '../create-request.js';
import type { CreateOptions } from '../define/create-flags.js';
import type { CommandDeps } from '../deps.js';
import { operationView } from '../views.js';

export async function createPayout(options: CreateOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const { body, moid } = await createRequest(options, deps, 'payout');
  await showCreate(deps, client, options, 'Creating payout (the gateway may wait up to 15 s for a provider)…', () => client.payouts.create(body), (op) =>
    operationView(op, moid),
  );
}
