// `paygate sandbox time [advance <duration>]`: flags, help and typed options (run: commands/sandbox-time.ts).
import type { Command } from 'commander';
import { action, adminExample, flag, JSON_HELP, jsonOptions, parseDuration, type Parsed } from './shared.js';

const run = () => import('../commands/sandbox-time.js');

export interface AdvanceOptions {
  /** How far: a duration string such as `10s` (sent as given), or milliseconds. */
  duration: string | number;
  json: boolean;
}

const advanceOptions = ({ args, opts }: Parsed): AdvanceOptions => ({ duration: args[0] as string | number, json: flag(opts.json) });

export function defineSandboxTime(sandboxCmd: Command): void {
  const timeCmd = sandboxCmd
    .command('time')
    .description('show the sandbox clock: now, frozen or not, pending timers (GET /sandbox/clock; admin token)')
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox time
  $ paygate sandbox time advance 10s`))
    .action(action(jsonOptions, async () => (await run()).time));
  timeCmd
    .command('advance')
    .description('move the sandbox clock forward and run every timer that falls due; prints the new time (admin token)')
    .argument('<duration>', 'how far: 500ms, 10s, 30m, 2h, 1d, or a number of milliseconds', parseDuration)
    .option('--json', JSON_HELP)
    .addHelpText('after', adminExample(`
  $ paygate sandbox time advance 10s          # a +slow provider accepts
  $ paygate sandbox time advance 30m --json   # card payments expire
  $ paygate sandbox time advance 1500`))
    .action(action(advanceOptions, async () => (await run()).advance));
}
