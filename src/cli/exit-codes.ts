// The process exit codes of the CLI; only the top-level handler in main.ts turns an outcome into one.

export const EXIT = {
  /** Success. */
  OK: 0,
  /** The API answered with an error (4xx/5xx), a probe reported unhealthy, or `--expect-status` did not match. */
  API_ERROR: 1,
  /** Bad usage: unknown command or option, missing or malformed flag (a non-ASCII API key or admin token too). */
  USAGE: 2,
  /** Could not reach the API: connection refused/reset, DNS failure, or timeout. */
  CONNECTION: 3,
  /** The API answered, but not as paygate: a body that breaks the contract, an HTML page, no such paths. */
  CONTRACT: 4,
  /** `paygate sandbox start` could not start the sandbox. */
  SANDBOX: 5,
  /** The user pressed Ctrl+C at a prompt (128 + SIGINT, as shells report it). */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
