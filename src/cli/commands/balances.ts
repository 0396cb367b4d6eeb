// `paygate balances`.
import { connect } from '../api.js';
import { show } from '../output.js';
import { balancesView } from '../views.js';

export async function balances(opts: Record<string, unknown>): Promise<void> {
  const { client } = connect(opts);
  await show(opts, 'Reading balances…', () => client.balances.list(), (res) => balancesView(res.balances));
}
