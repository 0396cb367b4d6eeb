// Entry of the `paygate` CLI: builds the commander program, runs it, and is the one place that turns the outcome
// into an exit code (see exit-codes.ts). Statically imports only commander and tiny local modules.
import { CommanderError } from 'commander';
import { EXIT, type ExitCode } from './exit-codes.js';
import { buildProgram } from './program.js';
import { packageVersion } from './version.js';

/** Commander already printed its message; help and --version are successes, everything else is bad usage. */
function commanderExit(e: CommanderError): ExitCode {
  return e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
}

export async function main(argv: readonly string[] = process.argv): Promise<ExitCode> {
  try {
    const program = await buildProgram(packageVersion(), argv);
    await program.parseAsync([...argv]);
    return EXIT.OK;
  } catch (e) {
    if (e instanceof CommanderError) return commanderExit(e);
    const { reportError } = await import('./report-error.js');
    return reportError(e);
  }
}

// A reader that stops early (`paygate openapi | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});

process.exitCode = await main();
