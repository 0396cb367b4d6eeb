// `paygate payout create` (flags: define/payout.ts).
import { createRequest } from '../create-request.js';
import type { CreateOptions } from '../define/create-flags.js';
import type { CommandDeps } from '../deps.js';
import { show } from '../output.js';
import { operationView } from '../views.js';

export async function createPayout(options: CreateOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  const { body, moid } = await createRequest(options, deps);
  await show(deps.output, options.json, 'Creating payout…', () => client.payouts.create(body), (op) => operationView(op, moid));
}
