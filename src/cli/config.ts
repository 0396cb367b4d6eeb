// The CLI's config file (profiles of base URL, API key and sandbox admin token) and the flag > env > profile >
// default resolution.
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './errors.js';
import { maskKey } from './mask.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4080';
export const DEFAULT_PROFILE = 'default';

/** The keys `paygate config set/get` accept, and the profile field each one is stored in. */
export const CONFIG_KEYS = { 'base-url': 'base_url', 'api-key': 'api_key', 'admin-token': 'admin_token' } as const;
export type ConfigKey = keyof typeof CONFIG_KEYS;

export interface Profile {
  base_url?: string;
  api_key?: string;
  /** The sandbox's admin token (X-Admin-Token), for the cross-shop controls. */
  admin_token?: string;
}

/** Config keys whose values are secrets: only ever shown masked. */
export const SECRET_CONFIG_KEYS: ReadonlySet<ConfigKey> = new Set<ConfigKey>(['api-key', 'admin-token']);

export interface ConfigFile {
  /** The profile used when neither --profile nor PAYGATE_PROFILE names one (`paygate config use`). */
  current_profile?: string;
  profiles: Record<string, Profile>;
}

type Env = Record<string, string | undefined>;

/** `$PAYGATE_CONFIG`, else `$XDG_CONFIG_HOME/paygate/config.json`, else `~/.config/paygate/config.json`. */
export function configPath(env: Env = process.env): string {
  if (env.PAYGATE_CONFIG) return env.PAYGATE_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'paygate', 'config.json');
}

export function readConfig(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new UsageError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`config file ${path} is not valid JSON`, 'fix or delete it, then use `paygate config set`');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`config file ${path} must hold a JSON object`);
  }
  const obj = parsed as { current_profile?: unknown; profiles?: unknown };
  const profiles: Record<string, Profile> = {};
  if (obj.profiles && typeof obj.profiles === 'object') {
    for (const [name, p] of Object.entries(obj.profiles as Record<string, unknown>)) {
      if (!p || typeof p !== 'object') continue;
      const { base_url, api_key, admin_token } = p as Record<string, unknown>;
      profiles[name] = {
        ...(typeof base_url === 'string' ? { base_url } : {}),
        ...(typeof api_key === 'string' ? { api_key } : {}),
        ...(typeof admin_token === 'string' ? { admin_token } : {}),
      };
    }
  }
  return { ...(typeof obj.current_profile === 'string' ? { current_profile: obj.current_profile } : {}), profiles };
}

/**
 * Write the profile file through lowdb's file adapter (steno: the whole document to `.<name>.tmp` beside it, then a
 * rename, so a reader sees the old file or the new one), loaded only here: reading stays a plain `readFileSync`, so
 * an API command never loads lowdb. Mode 0600 in a 0700 directory: the temp file steno writes into is created 0600
 * first (writing into an existing file keeps its mode), so the secrets are never world-readable, not even briefly.
 */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  const [{ Low }, { DataFile }] = await Promise.all([import('lowdb'), import('lowdb/node')]);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = join(dirname(path), `.${basename(path)}.tmp`);
  closeSync(openSync(tmp, 'w', 0o600));
  chmodSync(tmp, 0o600);
  const db = new Low<ConfigFile>(
    new DataFile<ConfigFile>(path, {
      parse: (text) => JSON.parse(text) as ConfigFile,
      stringify: (c) => `${JSON.stringify(c, null, 2)}\n`,
    }),
    config,
  );
  await db.write();
  chmodSync(path, 0o600);
}

export function parseConfigKey(key: string): ConfigKey {
  if (key in CONFIG_KEYS) return key as ConfigKey;
  throw new UsageError(`unknown config key "${key}"`, `known keys: ${Object.keys(CONFIG_KEYS).join(', ')}`);
}

export function validateBaseUrl(value: string, label: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${label} "${value}" is not a URL`, 'use e.g. http://127.0.0.1:4080');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${label} "${value}" must be an http or https URL`);
  }
  return value.replace(/\/+$/, '');
}

/** The global options every command sees (commander's optsWithGlobals()). */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  adminToken?: string;
  profile?: string;
  /** File of PEM certificate(s) the client trusts besides Node's roots (--ca). */
  ca?: string;
}

export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface Connection {
  baseUrl: string;
  baseUrlSource: Source;
  apiKey: string | undefined;
  apiKeySource: Source | undefined;
  adminToken: string | undefined;
  adminTokenSource: Source | undefined;
  profile: string;
  configPath: string;
  /** File of extra trusted certificates: --ca, else PAYGATE_CA; undefined when neither is set. */
  ca: { path: string; from: '--ca' | 'PAYGATE_CA' } | undefined;
}

/** Which profile applies: --profile, then PAYGATE_PROFILE, then the config's current profile, then "default". */
export function activeProfile(
  globals: GlobalOptions,
  config: ConfigFile,
  env: Env = process.env,
): { name: string; explicit: boolean } {
  if (globals.profile) return { name: globals.profile, explicit: true };
  if (env.PAYGATE_PROFILE) return { name: env.PAYGATE_PROFILE, explicit: true };
  return { name: config.current_profile ?? DEFAULT_PROFILE, explicit: false };
}

let last: Connection | undefined;
/** The connection the running command resolved last (for error hints), if any. */
export function lastConnection(): Connection | undefined {
  return last;
}

/** Resolve base URL, API key and admin token with precedence flag > env > profile > default; --ca > PAYGATE_CA. */
export function resolveConnection(globals: GlobalOptions, env: Env = process.env): Connection {
  const path = configPath(env);
  const config = readConfig(path);
  const { name, explicit } = activeProfile(globals, config, env);
  const profile = config.profiles[name];
  if (explicit && !profile && !(globals.baseUrl && (globals.apiKey || globals.adminToken))) {
    throw new UsageError(
      `profile "${name}" is not defined in ${path}`,
      `create it with \`paygate config set api-key <key> --profile ${name}\``,
    );
  }
  let baseUrl = DEFAULT_BASE_URL;
  let baseUrlSource: Source = 'default';
  if (globals.baseUrl) [baseUrl, baseUrlSource] = [globals.baseUrl, 'flag'];
  else if (env.PAYGATE_BASE_URL) [baseUrl, baseUrlSource] = [env.PAYGATE_BASE_URL, 'env'];
  else if (profile?.base_url) [baseUrl, baseUrlSource] = [profile.base_url, 'profile'];
  let apiKey: string | undefined;
  let apiKeySource: Source | undefined;
  if (globals.apiKey) [apiKey, apiKeySource] = [globals.apiKey, 'flag'];
  else if (env.PAYGATE_API_KEY) [apiKey, apiKeySource] = [env.PAYGATE_API_KEY, 'env'];
  else if (profile?.api_key) [apiKey, apiKeySource] = [profile.api_key, 'profile'];
  let adminToken: string | undefined;
  let adminTokenSource: Source | undefined;
  if (globals.adminToken) [adminToken, adminTokenSource] = [globals.adminToken, 'flag'];
  else if (env.PAYGATE_ADMIN_TOKEN) [adminToken, adminTokenSource] = [env.PAYGATE_ADMIN_TOKEN, 'env'];
  else if (profile?.admin_token) [adminToken, adminTokenSource] = [profile.admin_token, 'profile'];
  const label = {
    flag: '--base-url',
    env: 'PAYGATE_BASE_URL',
    profile: `base-url of profile "${name}"`,
    default: 'default base URL',
  }[baseUrlSource];
  last = {
    baseUrl: validateBaseUrl(baseUrl, label),
    baseUrlSource,
    apiKey,
    apiKeySource,
    adminToken,
    adminTokenSource,
    profile: name,
    configPath: path,
    ca: globals.ca
      ? { path: globals.ca, from: '--ca' }
      : env.PAYGATE_CA
        ? { path: env.PAYGATE_CA, from: 'PAYGATE_CA' }
        : undefined,
  };
  return last;
}

/** Where a key came from, for messages: `API key ****Nc8V from PAYGATE_API_KEY`. Never the key itself. */
export function describeKey(conn: Connection): string {
  if (!conn.apiKey) return 'no API key';
  const from = { flag: '--api-key', env: 'PAYGATE_API_KEY', profile: `profile "${conn.profile}"`, default: 'default' }[
    conn.apiKeySource ?? 'default'
  ];
  return `API key ${maskKey(conn.apiKey)} from ${from}`;
}

/** Where the admin token came from: `admin token ****cli1 from --admin-token`. Never the token itself. */
export function describeAdminToken(conn: Connection): string {
  if (!conn.adminToken) return 'no admin token';
  const from = {
    flag: '--admin-token',
    env: 'PAYGATE_ADMIN_TOKEN',
    profile: `profile "${conn.profile}"`,
    default: 'default',
  }[conn.adminTokenSource ?? 'default'];
  return `admin token ${maskKey(conn.adminToken)} from ${from}`;
}
