// `paygate balances`: flags and help (run: commands/balances.ts).
import type { Command } from 'commander';
import { action } from '../action.js';
import { example, jsonOptions } from './shared.js';

export function defineBalances(program: Command): void {
  program
    .command('balances')
    .description('balances of the shop bound to the API key (GET /v1/balances)')
    .option('--json', 'print exactly the response body as JSON')
    .addHelpText('after', example(`
  $ paygate balances
  $ paygate balances --profile staging --json`))
    .action(action(jsonOptions, async () => (await import('../commands/balances.js')).balances));
}
