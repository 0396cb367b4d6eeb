// What `/w/<id>/…` answers for an id no workspace has, so that nobody can tell which workspaces exist without the
// server's admin token (spec §5: the credential is checked before anything else). Every credential is a
// workspace's own, so none is valid in a workspace that does not exist: a route that takes one answers the 401 a
// known workspace gives a credential it does not know (missing or invalid), and every /v1 path does (a known
// workspace answers 401 there for any path without a valid key, app.ts). Only the server's admin token (it lists
// the workspaces anyway) learns `404 workspace_not_found`; so do the routes that take no credential (probes, pages,
// files: their URLs are handed out by the workspace).
import { sandboxControls } from '../../contract/controls.js';
import { endpoints } from '../../contract/endpoints.js';
import { type Credential, type EndpointRow } from '../../contract/endpoint-row.js';
import { credentialError } from '../http/auth.js';
import { ApiError, errorResponse } from '../http/errors.js';
import { echo } from '../../contract/echo.js';

const ROWS: readonly EndpointRow[] = [...Object.values(endpoints), ...Object.values(sandboxControls)] as EndpointRow[];

function matches(template: string, path: string): boolean {
  const t = template.split('/');
  const p = path.split('/');
  return t.length === p.length && t.every((seg, i) => (seg.startsWith(':') ? p[i] !== '' : seg === p[i]));
}

/** The credential the route at `method path` takes (any path under /v1: a key), or undefined (none, or no route). */
function credentialFor(method: string, path: string): Credential | undefined {
  const row = ROWS.find((r) => r.method === method && matches(r.path, path));
  if (row) return row.auth;
  return path === '/v1' || path.startsWith('/v1/') ? 'key' : undefined;
}

/** The answer to `request` (its path `inner`, the prefix stripped) for workspace `id`, which does not exist. */
export function unknownWorkspace(request: Request, inner: string, id: string, serverAdmin: boolean): Response {
  const notFound = () =>
    errorResponse(
      new ApiError(
        'workspace_not_found',
        `no workspace ${echo(id)} on this server; list them with paygate workspace list`,
      ),
    );
  if (serverAdmin) return notFound();
  const path = inner.slice(inner.indexOf('/', inner.indexOf('//') + 2)).split(/[?#]/)[0]!;
  let credential = credentialFor(request.method, path);
  if (credential === undefined || credential === 'none') return notFound();
  const admin = request.headers.get('x-admin-token');
  if (credential === 'support') credential = admin ? 'admin' : 'key';
  if (credential === 'admin') return errorResponse(credentialError('admin', admin ? 'invalid' : 'missing'));
  return errorResponse(credentialError('key', request.headers.get('x-api-key') ? 'invalid' : 'missing'));
}
