// `paygate config set | get | list | use`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import type { GlobalOptions } from '../../config.js';
import { action, example, flag, type Parsed } from '../shared.js';

const run = () => import('./run.js');

/** The profile a config command acts on: --profile, else PAYGATE_PROFILE, else the current one, else "default". */
export interface ProfileOption {
  /** The global --profile. */
  profile?: string | undefined;
}

export interface ConfigSetOptions extends ProfileOption {
  /** base-url, api-key or admin-token. */
  key: string;
  value: string;
}

export interface ConfigGetOptions extends ProfileOption {
  key: string;
  json: boolean;
  /** The global options given (--base-url, --api-key, …): a flag is the first place a value comes from. */
  globals: GlobalOptions;
}

export interface ConfigListOptions extends ProfileOption {
  json: boolean;
}

export interface ConfigUseOptions {
  /** The profile to make the current one. */
  name: string;
}

const text = (v: unknown): string => String(v);
const setOptions = ({ args, globals }: Parsed): ConfigSetOptions => ({
  key: text(args[0]),
  value: text(args[1]),
  profile: globals.profile,
});
const getOptions = ({ args, opts, globals }: Parsed): ConfigGetOptions => ({
  key: text(args[0]),
  json: flag(opts.json),
  profile: globals.profile,
  globals,
});
const listOptions = ({ opts, globals }: Parsed): ConfigListOptions => ({
  json: flag(opts.json),
  profile: globals.profile,
});
const useOptions = ({ args }: Parsed): ConfigUseOptions => ({ name: text(args[0]) });

/** The subcommands and help text of the `config` group (created, with its description, by program.ts). */
export function defineConfig(configCmd: Command): void {
  configCmd.addHelpText(
    'after',
    `
The config file is $PAYGATE_CONFIG, else $XDG_CONFIG_HOME/paygate/config.json, else ~/.config/paygate/config.json
(mode 0600). Keys: base-url, api-key, admin-token. API keys and admin tokens are always shown masked.
Precedence: --base-url/--api-key/--admin-token > PAYGATE_BASE_URL/PAYGATE_API_KEY/PAYGATE_ADMIN_TOKEN > profile > default.
${example(`
  $ paygate config set api-key pg_test_xxxxxxxxxxxx
  $ paygate config set base-url http://127.0.0.1:4080 --profile staging
  $ paygate config use staging
  $ paygate config list`)}`,
  );

  configCmd
    .command('set')
    .description('set a key of a profile (the --profile one, else the current one)')
    .argument('<key>', 'base-url, api-key or admin-token')
    .argument('<value>', 'the value')
    .addHelpText(
      'after',
      example(`
  $ paygate config set api-key pg_test_xxxxxxxxxxxx
  $ paygate config set admin-token pg_admin_xxxxxxxxxxxx       # printed by \`paygate sandbox start\`
  $ paygate config set base-url http://127.0.0.1:4080 --profile staging`),
    )
    .action(action(setOptions, async () => (await run()).configSet));

  configCmd
    .command('get')
    .description(
      'print the value a key has for commands, and (on stderr) where it comes from: flag, env, profile or default',
    )
    .argument('<key>', 'base-url, api-key or admin-token')
    .option('--json', 'print {"profile","key","value","source","origin"} as JSON')
    .addHelpText(
      'after',
      example(`
  $ paygate config get base-url                   # http://127.0.0.1:4080, and "from default" on stderr
  $ paygate config get api-key --profile staging  # masked`),
    )
    .action(action(getOptions, async () => (await run()).configGet));

  configCmd
    .command('list')
    .description('list every profile and its keys (api-key and admin-token masked)')
    .option('--json', 'print the profiles as JSON (api-key and admin-token masked)')
    .addHelpText(
      'after',
      example(`
  $ paygate config list`),
    )
    .action(action(listOptions, async () => (await run()).configList));

  configCmd
    .command('use')
    .description('make a profile the current one (used when neither --profile nor PAYGATE_PROFILE is set)')
    .argument('<profile>', 'profile name')
    .addHelpText(
      'after',
      example(`
  $ paygate config use staging`),
    )
    .action(action(useOptions, async () => (await run()).configUse));
}
