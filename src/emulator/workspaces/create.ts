// A new workspace's record (src/emulator/workspaces/types.ts) from a `workspaces.create` request: its fixtures (the
// server's, or a named file of the server's fixtures folder or of the bundled ones), a new API key per shop and a
// new admin token — the plaintexts returned once, only their hashes kept — its clock and its limits.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAX_POOL_SLOTS_PER_SHOP } from '../../contract/sandbox.js';
import { DEFAULT_WORKSPACE_OPERATIONS, type CreateWorkspaceRequest } from '../../contract/workspaces.js';
import type { ApiKeyRecord } from '../../store/state.js';
import { DEFAULT_FIXTURES, parseWorld } from '../../world/load.js';
import { ApiError } from '../http/errors.js';
import { echo } from '../../contract/echo.js';
import { hashApiKey } from '../runtime/seed.js';
import { sha256 } from './registry.js';
import type { WorkspaceRecord } from './types.js';

/** The server's own fixtures: the file it started with, or the world it was given. */
export interface FixtureSource {
  fixtures: string | undefined;
  world: unknown;
}

type RawKey = { id?: unknown; shop_id?: unknown; revoked?: unknown; label?: unknown; scopes?: unknown };

function readJson(path: string, name: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch (e) {
    throw new ApiError('validation_error', `fixtures: ${name} is not valid JSON (${(e as Error).message})`);
  }
  throw new ApiError('validation_error', `fixtures: ${name} must hold a JSON object`);
}

/** The fixture JSON a workspace is made from, and its name. */
export function fixtureJson(
  name: string | undefined,
  source: FixtureSource,
): { raw: Record<string, unknown>; name: string } {
  if (name === undefined) {
    if (source.world !== undefined)
      return { raw: structuredClone(source.world) as Record<string, unknown>, name: 'server' };
    return { raw: readJson(source.fixtures ?? DEFAULT_FIXTURES, 'the server fixtures'), name: 'server' };
  }
  const dirs = [...new Set([...(source.fixtures ? [dirname(source.fixtures)] : []), dirname(DEFAULT_FIXTURES)])];
  for (const dir of dirs) {
    for (const file of [name, `${name}.json`]) {
      const path = join(dir, file);
      if (existsSync(path)) return { raw: readJson(path, name), name: file };
    }
  }
  throw new ApiError(
    'fixtures_not_found',
    `no fixture file ${echo(name)} in ${dirs.join(' or ')}; name a .json file of one of those folders`,
  );
}

/** A new API key for each shop of `raw`, keeping the id, label and scopes of the shop's first live fixture key. */
function newKeys(raw: Record<string, unknown>, at: string): { records: ApiKeyRecord[]; plain: Record<string, string> } {
  const shops = (raw.shops as { id: string }[] | undefined) ?? [];
  const defs = ((raw.api_keys as RawKey[] | undefined) ?? []).filter((k) => k.revoked !== true);
  const records: ApiKeyRecord[] = [];
  const plain: Record<string, string> = {};
  for (const shop of shops) {
    const def = defs.find((k) => k.shop_id === shop.id);
    const token = `pg_test_${randomBytes(18).toString('base64url')}`;
    plain[shop.id] = token;
    records.push({
      id: typeof def?.id === 'string' ? def.id : `key_${shop.id}`,
      shop_id: shop.id,
      hash: hashApiKey(token),
      last4: token.slice(-4),
      revoked: false,
      created_at: at,
      label: typeof def?.label === 'string' ? def.label : 'workspace key',
      ...(Array.isArray(def?.scopes) ? { scopes: def.scopes as ApiKeyRecord['scopes'] } : {}),
    });
  }
  return { records, plain };
}

export function newWorkspaceRecord(
  id: string,
  request: CreateWorkspaceRequest,
  source: FixtureSource,
  now: number,
): { record: WorkspaceRecord; adminToken: string; keys: Record<string, string> } {
  const { raw, name } = fixtureJson(request.fixtures, source);
  const world = { ...raw, api_keys: [] };
  try {
    parseWorld(world, name);
  } catch (e) {
    throw new ApiError('validation_error', `fixtures: ${(e as Error).message}`);
  }
  const start = request.start_time !== undefined ? Date.parse(request.start_time) : now;
  const { records, plain } = newKeys(raw, new Date(start).toISOString());
  const adminToken = `pg_admin_${randomBytes(12).toString('hex')}`;
  const record: WorkspaceRecord = {
    id,
    created_at: new Date(now).toISOString(),
    world,
    fixtures: name,
    clock: request.clock ?? 'real',
    start,
    admin: { hash: sha256(adminToken), last4: adminToken.slice(-4) },
    keys: records,
    limits: {
      operations: request.limits?.operations ?? DEFAULT_WORKSPACE_OPERATIONS,
      pool_payouts: request.limits?.pool_payouts ?? MAX_POOL_SLOTS_PER_SHOP,
    },
  };
  return { record, adminToken, keys: plain };
}
