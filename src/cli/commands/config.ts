// `paygate config set | get | list | use`: profiles in the config file; API keys and admin tokens are only ever
// shown masked.
import {
  CONFIG_KEYS,
  SECRET_CONFIG_KEYS,
  activeProfile,
  configPath,
  parseConfigKey,
  readConfig,
  validateBaseUrl,
  writeConfig,
  type GlobalOptions,
  type Profile,
} from '../config.js';
import { UsageError } from '../errors.js';
import { maskKey } from '../mask.js';
import { out } from '../colors.js';
import { dim, keyValue, note, print, printJson, table } from '../render.js';

type Opts = GlobalOptions & Record<string, unknown>;

function shown(profile: Profile | undefined): { 'base-url': string | null; 'api-key': string | null; 'admin-token': string | null } {
  return {
    'base-url': profile?.base_url ?? null,
    'api-key': profile?.api_key ? maskKey(profile.api_key) : null,
    'admin-token': profile?.admin_token ? maskKey(profile.admin_token) : null,
  };
}

export async function configSet(key: string, value: string, opts: Opts): Promise<void> {
  const k = parseConfigKey(key);
  const path = configPath();
  const config = readConfig(path);
  const { name } = activeProfile(opts, config);
  const v = k === 'base-url' ? validateBaseUrl(value, 'base-url') : value;
  if (v === '') throw new UsageError(`${key} must not be empty`);
  const profile = { ...(config.profiles[name] ?? {}), [CONFIG_KEYS[k]]: v };
  writeConfig(path, { ...config, profiles: { ...config.profiles, [name]: profile } });
  note(`${key} of profile "${name}" set to ${SECRET_CONFIG_KEYS.has(k) ? maskKey(v) : v} (${path})`);
}

export async function configGet(key: string, opts: Opts): Promise<void> {
  const k = parseConfigKey(key);
  const path = configPath();
  const config = readConfig(path);
  const { name } = activeProfile(opts, config);
  const value = shown(config.profiles[name])[k];
  if (opts.json) {
    printJson({ profile: name, key: k, value });
    return;
  }
  if (value === null) throw new UsageError(`${key} is not set in profile "${name}"`, `set it with \`paygate config set ${key} <value>\``);
  print(value);
}

export async function configList(opts: Opts): Promise<void> {
  const path = configPath();
  const config = readConfig(path);
  const { name: active } = activeProfile(opts, config);
  const names = Object.keys(config.profiles).sort();
  if (opts.json) {
    printJson({
      path,
      current_profile: config.current_profile ?? null,
      active_profile: active,
      profiles: Object.fromEntries(names.map((n) => [n, shown(config.profiles[n])])),
    });
    return;
  }
  print(keyValue([
    ['config file', path],
    ['active profile', active],
  ]));
  if (names.length === 0) {
    print(`\n${out.dim('no profiles yet: `paygate config set api-key <key>`')}`);
    return;
  }
  print('');
  print(
    table(
      ['', 'profile', 'base-url', 'api-key', 'admin-token'],
      names.map((n) => {
        const s = shown(config.profiles[n]);
        return [n === active ? '*' : '', n, s['base-url'] ?? dim('-'), s['api-key'] ?? dim('-'), s['admin-token'] ?? dim('-')];
      }),
    ),
  );
}

export async function configUse(profile: string): Promise<void> {
  const path = configPath();
  const config = readConfig(path);
  if (!config.profiles[profile]) {
    throw new UsageError(`profile "${profile}" is not defined in ${path}`, `create it with \`paygate config set api-key <key> --profile ${profile}\``);
  }
  writeConfig(path, { ...config, current_profile: profile });
  note(`current profile is now "${profile}"`);
}
