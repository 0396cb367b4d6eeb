// The process exit codes of the CLI; only the top-level handler in main.ts turns an outcome into one.

export const EXIT = {
  /** Success. */
  OK: 0,
  /** The API answered with an error (4xx/5xx), or a probe reported unhealthy. */
  API_ERROR: 1,
  /** Bad usage: unknown command or option, missing or malformed flag. */
  USAGE: 2,
  /** Could not reach the API: connection refused/reset, DNS failure, or timeout. */
  CONNECTION: 3,
  /** The API answered, but the body does not match the contract. */
  CONTRACT: 4,
  /** `paygate sandbox start` could not start the sandbox. */
  SANDBOX: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
