// The registry's limit is the server's setting (`sandbox start --max-workspaces`, SandboxOptions.maxWorkspaces;
// default 64): past it, `workspace create` is 409 workspace_limit, and one deleted makes room again.
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { admin, createWs } from './helpers.js';

const ADMIN = 'pg_admin_ws_max_0123456789';

describe('workspaces: the limit is configurable', () => {
  const h = useSandbox({ transport: 'in-process', adminToken: ADMIN, maxWorkspaces: 2 });

  it('a server started with maxWorkspaces 2 holds two workspaces; the third is 409 workspace_limit', async () => {
    await createWs(h, ADMIN, { id: 'one' });
    await createWs(h, ADMIN, { id: 'two' });
    const r = await admin(h, ADMIN, 'POST', '/sandbox/workspaces', { id: 'three' });
    expect([r.status, r.body.code]).toEqual([409, 'workspace_limit']);
    expect(r.body.message).toContain('holds 2 workspaces');
    expect((await admin(h, ADMIN, 'DELETE', '/sandbox/workspaces/one')).status).toBe(200);
    await createWs(h, ADMIN, { id: 'three' });
  });
});
