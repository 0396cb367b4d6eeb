// `paygate config set | get | list | use` (flags: define.ts): profiles in the config file; API keys and admin
// tokens are only ever shown masked.
import {
  CONFIG_KEYS,
  DEFAULT_BASE_URL,
  SECRET_CONFIG_KEYS,
  activeProfile,
  configPath,
  parseConfigKey,
  readConfig,
  validateBaseUrl,
  writeConfig,
  type ConfigKey,
  type GlobalOptions,
  type Profile,
  type Source,
} from '../../config.js';
import type { ConfigGetOptions, ConfigListOptions, ConfigSetOptions, ConfigUseOptions } from './define.js';
import type { CommandDeps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { maskKey } from '../../mask.js';
import { out } from '../../colors.js';
import { dim, keyValue, table } from '../../render.js';

function shown(profile: Profile | undefined): {
  'base-url': string | null;
  'api-key': string | null;
  'admin-token': string | null;
} {
  return {
    'base-url': profile?.base_url ?? null,
    'api-key': profile?.api_key ? maskKey(profile.api_key) : null,
    'admin-token': profile?.admin_token ? maskKey(profile.admin_token) : null,
  };
}

export async function configSet({ key, value, profile }: ConfigSetOptions, deps: CommandDeps): Promise<void> {
  const k = parseConfigKey(key);
  const path = configPath();
  const config = readConfig(path);
  const { name } = activeProfile({ profile }, config);
  const v = k === 'base-url' ? validateBaseUrl(value, 'base-url') : value;
  if (v === '') throw new UsageError(`${key} must not be empty`);
  const updated = { ...(config.profiles[name] ?? {}), [CONFIG_KEYS[k]]: v };
  await writeConfig(path, { ...config, profiles: { ...config.profiles, [name]: updated } });
  deps.output.note(`${key} of profile "${name}" set to ${SECRET_CONFIG_KEYS.has(k) ? maskKey(v) : v} (${path})`);
}

/** Where a key's value comes from, first match wins: its flag, its PAYGATE_ variable, the profile, the default. */
function effective(
  k: ConfigKey,
  globals: GlobalOptions,
  profile: Profile | undefined,
  name: string,
): { value: string; source: Source; origin: string } | undefined {
  const flagValue = (globals as Record<string, unknown>)[k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())];
  if (typeof flagValue === 'string' && flagValue !== '') return { value: flagValue, source: 'flag', origin: `--${k}` };
  const envName = `PAYGATE_${k.toUpperCase().replace(/-/g, '_')}`;
  const envValue = process.env[envName];
  if (envValue) return { value: envValue, source: 'env', origin: envName };
  const stored = profile?.[CONFIG_KEYS[k]];
  if (stored) return { value: stored, source: 'profile', origin: `profile "${name}"` };
  if (k === 'base-url') return { value: DEFAULT_BASE_URL, source: 'default', origin: 'default' };
  return undefined;
}

export async function configGet({ key, json, profile, globals }: ConfigGetOptions, deps: CommandDeps): Promise<void> {
  const k = parseConfigKey(key);
  const path = configPath();
  const config = readConfig(path);
  const { name } = activeProfile({ profile }, config);
  const found = effective(k, globals, config.profiles[name], name);
  const value = found && (SECRET_CONFIG_KEYS.has(k) ? maskKey(found.value) : found.value.replace(/\/+$/, ''));
  if (json) {
    deps.output.json({
      profile: name,
      key: k,
      value: value ?? null,
      source: found?.source ?? null,
      origin: found?.origin ?? null,
    });
    return;
  }
  if (!found) {
    throw new UsageError(
      `${key} is not set: not by --${key}, PAYGATE_${k.toUpperCase().replace(/-/g, '_')} or profile "${name}"`,
      `set it with \`paygate config set ${key} <value>\``,
    );
  }
  deps.output.print(value!);
  deps.output.note(found.source === 'default' ? 'from default' : `from ${found.origin}`);
}

export async function configList({ json, profile }: ConfigListOptions, deps: CommandDeps): Promise<void> {
  const path = configPath();
  const config = readConfig(path);
  const { name: active } = activeProfile({ profile }, config);
  const names = Object.keys(config.profiles).sort();
  if (json) {
    deps.output.json({
      path,
      current_profile: config.current_profile ?? null,
      active_profile: active,
      profiles: Object.fromEntries(names.map((n) => [n, shown(config.profiles[n])])),
    });
    return;
  }
  deps.output.print(
    keyValue([
      ['config file', path],
      ['active profile', active],
    ]),
  );
  if (names.length === 0) {
    deps.output.print(`\n${out.dim('no profiles yet: `paygate config set api-key <key>`')}`);
    return;
  }
  deps.output.print('');
  deps.output.print(
    table(
      ['', 'profile', 'base-url', 'api-key', 'admin-token'],
      names.map((n) => {
        const s = shown(config.profiles[n]);
        return [
          n === active ? '*' : '',
          n,
          s['base-url'] ?? dim('-'),
          s['api-key'] ?? dim('-'),
          s['admin-token'] ?? dim('-'),
        ];
      }),
    ),
  );
}

export async function configUse({ name: profile }: ConfigUseOptions, deps: CommandDeps): Promise<void> {
  const path = configPath();
  const config = readConfig(path);
  if (!config.profiles[profile]) {
    throw new UsageError(
      `profile "${profile}" is not defined in ${path}`,
      `create it with \`paygate config set api-key <key> --profile ${profile}\``,
    );
  }
  await writeConfig(path, { ...config, current_profile: profile });
  deps.output.note(`current profile is now "${profile}"`);
}
