// Joins a command's definition to its run function: commander's values become the command's typed options once,
// then the run module and the process dependencies (client, output) are imported, only when the command runs.
// Loaded for `--help`, so it imports nothing at run time but commander's types.
import type { Command, OptionValues } from 'commander';
import type { GlobalOptions } from './config.js';
import type { CommandDeps } from './deps.js';

/** What a command's options are read from: its positional arguments, its own options, the global ones. */
export interface Parsed {
  /** The positional arguments, after their parsers (e.g. `parseDuration`). */
  args: readonly unknown[];
  /**
   * The command's options merged with its parents' (commander's `optsWithGlobals()`): an option a parent declares
   * too is parsed by the parent (`paygate sandbox time advance 1s --json`: `time` has --json), so it is read here.
   */
  opts: OptionValues;
  globals: GlobalOptions;
}

/** A command: a plain function of its typed options and its dependencies. Throws typed errors, never exits. */
export type Run<O> = (options: O, deps: CommandDeps) => Promise<void>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `--base-url`, `--api-key`, `--admin-token` and `--profile`, from any command's merged options. */
export function globalOptions(all: OptionValues): GlobalOptions {
  const globals: GlobalOptions = {};
  const baseUrl = str(all.baseUrl);
  const apiKey = str(all.apiKey);
  const adminToken = str(all.adminToken);
  const profile = str(all.profile);
  if (baseUrl !== undefined) globals.baseUrl = baseUrl;
  if (apiKey !== undefined) globals.apiKey = apiKey;
  if (adminToken !== undefined) globals.adminToken = adminToken;
  if (profile !== undefined) globals.profile = profile;
  return globals;
}

/**
 * A commander action: `toOptions` reads the typed options (it only converts, never validates: the run function
 * checks, in its own order), then `load` imports the run function, which gets the process's dependencies.
 */
export function action<O>(toOptions: (parsed: Parsed) => O, load: () => Promise<Run<O>>) {
  return async (...received: unknown[]): Promise<void> => {
    const cmd = received[received.length - 1] as Command;
    const opts = cmd.optsWithGlobals();
    const globals = globalOptions(opts);
    const options = toOptions({ args: received.slice(0, -2), opts, globals });
    const run = await load();
    const { processDeps } = await import('./deps.js');
    await run(options, processDeps(globals));
  };
}
