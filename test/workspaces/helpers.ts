// Workspaces under test: create one on a sandbox (the server's admin token) and call it with its own credentials.
import { expect } from 'vitest';
import type { CallResult, Harness } from '../helpers/harness.js';

export interface Ws {
  id: string;
  adminToken: string;
  keys: Record<string, string>;
  baseUrl: string;
  body: Record<string, unknown>;
}

export async function createWs(
  h: Pick<Harness, 'call'>,
  serverAdmin: string,
  body: Record<string, unknown> = {},
): Promise<Ws> {
  const r = await h.call('POST', '/sandbox/workspaces', {
    key: null,
    headers: { 'x-admin-token': serverAdmin },
    body: { clock: 'frozen', ...body },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.id, adminToken: r.body.admin_token, keys: r.body.keys, baseUrl: r.body.base_url, body: r.body };
}

/** An admin call (the token given), no API key. */
export function admin(
  h: Pick<Harness, 'call'>,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<CallResult> {
  return h.call(method, path, {
    key: null,
    headers: { 'x-admin-token': token },
    ...(body !== undefined ? { body } : {}),
  });
}
