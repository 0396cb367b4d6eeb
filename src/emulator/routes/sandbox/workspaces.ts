// The workspaces of the server (the server's admin token): create, list, delete (src/emulator/workspaces/host.ts).
// A workspace's own admin token reaches its own app, which has no workspaces to manage: 403 workspace_forbidden.
import { ApiError } from '../../http/errors.js';
import type { WorkspaceControl } from '../../workspaces/types.js';
import type { AnyCall, ControlHandler } from '../types.js';

function host(call: AnyCall): WorkspaceControl {
  const w = call.ctx.workspaces;
  if (!w)
    throw new ApiError(
      'workspace_forbidden',
      "a workspace's admin token cannot manage workspaces: use the server's admin token (printed by paygate sandbox start)",
    );
  return w;
}

export const create: ControlHandler<'workspaces.create'> = async (call) => {
  const control = host(call);
  return control.create(await call.body());
};

export const list: ControlHandler<'workspaces.list'> = (call) => ({ workspaces: host(call).list() });

export const remove: ControlHandler<'workspaces.delete'> = async (call) => {
  const id = call.param('id');
  await host(call).remove(id);
  return { id, deleted: true as const };
};
