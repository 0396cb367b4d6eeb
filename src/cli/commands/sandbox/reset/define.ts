// `paygate sandbox reset`: flags, help and typed options (run: run.ts).
import type { Command } from 'commander';
import { action, adminExample, flag, JSON_HELP, type Parsed } from '../../shared.js';

export interface ResetOptions {
  /** Do not ask for confirmation (required without a terminal). Default false. */
  yes: boolean;
  json: boolean;
}

const resetOptions = ({ opts }: Parsed): ResetOptions => ({ yes: flag(opts.yes), json: flag(opts.json) });

export function defineSandboxReset(sandboxCmd: Command): void {
  sandboxCmd
    .command('reset')
    .description(
      'forget every operation, posting and issued key and re-seed from the fixtures (POST /sandbox/reset; admin token)',
    )
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      adminExample(`
  $ paygate sandbox reset
  $ paygate sandbox reset --yes --json`),
    )
    .action(action(resetOptions, async () => (await import('./run.js')).reset));
}
