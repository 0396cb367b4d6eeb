// Entry of the `paygate` CLI: builds the commander program, runs it, and is the one place that turns the outcome
// into an exit code (see exit-codes.ts). Statically imports only commander and tiny local modules.
import { CommanderError } from 'commander';
import { errorJson, jsonRequested } from './errors.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import { redact, registerSecretsFromProcess } from './mask.js';
import { buildProgram } from './program.js';
import { packageVersion } from './version.js';

/**
 * Commander already printed its message on stderr; help and --version are successes, everything else is bad usage,
 * printed as JSON on stdout too under `--json`.
 */
function commanderExit(e: CommanderError, json: boolean): ExitCode {
  if (e.exitCode === 0) return EXIT.OK;
  if (json) {
    registerSecretsFromProcess();
    const body = errorJson('usage_error', redact(e.message.replace(/^error: /, '')), null, 'add --help for usage');
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  }
  return EXIT.USAGE;
}

export async function main(argv: readonly string[] = process.argv): Promise<ExitCode> {
  const json = jsonRequested(argv.slice(2));
  try {
    const program = await buildProgram(packageVersion(), argv);
    await program.parseAsync([...argv]);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof CommanderError) return commanderExit(e, json);
    const { reportError } = await import('./report-error.js');
    return reportError(e, { json, flagsGiven: argv.slice(2).some((a) => a.startsWith('-') && a !== '--json') });
  }
}

// A reader that stops early (`paygate openapi | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});

process.exitCode = await main();
