// `paygate cluster status` (flags: define.ts): GET /cluster/status of any process of the cluster, as a table of
// processes and their workspaces, or (--json) the body as it came.
import type { ClusterStatus } from '../../../cluster/status.js';
import type { CommandDeps } from '../../deps.js';
import { CheckFailedError, UsageError } from '../../errors.js';
import { table } from '../../render.js';

export function statusView(s: ClusterStatus): string {
  const rows = s.nodes.map((n) => [
    n.id === s.node ? `${n.id} *` : n.id,
    n.address,
    n.alive ? 'alive' : 'gone',
    String(n.workspaces.length),
    n.workspaces.map((w) => `${w.id} (epoch ${w.epoch}, ${(w.lease_age_ms / 1000).toFixed(1)} s)`).join(', ') || '-',
  ]);
  const unowned = s.unowned.length
    ? `\nunowned (loaded on their next request): ${s.unowned.map((w) => w.id).join(', ')}`
    : '';
  return `${table(['process', 'address', 'state', 'workspaces', 'leases (epoch, age)'], rows)}${unowned}\n* the process that answered; leases last ${s.lease_ttl_ms} ms unrenewed`;
}

export async function clusterStatus(options: { json: boolean }, deps: CommandDeps): Promise<void> {
  const { baseUrl, adminToken } = await deps.connect({ needKey: false, needAdminToken: true });
  if (!adminToken)
    throw new UsageError('the cluster status needs the admin token', 'pass --admin-token or set PAYGATE_ADMIN_TOKEN');
  const res = await deps.output.spin('Reading the cluster…', () =>
    fetch(`${baseUrl.replace(/\/$/, '')}/cluster/status`, { headers: { 'x-admin-token': adminToken } }),
  );
  const body = (await res.json().catch(() => ({}))) as ClusterStatus & { code?: string; message?: string };
  if (res.status !== 200)
    throw new CheckFailedError(
      `GET /cluster/status: ${res.status} ${body.code ?? ''} ${body.message ?? '(is this a process started with sandbox start --cluster?)'}`,
    );
  if (options.json) deps.output.json(body);
  else deps.output.print(statusView(body));
}
