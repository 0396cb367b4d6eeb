// `paygate balances` (flags: define/top-level.ts).
import type { JsonOptions } from '../define/shared.js';
import type { CommandDeps } from '../deps.js';
import { show } from '../output.js';
import { balancesView } from '../views.js';

export async function balances(options: JsonOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect();
  await show(deps.output, options.json, 'Reading balances…', () => client.balances.list(), (res) => balancesView(res.balances));
}
