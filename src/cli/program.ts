// The root command: the global options (--base-url, --api-key, --admin-token, --profile), version, help and error
// output, and the commands in help order. Each command has a folder commands/<command>/: define.ts (flags, help,
// typed options) and run.ts, a plain function imported only when it runs. The groups (payment, sandbox, …) are
// created here with their one-line description; their subcommands are defined only when argv names the group, so
// `paygate --help` loads commander, this file and the definitions directly in commands/ (shared, globals,
// top-level) and commands/completion/define.ts, commands/verify/define.ts and commands/dashboard/define.ts, no run
// module.
import { Command } from 'commander';
import { defineCompletion } from './commands/completion/define.js';
import { defineDashboard } from './commands/dashboard/define.js';
import { defineVerify } from './commands/verify/define.js';
import { collapsedGlobals, defineGlobals } from './commands/globals.js';
import { example } from './commands/shared.js';
import { defineAmounts, defineBalances, defineHealth, defineOpenapi, defineState } from './commands/top-level.js';
import { redact, registerSecretsFromProcess } from './mask.js';

/** The program with its global options; every command reads them through `globalOptions()` (commands/shared.ts). */
function rootCommand(version: string): Command {
  return new Command('paygate')
    .description('Offline sandbox of the payment gateway API, and a CLI to call it.')
    .version(version, '-V, --version', 'print the paygate version')
    .option('--base-url <url>', 'API base URL (env: PAYGATE_BASE_URL; else the profile; else http://127.0.0.1:4080)')
    .option('--api-key <key>', 'API key sent as X-API-Key (env: PAYGATE_API_KEY; else the profile)')
    .option(
      '--admin-token <token>',
      'sandbox admin token sent as X-Admin-Token by the clock, evidence, keys, pool show / settings, faults and reset controls (env: PAYGATE_ADMIN_TOKEN; else the profile key admin-token; printed by `paygate sandbox start`)',
    )
    .option('--profile <name>', 'config profile to use (env: PAYGATE_PROFILE; else the current one, else "default")')
    .option(
      '--ca <file>',
      'PEM certificate to trust besides the usual roots, e.g. the one `paygate sandbox start --https` prints (env: PAYGATE_CA)',
    )
    .option('--no-color', 'print no colour (env: NO_COLOR)')
    .exitOverride()
    .configureOutput({
      writeErr: (s) => {
        registerSecretsFromProcess();
        process.stderr.write(redact(s));
      },
    })
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ sortSubcommands: false, formatHelp: collapsedGlobals })
    .addHelpText(
      'after',
      example(`
  $ paygate sandbox start                      # run the sandbox on http://127.0.0.1:4080
  $ paygate config set api-key pg_test_xxxxxxxxxxxx
  $ paygate payment create --method WT_RUB_C2C --amount 1500.00 --currency RUB --client-id user-42
  $ paygate state 1f0c6d1e-8a43-4b5e-9d1a-0c7a4a1e2b3c --json

Exit codes: 0 ok, 1 API error (or --expect-status not met), 2 usage, 3 connection or timeout, 4 not a paygate
answer (HTML, no such path, a body breaking the contract), 5 sandbox could not start, 130 Ctrl+C at a prompt.
Under --json, an error is also printed on stdout as {"error":{"code","message","http_status"}}.`),
    );
}

/** Adds a group's subcommands and help text to it (commands/<group>/define.ts). */
type DefineGroup = (group: Command) => void;

/** The global options that take a value: argv's command name is the first operand after them. */
const VALUE_OPTIONS = new Set(['--base-url', '--api-key', '--admin-token', '--profile', '--ca']);

/** The top-level command argv names (`help <name>` names <name>), or undefined. */
export function commandNamed(args: readonly string[]): string | undefined {
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return args[i + 1];
    if (VALUE_OPTIONS.has(a)) i++;
    else if (a.startsWith('-')) continue;
    else if (a === 'help' && !help) help = true;
    else return a;
  }
  return undefined;
}

const loadCluster = async () => (await import('./commands/cluster/define.js')).defineCluster;

/** `group(name, description, load)`: a command whose subcommands `load` defines when `groups.get(name)` is called. */
function groupAdder(program: Command, groups: Map<string, () => Promise<void>>) {
  return (name: string, description: string, load: () => Promise<DefineGroup>): void => {
    const cmd = program.command(name).description(description);
    let defined: Promise<void> | undefined;
    groups.set(name, () => (defined ??= load().then((define) => define(cmd))));
  };
}

/** A group's subcommands are defined before it is dispatched to; --no-color sets NO_COLOR before any action. */
function addHooks(program: Command, groups: Map<string, () => Promise<void>>): void {
  program.hook('preSubcommand', async (_program, sub) => {
    await groups.get(sub.name())?.();
  });
  program.hook('preAction', (_program, command) => {
    if (command.optsWithGlobals().color === false) process.env.NO_COLOR = '1';
  });
}

/**
 * The program, with the subcommands of the group `argv` names defined. A group that is dispatched to without
 * having been named that way (argv read differently than here) is still defined first, by a preSubcommand hook.
 */
export async function buildProgram(version: string, argv: readonly string[] = process.argv): Promise<Command> {
  const program = rootCommand(version);
  const groups = new Map<string, () => Promise<void>>();
  const group = groupAdder(program, groups);

  group(
    'payment',
    'inbound payments: create, hosted link, confirm, cancel',
    async () => (await import('./commands/payment/define.js')).definePayment,
  );
  group('payout', 'outbound payouts', async () => (await import('./commands/payout/define.js')).definePayout);
  defineAmounts(program);
  defineState(program);
  group(
    'operation',
    'one operation as the sandbox records it (sandbox control API)',
    async () => (await import('./commands/operation/define.js')).defineOperation,
  );
  for (const define of [defineBalances, defineHealth, defineDashboard]) define(program);
  defineOpenapi(program, version);
  group(
    'config',
    'profiles of base URL, API key and sandbox admin token, stored in the config file',
    async () => (await import('./commands/config/define.js')).defineConfig,
  );
  group(
    'sandbox',
    'run the offline sandbox of the gateway, and drive it: time, payer / provider / reviewer actions, evidence, keys, pool, links, faults, reset',
    async () => (await import('./commands/sandbox/define.js')).defineSandbox,
  );
  group(
    'workspace',
    "isolated sandboxes on one server, e.g. one per CI job: create, list, delete (the server's admin token)",
    async () => (await import('./commands/workspace/define.js')).defineWorkspace,
  );
  group('cluster', 'the processes of a cluster (sandbox start --cluster): status', loadCluster);
  group(
    'ops',
    'support: find operations across shops, explain one, watch them live (sandbox; admin token or API key)',
    async () => (await import('./commands/ops/define.js')).defineOps,
  );
  group(
    'logs',
    "support: tail the sandbox's request log live",
    async () => (await import('./commands/logs/define.js')).defineLogs,
  );
  group(
    'webhooks',
    "receive the sandbox's webhooks locally: verify, print, forward",
    async () => (await import('./commands/webhooks/define.js')).defineWebhooksListen,
  );
  group(
    'trigger',
    'produce a webhook event for your shop by running its flow: payment.completed, payout.failed, … (sandbox)',
    async () => (await import('./commands/trigger/define.js')).defineTrigger,
  );
  defineVerify(program);
  group(
    'scenario',
    'scripted scenarios: list, validate, write and run them (in process or against --base-url)',
    async () => (await import('./commands/scenario/define.js')).defineScenario,
  );
  defineCompletion(program);
  defineGlobals(program);

  addHooks(program, groups);
  const named = commandNamed(argv.slice(2));
  if (named !== undefined) await groups.get(named)?.();
  // The completion script covers every command: define every group.
  if (named === 'completion') await Promise.all([...groups.values()].map((define) => define()));
  return program;
}
