// Typed errors that commands throw instead of exiting; each one carries its exit code and an optional hint.
import { EXIT, type ExitCode } from './exit-codes.js';

export class CliError extends Error {
  override readonly name: string = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** What the user can do next, printed under the message. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Bad or missing flags and arguments (exit 2). */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.USAGE, hint);
  }
}

/** The sandbox could not start (exit 5). `paygate sandbox start` wraps any other failure into one of these. */
export class SandboxStartError extends CliError {
  override readonly name = 'SandboxStartError';
  constructor(message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, EXIT.SANDBOX, hint);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** A check the command ran reported failure (e.g. `paygate health` when a probe is down); output was already printed. */
export class CheckFailedError extends CliError {
  override readonly name = 'CheckFailedError';
  constructor(message: string) {
    super(message, EXIT.API_ERROR);
  }
}
