// `paygate balances [--all-shops]` (flags: commands/top-level.ts): the key's shop (GET /v1/balances), or every shop's
// (GET /sandbox/balances, the sandbox admin token).
import type { BalancesOptions } from '../top-level.js';
import type { CommandDeps } from '../../deps.js';
import { show } from '../../output.js';
import { allBalancesView } from '../../support-views.js';
import { balancesView } from '../../views.js';

export async function balances(options: BalancesOptions, deps: CommandDeps): Promise<void> {
  if (options.allShops) {
    const { client } = await deps.connect({ needKey: false, needAdminToken: true });
    await show(
      deps.output,
      options.json,
      "Reading every shop's balances…",
      () => client.sandbox.balances(),
      allBalancesView,
    );
    return;
  }
  const { client } = await deps.connect({ withAdminTokenOnly: 'paygate balances --all-shops' });
  await show(
    deps.output,
    options.json,
    'Reading balances…',
    () => client.balances.list(),
    (res) => balancesView(res.balances),
  );
}
