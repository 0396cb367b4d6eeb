// `paygate health`: flags and help (run: commands/health.ts).
import type { Command } from 'commander';
import { action } from '../action.js';
import { example, jsonOptions } from './shared.js';

export function defineHealth(program: Command): void {
  program
    .command('health')
    .description('check the livez, healthz and readyz probes (exit 1 when any is unhealthy)')
    .option('--json', 'print the probe results as JSON: {"livez":{"ok":true,"status":204},...}')
    .addHelpText('after', example(`
  $ paygate health
  $ paygate health --base-url http://127.0.0.1:4080 --json`))
    .action(action(jsonOptions, async () => (await import('../commands/health.js')).health));
}
