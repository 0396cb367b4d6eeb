// `paygate payout create`.
import { connect } from '../api.js';
import { createRequest } from '../create-request.js';
import { show } from '../output.js';
import { operationView } from '../views.js';

export async function createPayout(opts: Record<string, unknown>): Promise<void> {
  const { client } = connect(opts);
  const { body, moid } = await createRequest(opts);
  await show(opts, 'Creating payout…', () => client.payouts.create(body), (op) => operationView(op, moid));
}
