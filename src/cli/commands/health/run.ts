// `paygate health` (flags: commands/top-level.ts): the three probes as a table (probe → status); exit 1 when any is
// unhealthy.
import type { JsonOptions } from '../shared.js';
import type { CommandDeps } from '../../deps.js';
import { CheckFailedError } from '../../errors.js';
import { statusCell, table } from '../../render.js';

const PROBES = ['livez', 'healthz', 'readyz'] as const;

export async function health(options: JsonOptions, deps: CommandDeps): Promise<void> {
  const { client, baseUrl } = await deps.connect({ needKey: false });
  const results = await deps.output.spin('Checking health…', () =>
    Promise.all(PROBES.map((p) => client.health.check(p))),
  );
  const byProbe = Object.fromEntries(PROBES.map((p, i) => [p, results[i]!]));
  if (options.json) deps.output.json(byProbe);
  else {
    deps.output.print(
      table(
        ['probe', 'status', 'http'],
        PROBES.map((p) => [p, statusCell(byProbe[p]!.ok ? 'ok' : 'unhealthy'), String(byProbe[p]!.status)]),
      ),
    );
  }
  const down = PROBES.filter((p) => !byProbe[p]!.ok);
  if (down.length > 0) throw new CheckFailedError(`${baseUrl} is unhealthy: ${down.join(', ')}`);
}
