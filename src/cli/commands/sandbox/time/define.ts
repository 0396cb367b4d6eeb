// `paygate sandbox time [advance <duration>]`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import { action, adminExample, flag, JSON_HELP, jsonOptions, type Parsed } from '../../shared.js';

const run = () => import('./run.js');

export interface AdvanceOptions {
  /** How far, as typed: a duration such as `10s` or `1.5s`, or milliseconds (read when the command runs). */
  duration: string;
  json: boolean;
}

const advanceOptions = ({ args, opts }: Parsed): AdvanceOptions => ({
  duration: String(args[0]),
  json: flag(opts.json),
});

export function defineSandboxTime(sandboxCmd: Command): void {
  const timeCmd = sandboxCmd
    .command('time')
    .description('show the sandbox clock: now, frozen or not, pending timers (GET /sandbox/clock; admin token)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox time
  $ paygate sandbox time advance 10s`),
    )
    .action(action(jsonOptions, async () => (await run()).time));
  timeCmd
    .command('advance')
    .description('move the sandbox clock forward and run every timer that falls due; prints the new time (admin token)')
    .argument('<duration>', 'how far: 500ms, 1.5s, 30m, 2h, 1d, 1h30m, or a number of milliseconds (at most 366d)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox time advance 10s          # a +slow provider accepts
  $ paygate sandbox time advance 30m --json   # card payments expire
  $ paygate sandbox time advance 1500`),
    )
    .action(action(advanceOptions, async () => (await run()).advance));
}
