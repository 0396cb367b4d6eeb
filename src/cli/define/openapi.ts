// `paygate openapi`: flags and help (run: commands/openapi.ts).
import type { Command } from 'commander';
import { action } from '../action.js';
import { example } from './shared.js';

export interface OpenapiOptions {
  /** The package version, written as info.version. */
  version: string;
}

export function defineOpenapi(program: Command, version: string): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the gateway')
    .option('--json', 'the document is always JSON; accepted like on every command that prints data')
    .addHelpText('after', example(`
  $ paygate openapi > openapi.json`))
    .action(action((): OpenapiOptions => ({ version }), async () => (await import('../commands/openapi.js')).openapi));
}
