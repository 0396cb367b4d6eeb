// `paygate scenario list|run|new|validate`: flags, help and typed options (run: run.ts and
// run-files.ts). Scenario files are described in docs/scenarios.md.
import { InvalidArgumentError, type Command } from 'commander';
import { action, collect, example, flag, num, parseInteger, parseIntIn, str, type Parsed } from '../shared.js';

const run = () => import('./run.js');

export const REPORTERS = ['terminal', 'json', 'junit'] as const;
export type ReporterName = (typeof REPORTERS)[number];

export interface ScenarioPathsOptions {
  /** Files, directories or globs. Default: scenarios/. */
  paths: string[];
  /** The scenario library that comes with paygate instead of paths. */
  bundled: boolean;
  json: boolean;
}

export interface ScenarioRunOptions {
  paths: string[];
  /** The scenario library that comes with paygate instead of paths. */
  bundled: boolean;
  /** Scenarios at once. Default: the number of cores in process, 1 against --base-url. */
  concurrency: number | undefined;
  grep: string | undefined;
  bail: boolean;
  seed: number | undefined;
  /** Default: terminal. */
  reporters: ReporterName[];
  /** The JUnit XML file (with --reporter junit). */
  output: string | undefined;
  /** shop=key pairs for --base-url runs. */
  keys: string[];
  /** With --base-url: reset the sandbox before each scenario (admin token). Default true. */
  reset: boolean;
  /** The global --base-url flag: run against that sandbox instead of in process. */
  baseUrl: string | undefined;
  globals: Parsed['globals'];
}

export interface ScenarioNewOptions {
  name: string;
  /** Where to write it. Default: scenarios/<name as a file name>.yaml. */
  output: string | undefined;
  force: boolean;
}

const paths = ({ args, opts }: Parsed): ScenarioPathsOptions => ({
  paths: (args[0] as string[] | undefined) ?? [],
  bundled: flag(opts.bundled),
  json: flag(opts.json),
});

function reporterName(value: string, previous: ReporterName[] | undefined): ReporterName[] {
  if (!(REPORTERS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${REPORTERS.join(', ')}`);
  return [...(previous ?? []), value as ReporterName];
}

const runOptions = ({ args, opts, globals }: Parsed): ScenarioRunOptions => ({
  paths: (args[0] as string[] | undefined) ?? [],
  bundled: flag(opts.bundled),
  concurrency: num(opts.concurrency),
  grep: str(opts.grep),
  bail: flag(opts.bail),
  seed: num(opts.seed),
  reporters: (opts.reporter as ReporterName[] | undefined) ?? ['terminal'],
  output: str(opts.output),
  keys: (opts.key as string[] | undefined) ?? [],
  reset: opts.reset !== false,
  baseUrl: globals.baseUrl,
  globals,
});

const newOptions = ({ args, opts }: Parsed): ScenarioNewOptions => ({
  name: String(args[0]),
  output: str(opts.output),
  force: flag(opts.force),
});

const BUNDLED_HELP = 'the scenario library that comes with paygate (node_modules/paygate/scenarios/) instead of paths';

const EXIT_NOTE = `
Exit codes: 0 every scenario passed, 1 a scenario failed, 2 a file is invalid (file:line:column) or the command is
misused, 3 the --base-url cannot be reached. The format: docs/scenarios.md.`;

export function defineScenario(cmd: Command): void {
  cmd.addHelpText(
    'after',
    `${EXIT_NOTE}\n${example(`
  $ paygate scenario run                                  # every scenario under scenarios/, in process
  $ paygate scenario run --bundled --grep payout          # from the library that comes with paygate
  $ paygate scenario run scenarios/payouts 'scenarios/**/*refund*.yaml' --bail
  $ paygate scenario run --reporter terminal --reporter junit --output reports/scenarios.xml
  $ paygate scenario new "refund after a partial payment"`)}`,
  );
  cmd
    .command('list')
    .description('list the scenarios found, with their step counts')
    .argument('[paths...]', 'files, directories or globs (default: scenarios/)')
    .option('--bundled', BUNDLED_HELP)
    .option('--json', 'print one JSON document: { scenarios: [{ file, name, steps, tags }], skipped_files }')
    .action(action(paths, async () => (await run()).list));
  cmd
    .command('validate')
    .description('check the format and references of scenario files; nothing runs')
    .argument('[paths...]', 'files, directories or globs (default: scenarios/)')
    .option('--bundled', BUNDLED_HELP)
    .option('--json', 'print the problems as JSON')
    .action(action(paths, async () => (await run()).validate));
  cmd
    .command('new')
    .description('write a commented starter scenario')
    .argument('<name>', 'what the scenario shows, one line')
    .option('--output <file>', 'where to write it (default: scenarios/<name>.yaml)')
    .option('--force', 'overwrite an existing file')
    .action(action(newOptions, async () => (await run()).create));
  defineRun(cmd);
}

function defineRun(cmd: Command): void {
  cmd
    .command('run')
    .description('run scenarios, each in its own in-process sandbox (or against --base-url), and report')
    .argument('[paths...]', 'files, directories or globs (default: scenarios/)')
    .option('--bundled', BUNDLED_HELP)
    .option(
      '--concurrency <n>',
      'scenarios at once (default: the number of cores; 1 with --base-url)',
      parseIntIn(1, 256, 'an integer from 1 to 256'),
    )
    .option('--grep <regexp>', 'only scenarios whose name or file matches (case-insensitive)')
    .option('--bail', 'start no new scenario after one failed')
    .option('--seed <n>', 'seed of the unique values (the summary prints the one used)', parseInteger)
    .option(
      '--reporter <name>',
      'terminal, json (JSON Lines, on stdout unless --output) or junit; repeatable (default: terminal)',
      reporterName,
    )
    .option(
      '--output <file>',
      'the JUnit XML file (with --reporter junit; default: scenario-report.xml), or the JSON Lines file (with --reporter json alone)',
    )
    .option(
      '--no-reset',
      'with --base-url: do not reset the sandbox before each scenario (it is, by default, when the admin token is known)',
    )
    .option(
      '--key <shop=key>',
      'with --base-url: the API key of a shop that steps act as; repeatable; wins over --api-key for that shop (default: the fixture keys)',
      collect,
    )
    .addHelpText(
      'after',
      `
With --base-url the scenarios run one at a time against that sandbox (it has one clock and one set of balances),
which is reset to its fixtures before each one (sandbox control, admin token; --no-reset keeps its state);
--api-key is the key of the scenarios' default shop, --admin-token the sandbox's admin token (or their environment
variables and profile keys). Steps that need no sandbox control run against any server that speaks the spec;
without the admin token a warning says so at the start, and wait_for and control steps fail at once.
${EXIT_NOTE}
${example(`
  $ paygate scenario run scenarios/ --reporter junit --output reports/scenarios.xml
  $ paygate scenario run --grep webhook --seed 42
  $ paygate scenario run scenarios/ --reporter json --output reports/scenarios.jsonl
  $ paygate --base-url http://127.0.0.1:4080 --admin-token pg_admin_… scenario run scenarios/payments`)}`,
    )
    .action(action(runOptions, async () => (await import('./run-files.js')).runScenarios));
}
