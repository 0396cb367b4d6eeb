// The runner's typed errors: each maps to one exit code of `paygate scenario` (2 for a file or usage problem,
// 3 for a target that cannot be reached); a failing expectation is not an error but a result.

/** One problem of a scenario file, 1-based line and column. */
export interface FileIssue {
  line: number;
  column: number;
  /** The field at fault, e.g. `steps[2].expect.status` ('' for a syntax error). */
  path: string;
  message: string;
}

/** A scenario file that cannot be read, parsed or validated. */
export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';
  constructor(
    readonly file: string,
    readonly issues: FileIssue[],
  ) {
    super(issues.map((i) => `${file}:${i.line}:${i.column}: ${i.path ? `${i.path}: ` : ''}${i.message}`).join('\n'));
  }
}

/** The command was misused: no scenario matched, a bad option. */
export class ScenarioUsageError extends Error {
  override readonly name = 'ScenarioUsageError';
  constructor(
    message: string,
    /** What to do about it, when there is something to say. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The sandbox (or gateway) given with --base-url does not answer. */
export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
}

/** Several files failed to load (validate and run report all of them, then exit 2). */
export class ScenarioFilesError extends Error {
  override readonly name = 'ScenarioFilesError';
  constructor(readonly errors: ScenarioFileError[]) {
    super(errors.map((e) => e.message).join('\n'));
  }
}
