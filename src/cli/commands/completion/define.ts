// `paygate completion bash|zsh|fish`: flags and help, and the command tree the script is generated from (read from
// commander's definitions as help shows them: hidden commands and options left out). Run: run.ts.
import { Argument, Help, type Command } from 'commander';
import { example } from '../shared.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export interface OptionNode {
  /** `--amount`, and `-h` where there is a short form. */
  flags: string[];
  description: string;
  /** The option takes a value (`--amount <amount>`). */
  takesValue: boolean;
  /** The values it accepts, when they are a fixed list. */
  choices: string[];
}

export interface CommandNode {
  name: string;
  description: string;
  options: OptionNode[];
  commands: CommandNode[];
  /** Values of its first argument, when they are a fixed list (`completion <shell>`). */
  argumentChoices: string[];
}

export interface CompletionOptions {
  shell: Shell;
  tree: CommandNode;
}

/** The visible tree under `cmd`; `help` completes its siblings' names. */
export function commandTree(cmd: Command): CommandNode {
  const help = new Help();
  const visible = help.visibleCommands(cmd);
  const siblings = visible.filter((c) => c.name() !== 'help').map((c) => c.name());
  // `paygate help globals` names a hidden command.
  if (cmd.commands.some((c) => c.name() === 'globals')) siblings.push('globals');
  return {
    name: cmd.name(),
    description: help.commandDescription(cmd),
    options: help.visibleOptions(cmd).map((o) => ({
      flags: [o.long, o.short].filter((f): f is string => f !== undefined),
      description: o.description,
      takesValue: o.required || o.optional,
      choices: o.argChoices ?? [],
    })),
    commands: visible.map((c) =>
      c.name() === 'help'
        ? {
            name: 'help',
            description: help.subcommandDescription(c),
            options: [],
            commands: [],
            argumentChoices: siblings,
          }
        : commandTree(c),
    ),
    argumentChoices: cmd.registeredArguments[0]?.argChoices ?? [],
  };
}

export function defineCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script for paygate (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText(
      'after',
      `
The script is generated from paygate's commands and options; print it again after an upgrade.
${example(`
  $ paygate completion bash > ~/.local/share/bash-completion/completions/paygate
  $ echo 'source <(paygate completion bash)' >> ~/.bashrc
  $ paygate completion zsh > "\${fpath[1]}/_paygate"          # then restart zsh (compinit)
  $ paygate completion fish > ~/.config/fish/completions/paygate.fish`)}`,
    )
    .action(async (shell: Shell, _opts: unknown, cmd: Command) => {
      const tree = commandTree(cmd.parent!);
      const { completion } = await import('./run.js');
      const { processDeps } = await import('../../deps.js');
      await completion({ shell, tree }, processDeps({}));
    });
}
