// What the command definitions share: `action`, which joins a definition to its run function (commander's values
// become the command's typed options once; the run module and the process's dependencies are imported only when the
// command runs), help-text helpers, flag value parsers and typed readers of option values. Loaded for `--help`: it
// imports commander and nothing else at run time.
import { InvalidArgumentError, type Command, type OptionValues } from 'commander';
import type { GlobalOptions } from '../config.js';
import type { CommandDeps } from '../deps.js';
import type { RefOptions } from '../operation-ref.js';

/** A string value, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A number value (from a parser such as parseIntIn), else undefined. */
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** A boolean flag: true only when given. */
export const flag = (v: unknown): boolean => v === true;

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

/** `--base-url`, `--api-key`, `--admin-token`, `--profile` and `--ca`, from any command's merged options. */
export function globalOptions(all: OptionValues): GlobalOptions {
  const globals: GlobalOptions = {};
  const baseUrl = str(all.baseUrl);
  const apiKey = str(all.apiKey);
  const adminToken = str(all.adminToken);
  const profile = str(all.profile);
  const ca = str(all.ca);
  if (baseUrl !== undefined) globals.baseUrl = baseUrl;
  if (apiKey !== undefined) globals.apiKey = apiKey;
  if (adminToken !== undefined) globals.adminToken = adminToken;
  if (profile !== undefined) globals.profile = profile;
  if (ca !== undefined) globals.ca = ca;
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
    const [run, { processDeps }] = await Promise.all([load(), import('../deps.js')]);
    await run(options, processDeps(globals));
  };
}

export const example = (lines: string): string => `\nExamples:\n${lines.replace(/^\n/, '')}`;

export const JSON_HELP = 'print exactly the response body as JSON';

/** Appended to the description of an option the command cannot do without (asked for on a terminal). */
export const REQUIRED = ' (required)';

/** Help text of the commands that need the sandbox's admin token. */
const ADMIN_NOTE = `
Needs the sandbox admin token: --admin-token, PAYGATE_ADMIN_TOKEN or the profile key admin-token
(\`paygate config set admin-token <token>\`). \`paygate sandbox start\` prints it; set PAYGATE_ADMIN_TOKEN when
starting the sandbox to fix it.`;
export const adminExample = (lines: string): string => `${ADMIN_NOTE}\n${example(lines)}`;

/** A command whose only flag is --json. */
export interface JsonOptions {
  /** Print the data as JSON. Default false. */
  json: boolean;
}

export const jsonOptions = ({ opts }: Parsed): JsonOptions => ({ json: flag(opts.json) });

/** An operation named by <operation_id> or --merchant-operation-id, and --json. */
export interface OperationOptions extends RefOptions {
  json: boolean;
}

export const operationOptions = ({ args, opts }: Parsed): OperationOptions => ({
  operationId: str(args[0]),
  merchantOperationId: str(opts.merchantOperationId),
  json: flag(opts.json),
});

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535)
    throw new InvalidArgumentError('must be an integer from 0 to 65535 (0 picks a free port)');
  return n;
}

/** An integer, negative allowed (`--seed`). */
export function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('must be an integer');
  return Number(value);
}

export function parseIntIn(min: number, max: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be ${what}`);
    return n;
  };
}

/** Repeatable option: every occurrence, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
