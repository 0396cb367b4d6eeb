// Typed errors that commands throw instead of exiting; each one carries its exit code, a stable snake_case code
// (the `code` of the `--json` error body) and an optional hint.
import { EXIT, type ExitCode } from './exit-codes.js';

export class CliError extends Error {
  override readonly name: string = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** What the user can do next, printed under the message. */
    readonly hint?: string,
    /** The `code` of the `--json` error body. */
    readonly code: string = 'error',
  ) {
    super(message);
  }
}

/** Bad or missing flags and arguments (exit 2). */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.USAGE, hint, 'usage_error');
  }
}

/** The sandbox could not start (exit 5). `paygate sandbox start` wraps any other failure into one of these. */
export class SandboxStartError extends CliError {
  override readonly name = 'SandboxStartError';
  constructor(message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, EXIT.SANDBOX, hint, 'sandbox_start_failed');
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** A check the command ran reported failure (e.g. `paygate health` when a probe is down); output was already printed. */
export class CheckFailedError extends CliError {
  override readonly name = 'CheckFailedError';
  constructor(message: string) {
    super(message, EXIT.API_ERROR, undefined, 'check_failed');
  }
}

/** `--expect-status` named another status than the operation ended in (exit 1); the operation was printed. */
export class UnexpectedStatusError extends CliError {
  override readonly name = 'UnexpectedStatusError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.API_ERROR, hint, 'unexpected_status');
  }
}

/** Ctrl+C at a prompt (exit 130): nothing was sent. */
export class InterruptedError extends CliError {
  override readonly name = 'InterruptedError';
  constructor() {
    super('cancelled at the prompt (Ctrl+C): nothing was sent', EXIT.INTERRUPTED, undefined, 'interrupted');
  }
}

/** The `--json` error body: `{ "error": { "code", "message", "http_status", "hint"? } }`. */
export interface ErrorJson {
  error: { code: string; message: string; http_status: number | null; hint?: string };
}

export function errorJson(code: string, message: string, httpStatus: number | null, hint?: string): ErrorJson {
  return { error: { code, message, http_status: httpStatus, ...(hint ? { hint } : {}) } };
}

/** `--json` appears among the arguments (before a `--`): errors are then printed as JSON on stdout too. */
export function jsonRequested(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--json') return true;
  }
  return false;
}
