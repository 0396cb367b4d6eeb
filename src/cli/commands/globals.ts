// The global options in help: a command's help names them in one line (they are the same everywhere), and
// `paygate help globals` (the hidden `globals` command) lists them in full. Loaded for `--help`: commander only.
import { Help, type Command } from 'commander';
import { example } from './shared.js';

/** The root command: the one whose options are the global ones. */
function rootOf(cmd: Command): Command {
  let c = cmd;
  while (c.parent) c = c.parent;
  return c;
}

/** `--base-url, --api-key, …`: the root's visible options, without --version and --help. */
function globalFlags(root: Command): string {
  return root.options
    .filter((o) => !o.hidden && o.long !== '--version' && o.long !== '--help')
    .map((o) => o.long ?? o.short)
    .join(', ');
}

/**
 * commander's help with the global options collapsed into one line under the command's own (before its
 * subcommands); the root's help lists them in full as its own options.
 */
export function collapsedGlobals(cmd: Command, helper: Help): string {
  const text = Help.prototype.formatHelp.call(helper, cmd, helper);
  if (!cmd.parent) return text;
  const line = `${helper.boxWrap(`Global options: ${globalFlags(rootOf(cmd))} (see \`paygate help globals\`)`, helper.helpWidth ?? 80)}\n`;
  const commands = text.indexOf('\nCommands:\n');
  if (commands >= 0) return `${text.slice(0, commands + 1)}${line}${text.slice(commands)}`;
  return `${text.replace(/\n*$/, '\n')}\n${line}`;
}

/** The hidden `globals` command: `paygate help globals` shows every global option with its description. */
export function defineGlobals(program: Command): void {
  program
    .command('globals', { hidden: true })
    .description('the global options: every command takes them, before or after its name')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText(
      'after',
      `
Each value comes from the flag, else its environment variable, else the profile, else the default;
\`paygate config get <key>\` prints the value in effect and where it came from.
${example(`
  $ paygate --profile staging balances
  $ paygate balances --base-url http://127.0.0.1:4080 --api-key pg_test_a_7Hq2Lm9XwR4tNc8V --no-color`)}`,
    )
    .action(function (this: Command) {
      this.help();
    });
}
