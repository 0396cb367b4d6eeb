// `paygate workspace create | list | delete` (flags: define.ts): the server's workspaces (its admin token).
// `create` prints the workspace's keys and admin token, the only time they are shown.
import type { CreatedWorkspace, WorkspaceInfo } from '../../../contract/workspaces.js';
import type { CreateWorkspaceOptions, DeleteWorkspaceOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { show } from '../../output.js';
import { keyValue, table } from '../../render.js';
import { out } from '../../colors.js';

const ADMIN = { needKey: false, needAdminToken: true } as const;

function createdView(w: CreatedWorkspace): string {
  return [
    out.green(`workspace ${w.id} created`) + out.dim(' — its keys and admin token are shown this once'),
    '',
    keyValue([
      ['base_url', w.base_url],
      ['admin_token', w.admin_token],
      ['clock', w.clock.frozen ? `frozen at ${w.clock.now}` : 'follows real time'],
      ['limits', `${w.limits.operations} operations, ${w.limits.pool_payouts} pool payouts per shop`],
    ]),
    '',
    table(
      ['shop', 'api key'],
      Object.entries(w.keys).map(([shop, key]) => [shop, key]),
    ),
    '',
    out.dim(
      `  try: PAYGATE_BASE_URL=${w.base_url} PAYGATE_API_KEY=${Object.values(w.keys)[0] ?? '<key>'} paygate balances`,
    ),
  ].join('\n');
}

function listView(list: { workspaces: WorkspaceInfo[] }): string {
  if (list.workspaces.length === 0)
    return 'no workspaces besides the default one (create one with paygate workspace create)';
  return table(
    ['id', 'base_url', 'clock', 'operations', 'admin token', 'created_at'],
    list.workspaces.map((w) => [
      w.id,
      w.base_url,
      w.clock.frozen ? `frozen ${w.clock.now}` : 'real',
      `${w.operations}/${w.limits.operations}`,
      `…${w.admin_token_last4}`,
      w.created_at,
    ]),
  );
}

export async function createWorkspace(o: CreateWorkspaceOptions, deps: CommandDeps): Promise<void> {
  if (o.startTime !== undefined && Number.isNaN(Date.parse(o.startTime)))
    throw new UsageError(
      `--start-time "${o.startTime}" is not a time`,
      'give an RFC 3339 timestamp, e.g. 2026-03-01T12:00:00Z',
    );
  const { client } = await deps.connect(ADMIN);
  const limits = {
    ...(o.maxOperations !== undefined ? { operations: o.maxOperations } : {}),
    ...(o.maxPoolPayouts !== undefined ? { pool_payouts: o.maxPoolPayouts } : {}),
  };
  const body = {
    ...(o.id !== undefined ? { id: o.id } : {}),
    ...(o.fixtures !== undefined ? { fixtures: o.fixtures } : {}),
    clock: o.frozenClock ? ('frozen' as const) : ('real' as const),
    ...(o.startTime !== undefined ? { start_time: o.startTime } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  };
  await show(
    deps.output,
    o.json,
    'Creating a workspace…',
    () => client.request('workspaces.create', { body }),
    createdView,
  );
}

export async function listWorkspaces({ json }: { json: boolean }, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect(ADMIN);
  await show(deps.output, json, 'Listing workspaces…', () => client.request('workspaces.list', {}), listView);
}

export async function deleteWorkspace({ id, json }: DeleteWorkspaceOptions, deps: CommandDeps): Promise<void> {
  const { client } = await deps.connect(ADMIN);
  await show(
    deps.output,
    json,
    `Deleting workspace ${id}…`,
    () => client.request('workspaces.delete', { params: { id } }),
    (r) => `${out.green(`workspace ${r.id} deleted`)}: its data is gone, its keys and admin token no longer work`,
  );
}
