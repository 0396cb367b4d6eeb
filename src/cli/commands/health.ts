// `paygate health`: the three probes as a table (probe → status); exit 1 when any is unhealthy.
import { connect } from '../api.js';
import { CheckFailedError } from '../errors.js';
import { print, printJson, statusCell, table } from '../render.js';
import { withSpinner } from '../spinner.js';

const PROBES = ['livez', 'healthz', 'readyz'] as const;

export async function health(opts: Record<string, unknown>): Promise<void> {
  const { client, conn } = connect(opts, { needKey: false });
  const results = await withSpinner('Checking health…', () => Promise.all(PROBES.map((p) => client.health.check(p))));
  const byProbe = Object.fromEntries(PROBES.map((p, i) => [p, results[i]!]));
  if (opts.json) printJson(byProbe);
  else {
    print(
      table(
        ['probe', 'status', 'http'],
        PROBES.map((p) => [p, statusCell(byProbe[p]!.ok ? 'ok' : 'unhealthy'), String(byProbe[p]!.status)]),
      ),
    );
  }
  const down = PROBES.filter((p) => !byProbe[p]!.ok);
  if (down.length > 0) throw new CheckFailedError(`${conn.baseUrl} is unhealthy: ${down.join(', ')}`);
}
