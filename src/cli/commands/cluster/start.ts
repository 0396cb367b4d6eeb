// `paygate sandbox start --cluster` (flags: sandbox/define.ts): one process of a cluster on a PostgreSQL store
// (src/cluster/node.ts), listening until SIGINT/SIGTERM, then writing and releasing its workspaces.
import { parseDurationText } from '../../../contract/duration.js';
import { isPostgresUrl, redactUrl } from '../../../store/postgres/backend.js';
import { SandboxStartError, UsageError } from '../../errors.js';
import type { Output } from '../../output.js';
import type { ClusterStartFlags, SandboxStartOptions } from '../sandbox/define.js';
import { explain } from '../sandbox/start.js';

function duration(flag: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  const r = parseDurationText(text);
  if (!r.ok) throw new UsageError(`${flag} ${r.message}`);
  if (r.ms < min) throw new UsageError(`${flag} must be at least ${min} ms`);
  return r.ms;
}

/** What cluster mode cannot take, as a usage error; the store URL and the shared admin token. */
function checked(opts: SandboxStartOptions): { store: string; adminToken: string } {
  const store = opts.inMemory ? undefined : (opts.store ?? process.env.PAYGATE_STORE);
  if (!isPostgresUrl(store))
    throw new UsageError(
      '--cluster needs a PostgreSQL store',
      'pass --store postgres://user@host/db, the same on every process',
    );
  const refused = (['reset', 'https', 'newAdminToken', 'addAdminToken'] as const).find((k) => opts[k]);
  if (refused)
    throw new UsageError(
      `--cluster cannot be combined with --${refused.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
      'start the cluster without it (TLS: terminate it at a proxy in front, with --public-url)',
    );
  const adminToken = process.env.PAYGATE_ADMIN_TOKEN;
  if (!adminToken)
    throw new UsageError(
      '--cluster needs PAYGATE_ADMIN_TOKEN: every process of a cluster takes the same admin token',
      'PAYGATE_ADMIN_TOKEN=pg_admin_<something secret> paygate sandbox start --cluster --store postgres://…',
    );
  return { store, adminToken };
}

export async function runClusterStart(opts: SandboxStartOptions, flags: ClusterStartFlags, output: Output) {
  const { store, adminToken } = checked(opts);
  const leaseTtlMs = duration('--lease-ttl', flags.leaseTtl, 100);
  const idleUnloadMs = duration('--idle-unload', flags.idleUnload, 0);
  const fixtures = opts.fixtures ?? process.env.PAYGATE_FIXTURES;
  const publicUrl = opts.publicUrl ?? process.env.PAYGATE_PUBLIC_URL;
  const host = opts.host ?? process.env.PAYGATE_HOST ?? '127.0.0.1';
  const port = Number(opts.port ?? process.env.PAYGATE_PORT ?? 4080);
  const { ClusterNode } = await import('../../../cluster/node.js');
  const { loadWorld } = await import('../../../world/load.js');
  const world = loadWorld(fixtures);
  const node = new ClusterNode({
    store,
    ...(opts.fsync !== undefined ? { fsync: opts.fsync } : {}),
    ...(flags.address ? { address: flags.address } : {}),
    ...(leaseTtlMs !== undefined ? { leaseTtlMs } : {}),
    ...(idleUnloadMs !== undefined ? { idleUnloadMs } : {}),
    ...(flags.hotSet !== undefined ? { hotSet: flags.hotSet } : {}),
    sandbox: {
      ...(fixtures ? { fixtures } : {}),
      adminToken,
      frozenClock: opts.frozenClock || process.env.PAYGATE_FROZEN_CLOCK === '1',
      ...(opts.webhookUrl ? { webhookUrl: opts.webhookUrl } : {}),
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      ...(opts.limits ? { limits: opts.limits } : {}),
    },
  });
  let url: string;
  try {
    url = await node.start(port, host);
  } catch (e) {
    await node.close().catch(() => {});
    if ((e as { code?: string }).code?.startsWith('store_')) throw explain(e, port, host);
    throw new SandboxStartError(
      `cannot start the cluster process on ${redactUrl(store)}: ${(e as Error).message}`,
      'check the URL, that the server runs, and that this user may connect and create tables',
      { cause: e },
    );
  }
  const closed = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void node.close().then(resolve, (e: unknown) => {
        output.note(`paygate: error while stopping: ${(e as Error).message}`);
        resolve();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  const info = {
    base_url: publicUrl ?? url,
    listen_url: url,
    node: node.me,
    address: node.address,
    store: redactUrl(store),
    lease_ttl_ms: node.ttlMs,
    hot_set: node.hotSet,
    idle_unload_ms: idleUnloadMs ?? null,
    admin_token_last4: adminToken.slice(-4),
    shops: world.api_keys.filter((k) => !k.revoked).map((k) => ({ shop_id: k.shop_id, api_key: k.key })),
  };
  output.print(
    opts.json
      ? JSON.stringify(info)
      : [
          `paygate cluster process ${node.me} is ready`,
          `  base URL        ${info.base_url}`,
          `  address         ${node.address}  (where the other processes forward to it)`,
          `  store           ${info.store}`,
          `  leases          ${node.ttlMs} ms, hot set ${node.hotSet}${idleUnloadMs !== undefined ? `, idle unload after ${idleUnloadMs} ms` : ''}`,
          `  admin token     …${info.admin_token_last4} (PAYGATE_ADMIN_TOKEN)`,
          `  status          paygate cluster status --base-url ${url}`,
        ].join('\n'),
  );
  await closed;
}
